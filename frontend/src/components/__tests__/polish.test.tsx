// Issue 28, the rough edges of the window (points 2, 7 and 8) and
// Settings in sections. Each case failed on the code before its fix.
import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import css from "../../styles.css?raw";
import planCss from "../../plan.css?raw";
import { renderApp } from "../../test/render";
import { detail, FakeBackend, summary, mcpSection, mcpServer as fakeServer } from "../../test/fakeBackend";
import type { Approval, ChangeView, MCPServer, Message, ToolCall } from "../../lib/wire.gen";

const sheet = document.createElement("style");
sheet.textContent = css + planCss;
document.head.append(sheet);

async function openSession(b: FakeBackend) {
  renderApp(b);
  fireEvent.click(await screen.findByText("Session 1"));
  await screen.findByTestId("chat-input");
  await waitFor(() => expect(b.callsOf("getSession")).toHaveLength(1));
  await act(async () => {});
}

async function openSettings(b = new FakeBackend()) {
  renderApp(b);
  fireEvent.click(await screen.findByTestId("settings-open"));
  await screen.findByTestId("settings-save");
  return b;
}

const mcpServer = (over: Partial<MCPServer>): MCPServer =>
  fakeServer({ tools: [{ name: "mcp__fs__read_file", tool: "read_file", description: "Read the complete contents of a file.\nMore lines." }], stderr: [], args: null, ...over });

describe("Settings in sections", () => {
  it("has a side index of its sections, each entry leading to its section", async () => {
    await openSettings();
    const nav = screen.getAllByTestId("settings-nav-item");
    expect(nav.map((n) => n.getAttribute("data-section"))).toEqual(["provider", "models", "approvals", "sandbox", "mcp", "setup", "languages", "web", "notifications", "helpers", "about"]);
    expect(nav.map((n) => n.textContent)).toEqual(["Provider & model", "Models", "Approvals & rules", "Sandbox", "MCP servers", "Setup", "Languages", "Web", "Notifications", "Helpers", "About"]);
    const sections = screen.getAllByTestId("settings-section").filter((s) => !s.hidden);
    expect(sections.map((s) => s.getAttribute("data-section"))).toEqual(["provider", "models", "approvals", "sandbox", "mcp", "setup", "languages", "web", "notifications", "helpers", "about"]);
    // What the sections hold, existing controls kept.
    const section = (id: string) => sections.find((s) => s.getAttribute("data-section") === id)!;
    expect(within(section("provider")).getByTestId("settings-model")).toBeTruthy();
    expect(within(section("models")).getByTestId("model-overrides")).toBeTruthy();
    expect(within(section("approvals")).getByTestId("settings-approval-ask")).toBeTruthy();
    expect(within(section("mcp")).getByTestId("settings-mcp")).toBeTruthy();
    expect(await within(section("web")).findByTestId("settings-web")).toBeTruthy();
    expect(within(section("notifications")).getByTestId("settings-notifications")).toBeTruthy();
    expect(within(section("helpers")).getByTestId("settings-helpers")).toBeTruthy();
    expect(await within(section("about")).findByTestId("settings-about")).toBeTruthy();
    // The sandbox's section holds its state.
    expect(within(section("sandbox")).getByTestId("sandbox-state")).toBeTruthy();

    fireEvent.click(nav[2]!);
    expect(nav[2]!.getAttribute("aria-current")).toBe("location");
    expect(nav[0]!.getAttribute("aria-current")).toBeNull();
  });

  it("is the one place of the default mode, with the session control's choices and words, and says so", async () => {
    const b = await openSettings();
    const approvals = screen.getAllByTestId("settings-section").find((s) => s.getAttribute("data-section") === "approvals")!;
    expect(approvals.textContent).toContain("New sessions start in this mode; each session can change its own mode in the chat.");
    const radios = within(approvals).getAllByRole("radio") as HTMLInputElement[];
    const sessionOptions = [...(screen.getByTestId("mode-select") as HTMLSelectElement).options].map((o) => [o.value, o.textContent]);
    expect(radios.map((r) => [r.value, r.parentElement?.querySelector("strong")?.textContent])).toEqual(sessionOptions);
    fireEvent.click(screen.getByTestId("settings-approval-plan"));
    fireEvent.click(screen.getByTestId("settings-save"));
    await waitFor(() => expect(b.callsOf("saveSettings")).toHaveLength(1));
    expect(b.callsOf("saveSettings")[0]![0]).toMatchObject({ approvalMode: "plan" });
  });

  it("the session control says it is this session's mode", async () => {
    await openSession(new FakeBackend());
    const select = screen.getByTestId("mode-select");
    expect(select.getAttribute("aria-label")).toBe("This session's mode");
    expect(select.closest("label")?.textContent).toContain("This session:");
    expect(select.closest("label")?.getAttribute("title")).toContain("New sessions start in the default mode set in Settings");
  });

  it("words the model count and where a value comes from, and aligns every heading left", async () => {
    const b = new FakeBackend();
    b.models = ["claude-sonnet-4-5"];
    b.settings = { ...b.settings, source: { model: "default" } };
    await openSettings(b);
    expect((await screen.findByTestId("settings-models", undefined, { timeout: 3000 })).textContent).toBe("The server offers 1 model; one not listed can be typed.");
    expect(screen.getByTestId("settings-model-source").textContent).toBe("Pilot's default: not set here or in the environment.");
    // The notifications switch no longer sits in a centred column under its own heading.
    expect(screen.getByTestId("settings-notifications").closest(".field")).toBeNull();
    for (const h of screen.getByTestId("settings-dialog").querySelectorAll("h3")) expect(getComputedStyle(h).textAlign).not.toBe("center");
  });
});

