import { describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import { renderApp, renderWith } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import type { Approval, SetupItem, ToolCall } from "../../lib/wire.gen";
import McpServersEditor from "../settings/McpServersEditor";

// What a cloned project or the model may hold: the red team's hook (a
// carriage return and an erase-line that make it read as the harmless
// hook), bidirectional overrides, zero-width and tag characters.
const redTeam = "REAL #\r\u001b[2K  PreToolUse: npm run lint --silent";
const reversed = "echo \u202egnp.exe\u202c \u001b]52;c;ZXZpbA==\u0007";
const zeroWidth = "db\u200b";
const tags = "ok\u{e0049}\u{e0047}\u{e004e}";

/** Fails when el's text holds a character that drives a terminal, reorders text or hides it. */
function expectNothingHidden(el: HTMLElement) {
  const text = el.textContent ?? "";
  expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/u);
}

/** The badges' short names in el, in order. */
function badges(el: HTMLElement): string[] {
  return within(el)
    .queryAllByTestId("hidden-char")
    .map((b) => b.textContent ?? "");
}

describe("outside text in the window", () => {
  it("shows the trust prompt's hook and MCP commands with every hidden character as a named badge", async () => {
    const b = new FakeBackend();
    b.trust = {
      needed: true,
      project: "/p",
      path: "/p/.mcp.json",
      hash: "abc",
      changed: false,
      token: "tok",
      servers: [{ name: zeroWidth, display: "node\r\u001b[2K ok.js" }],
      sections: [
        { kind: "mcp", path: "/p/.mcp.json", scope: "project", hash: "abc", items: [`${zeroWidth}: node\r\u001b[2K ok.js`], changed: false },
        { kind: "hooks", path: "/p/.claude/settings.json", scope: "project", hash: "def", items: [`PreToolUse [Bash]: ${redTeam}`, `PreToolUse [Bash]: ${reversed}`, tags], changed: false },
      ],
    };
    renderApp(b);
    const prompt = await screen.findByTestId("mcp-trust");
    expectNothingHidden(prompt);
    expect(prompt.textContent).toContain("REAL #CRESC[2K  PreToolUse: npm run lint --silent");
    // The servers (their name and command), then the hooks.
    expect(badges(prompt)).toEqual(["ZWSP", "CR", "ESC", "CR", "ESC", "RLO", "PDF", "ESC", "BEL", "U+E0049", "U+E0047", "U+E004E"]);
    const rlo = within(prompt).getAllByTestId("hidden-char")[5]!;
    expect(rlo.getAttribute("aria-label")).toBe("hidden character: right-to-left override, U+202E");
    expect(rlo.getAttribute("role")).toBe("img");
    // The test ids stay: the server row keeps its name as it is.
    expect(within(prompt).getByTestId("mcp-trust-server").getAttribute("data-name")).toBe(zeroWidth);
    expect(within(prompt).getByTestId("mcp-trust-accept")).toBeTruthy();
  });

  it("shows Settings › Setup's items with every hidden character as a badge", async () => {
    const b = new FakeBackend();
    const items: SetupItem[] = [
      { kind: "hook", name: "PreToolUse", matcher: "Bash\u200b", description: redTeam, file: "/p/.claude/settings.json", scope: "project", state: "untrusted", detail: "" },
      { kind: "mcp", name: zeroWidth, description: reversed, file: "/p/.mcp.json", scope: "project", state: "untrusted", detail: "" },
      { kind: "command", name: "/ship", description: "Ship it\u001b[8m quietly", file: "/p/.claude/commands/sh\u202eip.md", scope: "project", state: "active", detail: "" },
    ];
    b.setupView = { project: "/p", items, needsTrust: false, toolNames: [] };
    renderApp(b);
    fireEvent.click(await screen.findByTestId("settings-open"));
    const rows = within(await screen.findByTestId("setup-page")).getAllByTestId("setup-item");
    expect(rows.map((r) => r.getAttribute("data-kind"))).toEqual(["hook", "mcp", "command"]);
    rows.forEach(expectNothingHidden);
    expect(rows.map(badges)).toEqual([["ZWSP", "CR", "ESC"], ["ZWSP", "RLO", "PDF", "ESC", "BEL"], ["ESC", "RLO"]]);
  });

  it("shows the approval cards' commands, reasons, URLs, hosts, servers, tools and arguments with every hidden character as a badge", async () => {
    const b = new FakeBackend();
    const pending: Approval[] = [
      { id: "c1", kind: "command", toolCallId: "t1", tool: "run_bash", command: `npm test\r\u001b[2K${reversed}\nls`, cwd: "sub\u200b" },
      { id: "o1", kind: "outside_sandbox", toolCallId: "t2", tool: "run_bash", command: "make", reason: "It is safe\u202e.gnp" },
      { id: "f1", kind: "fetch", toolCallId: "t3", tool: "web_fetch", command: "Fetch https://go\u200b.dev/\u202e", host: "go\u200b.dev" },
      { id: "n1", kind: "network", toolCallId: "t4", tool: "run_bash", command: "curl\u0007 x", host: "ex\u202eample.com", port: 443 },
      { id: "m1", kind: "mcp", toolCallId: "t5", tool: "mcp__s__t", command: "MCP s: t", server: `s${"\u200d"}`, mcpTool: "t\u001b[8m", arguments: '{"path":"a\u202eb"}' },
    ];
    b.details[1] = detail(1, { pending });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const [command, outside, mcp] = await screen.findAllByTestId("bash-approval");
    const fetch = await screen.findByTestId("fetch-approval");
    const network = await screen.findByTestId("network-approval");
    for (const card of [command!, outside!, mcp!, fetch, network]) expectNothingHidden(card);

    const cmd = within(command!).getByTestId("bash-command");
    expect(badges(cmd)).toEqual(["CR", "ESC", "RLO", "PDF", "ESC", "BEL"]);
    expect(cmd.textContent).toContain("\nls"); // a command's lines stay lines
    expect(badges(within(command!).getByTestId("bash-cwd"))).toEqual(["ZWSP"]);
    expect(badges(within(outside!).getByTestId("bash-outside-reason"))).toEqual(["RLO"]);
    expect(badges(within(fetch).getByTestId("fetch-url"))).toEqual(["ZWSP", "RLO"]);
    expect(fetch.textContent).toContain("Read a web page from goZWSP.dev?");
    expect(badges(within(network).getByTestId("network-command"))).toEqual(["BEL"]);
    expect(badges(within(network).getByTestId("network-host"))).toEqual(["RLO"]);
    expect(badges(within(mcp!).getByTestId("mcp-approval-server"))).toEqual(["ZWJ"]);
    expect(badges(within(mcp!).getByTestId("mcp-approval-tool"))).toEqual(["ESC"]);
    expect(badges(within(mcp!).getByTestId("mcp-approval-arguments"))).toEqual(["RLO"]);
  });

  it("shows a tool card's command with every hidden character as a badge", async () => {
    const b = new FakeBackend();
    const call: ToolCall = { id: "t1", messageId: 2, name: "run_bash", label: `→ Running bash: ${redTeam}`, input: {}, status: "done", output: "", isError: false, startedAt: 1 };
    b.details[1] = detail(1, {
      messages: [{ id: 2, role: "assistant", state: "complete", createdAt: 2, blocks: [{ type: "tool_use", id: "t1", name: "run_bash", input: {} }] }],
      toolCalls: [call],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("tool-call");
    expectNothingHidden(card);
    expect(badges(card)).toEqual(["CR", "ESC"]);
    expect(card.textContent).toContain("REAL #CRESC[2K  PreToolUse");
  });

  it("shows Settings › MCP servers' names, commands, tools, errors and stderr with every hidden character as a badge", async () => {
    const b = new FakeBackend();
    b.mcp = {
      project: "/p",
      configError: "",
      servers: [
        {
          name: zeroWidth, scope: "project", transport: "stdio", display: "node\r\u001b[2K ok.js", state: "failed", error: "it exited\u001b[8m", restarts: 0,
          tools: [{ name: "mcp__db__q", tool: "q\u202e", description: "Reads\u200b rows.\nMore." }], stderr: ["boom\u0007"],
          command: "node", args: null, env: null, cwd: "", url: "", headers: null, disabled: false, needsSignIn: false, signIn: "", signInWhy: "",
        },
      ],
    };
    renderWith(<McpServersEditor />, b);
    const row = await screen.findByTestId("mcp-server");
    expect(row.getAttribute("data-name")).toBe(zeroWidth);
    expectNothingHidden(row);
    expect(badges(row)).toEqual(["ZWSP", "CR", "ESC", "ESC", "RLO", "ZWSP", "BEL"]);
  });
});