describe("MCP trust is recoverable (point 2)", () => {
  it("'Not now', then Settings' 'Trust and start…' shows the same prompt, and a notice outside Settings says the server started", async () => {
    const b = new FakeBackend();
    b.trust = { needed: true, project: "/p", path: "/p/.mcp.json", hash: "abc", servers: [{ name: "fs", display: "npx -y @modelcontextprotocol/server-filesystem ." }], changed: false, sections: [mcpSection], token: "tok" };
    b.mcp = { project: "/p", configError: "", servers: [mcpServer({ state: "disabled", tools: [], error: "waiting for you to trust this project's .mcp.json" })] };
    renderApp(b);
    fireEvent.click(within(await screen.findByTestId("mcp-trust")).getByTestId("mcp-trust-later"));
    await waitFor(() => expect(screen.queryByTestId("mcp-trust")).toBeNull());

    fireEvent.click(screen.getByTestId("settings-open"));
    const row = await screen.findByTestId("mcp-server");
    fireEvent.click(await within(row).findByTestId("mcp-server-trust"));
    const prompt = await screen.findByTestId("mcp-trust");
    expect(prompt.textContent).toContain("npx -y @modelcontextprotocol/server-filesystem .");
    const asked = b.callsOf("mcpServers").length;
    fireEvent.click(within(prompt).getByTestId("mcp-trust-accept"));
    await waitFor(() => expect(b.callsOf("trustProject")).toEqual([["tok"]]));

    const notice = await screen.findByTestId("mcp-started");
    expect(screen.getByTestId("settings-dialog").contains(notice)).toBe(false);
    // Until the hub takes the trust the server still reads off: that is starting, not a failure.
    await waitFor(() => expect(b.callsOf("mcpServers").length).toBeGreaterThan(asked));
    await act(async () => {});
    expect(notice.getAttribute("data-state")).toBe("starting");
    expect(notice.textContent).toContain("MCP: starting fs…");
    b.mcp = { ...b.mcp, servers: [mcpServer({})] };
    act(() => b.emit("mcp:updated", { project: "/p" }));
    await waitFor(() => expect(screen.getByTestId("mcp-started").textContent).toContain("MCP: fs started with 1 tool."));
    expect(screen.getByTestId("mcp-started").getAttribute("data-state")).toBe("ready");
    await waitFor(() => expect(within(screen.getByTestId("mcp-server")).queryByTestId("mcp-server-trust")).toBeNull());
  });

  it("says what to do when a trusted server fails to start", async () => {
    const b = new FakeBackend();
    b.trust = { needed: true, project: "/p", path: "/p/.mcp.json", hash: "abc", servers: [{ name: "fs", display: "fs-mcp" }], changed: false, sections: [mcpSection], token: "tok" };
    b.mcp = { project: "/p", configError: "", servers: [mcpServer({ state: "failed", tools: [], error: 'could not start "fs-mcp": not found' })] };
    renderApp(b);
    fireEvent.click(within(await screen.findByTestId("mcp-trust")).getByTestId("mcp-trust-accept"));
    const notice = await screen.findByTestId("mcp-started");
    await waitFor(() => expect(notice.getAttribute("data-state")).toBe("failed"));
    expect(notice.textContent).toContain('fs did not start: could not start "fs-mcp": not found');
    expect(notice.textContent).toContain("Settings › MCP servers shows its last lines of stderr");
    fireEvent.click(within(notice).getByRole("button", { name: "Open Settings" }));
    expect(await screen.findByTestId("settings-dialog")).toBeTruthy();
  });
});

describe("an approved plan shows once (point 7)", () => {
  const planInput = { plan: "## Goal\nRename the package.", steps: ["Patch main.go"] };
  const planCall: ToolCall = { id: "p1", messageId: 2, name: "present_plan", label: "→ Presenting the plan", input: planInput, status: "done", output: "shown", isError: false, startedAt: 2 };
  const base: Message[] = [
    { id: 1, role: "user", blocks: [{ type: "text", text: "Plan a rename" }], state: "complete", createdAt: 1 },
    { id: 2, role: "assistant", blocks: [{ type: "tool_use", id: "p1", name: "present_plan", input: planInput }], state: "complete", createdAt: 2 },
    { id: 3, role: "user", blocks: [{ type: "tool_result", toolUseId: "p1", text: "shown" }], state: "complete", createdAt: 3 },
  ];

  it("the message that starts the work is one short line; the plan is only on its card", async () => {
    const approved: Message = {
      id: 4,
      role: "user",
      blocks: [{ type: "text", text: "I approve this plan. Carry it out now, in ask mode.\n\n## Goal\nRename the package.", command: "Plan approved — switching to ask" }],
      state: "complete",
      createdAt: 4,
    };
    const b = new FakeBackend();
    b.details[1] = detail(1, { messages: [...base, approved], toolCalls: [planCall] });
    await openSession(b);
    const user = screen.getAllByTestId("message").filter((m) => m.getAttribute("data-role") === "user");
    expect(user.at(-1)!.textContent).toBe("Plan approved — switching to ask");
    expect(document.body.textContent?.match(/Rename the package\./g)).toHaveLength(1);
  });

  it("approves with one control, 'Approve and continue in [mode]', whose words no other control rewrites", async () => {
    const b = new FakeBackend();
    b.sessions = [summary(1, { approvalMode: "plan" })];
    b.details[1] = detail(1, { session: b.sessions[0]!, messages: base, toolCalls: [planCall] });
    await openSession(b);
    const approve = screen.getByTestId("plan-approve");
    const mode = screen.getByTestId("plan-approve-mode") as HTMLSelectElement;
    expect(approve.parentElement).toBe(mode.parentElement);
    expect(approve.parentElement?.getAttribute("role")).toBe("group");
    expect(approve.textContent).toBe("Approve and continue in");
    expect([...mode.options].map((o) => o.textContent)).toEqual(["edits", "ask"]);
    fireEvent.change(mode, { target: { value: "edits" } });
    expect(approve.textContent).toBe("Approve and continue in");
    expect(approve.getAttribute("aria-label")).toBe("Approve the plan and continue in edits mode");
  });
});

describe("smaller things (point 8)", () => {
  it("a task left in progress when the turn ended is not shown in progress", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, { todos: [{ content: "Read the lexer", status: "done" }, { content: "Fix the bug", status: "in_progress" }] });
    await openSession(b);
    const item = screen.getAllByTestId("todo-item")[1]!;
    expect(item.className).not.toContain("todo-in_progress");
    expect(item.getAttribute("data-stopped")).toBe("true");
    expect(item.textContent).toContain("stopped when the turn ended");
    expect(getComputedStyle(item).fontWeight).not.toBe("600");
    // While a turn runs it is in progress.
    act(() => b.emit("agent:state", { sessionId: 1, seq: 1, state: "streaming" }));
    await waitFor(() => expect(screen.getAllByTestId("todo-item")[1]!.className).toContain("todo-in_progress"));
  });

  it("shows the diff-layout switch only over a change, and an MCP card says what the tool does", async () => {
    const b = new FakeBackend();
    b.mcp = { project: "/p", configError: "", servers: [mcpServer({ name: "everything" , tools: [{ name: "mcp__everything__get-sum", tool: "get-sum", description: "Returns the sum of two numbers." }] })] };
    const cmd: Approval = { id: "c1", kind: "command", toolCallId: "t1", tool: "run_bash", command: "go test ./...", alwaysRules: ['allow run_bash "go test *"'] };
    const mcp: Approval = { id: "m1", kind: "mcp", toolCallId: "t2", tool: "mcp__everything__get-sum", server: "everything", mcpTool: "get-sum", arguments: '{"a":2}' };
    b.details[1] = detail(1, { pending: [cmd, mcp], state: "awaiting_approval" });
    await openSession(b);
    await screen.findAllByTestId("bash-approval");
    expect(screen.queryByRole("radiogroup", { name: "Diff layout" })).toBeNull();
    expect((await screen.findByTestId("mcp-approval-description")).textContent).toBe("Returns the sum of two numbers.");
  });

  it("the sidebar counts the open session's tokens as the status bar does, during the first turn", async () => {
    const b = new FakeBackend();
    await openSession(b);
    act(() => {
      b.emit("agent:state", { sessionId: 1, seq: 1, state: "streaming" });
      b.emit("agent:usage", { sessionId: 1, seq: 2, usage: { inputTokens: 10_000, outputTokens: 1_000, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, costKnown: false, contextTokens: 11_000, contextWindow: 200000, contextWindowSource: "table" } });
    });
    await waitFor(() => expect(screen.getByTestId("usage").textContent).toBe("11k tokens"));
    expect(within(screen.getByTestId("session-item")).getByText(/tok/).textContent).toContain("11k tok");
  });

  it("draws a user message's actions under its bubble, not over its corner", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, { messages: [{ id: 1, role: "user", blocks: [{ type: "text", text: "hello" }], state: "complete", createdAt: 1 }] });
    await openSession(b);
    const msg = screen.getAllByTestId("message")[0]!;
    expect(getComputedStyle(msg.querySelector(".message-actions")!).position).toBe("static");
  });

  it("the prompt's placeholder fits one line of the chat column at 1280 px", async () => {
    await openSession(new FakeBackend());
    // 1280 px less the sidebar and the panel leaves the box about 560 px: 48 characters of 13 px text.
    expect((screen.getByTestId("chat-input") as HTMLTextAreaElement).placeholder.length).toBeLessThanOrEqual(48);
  });

  it("offers 'Always allow' on a file change that carries rules, shows them, and sends it with the approval", async () => {
    const change: ChangeView = {
      approvalId: "ap1",
      tool: "write_file",
      files: [{ path: "docs/a.md", isNew: true, emptied: false, hunks: [{ index: 0, oldStart: 0, oldLines: 0, newStart: 1, newLines: 1, lines: [{ kind: "add", text: "hi", newNo: 1 }] }] }],
    };
    const approval: Approval = { id: "ap1", kind: "change", toolCallId: "t1", tool: "write_file", paths: ["docs/a.md"], alwaysRules: ['allow write_file "docs/**"'] };
    const b = new FakeBackend();
    b.details[1] = detail(1, { pending: [approval], state: "awaiting_approval" });
    b.changes.ap1 = change;
    await openSession(b);
    await screen.findByTestId("diff-view");
    expect(screen.getByTestId("always-rule").textContent).toBe('allow write_file "docs/**"');
    fireEvent.click(screen.getByTestId("change-always"));
    fireEvent.click(screen.getByTestId("diff-approve-all"));
    await waitFor(() => expect(b.callsOf("decideChange")).toHaveLength(1));
    expect(b.callsOf("decideChange")[0]![1]).toMatchObject({ alwaysAllow: true });
  });
});
