import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { FakeBackend, mcpSection } from "../../test/fakeBackend";
import type { SetupItem } from "../../lib/wire.gen";

const claude = "/p/.claude/settings.json";

const items: SetupItem[] = [
  { kind: "hook", name: "PreToolUse", matcher: "Bash", description: "./guard.sh", file: claude, scope: "project", state: "untrusted", detail: "Not trusted: /p/.claude/settings.json is the project's, and its hooks run only once you trust it as it is now (pilot trust, the trust prompt, or Review and trust… in Settings › Setup)." },
  { kind: "hook", name: "Bogus", description: "never.sh", file: "/home/u/.claude/settings.json", scope: "user", state: "ignored", detail: 'the hook event "Bogus" is not one Pilot fires, so its hooks do not run.' },
  { kind: "skill", name: "pdf", description: "Fill PDF forms.", file: "/p/.claude/skills/pdf/SKILL.md", scope: "project", state: "active", detail: "" },
  { kind: "skill", name: "review", description: "", file: "/p/.claude/skills/review/SKILL.md", scope: "project", state: "shadowed", detail: "/p/.claude/skills/review/SKILL.md is not used as a skill: /h/skills/review/SKILL.md has the same name (review) and wins." },
  { kind: "agent", name: "reviewer", description: "Reviews diffs.", file: "/p/.claude/agents/reviewer.md", scope: "project", state: "active", detail: "" },
  { kind: "rule", name: "Bash(ls)", description: 'allow run_bash "ls"', file: "/home/u/.claude/settings.json", scope: "user", state: "active", detail: "" },
  { kind: "mcp", name: "db", description: "db-server", file: "/p/.mcp.json", scope: "project", state: "untrusted", detail: "Not trusted." },
  { kind: "mcp", name: "off", description: "off-server", file: "/h/mcp.json", scope: "pilot-user", state: "disabled", detail: "Turned off in Settings › MCP servers (or pilot mcp); turn it on there to start it." },
  { kind: "command", name: "/deploy", description: "Deploy the app.", file: "/p/.claude/commands/deploy.md", scope: "project", state: "active", detail: "" },
  { kind: "memory", name: "AGENTS.md", description: "", file: "/p/AGENTS.md", scope: "project", state: "refused", detail: "AGENTS.md was not read: it is a link to /proc/self/environ, outside the project folder. Replace the link with the file itself." },
  { kind: "memory", name: "~/.claude/CLAUDE.md", description: "user level: in the system prompt of every turn", file: "/home/u/.claude/CLAUDE.md", scope: "user", state: "active", detail: "", tokens: 120 },
  { kind: "memory", name: "~/.codex/AGENTS.md", description: "user level: in the system prompt of every turn", file: "/home/u/.codex/AGENTS.md", scope: "user", state: "missing", detail: "Not there: Pilot reads it when it is." },
];

describe("Settings › Setup", () => {
  it("lists every kind with file, scope, state and why, shows the tool names hooks see, and brings the trust prompt back", async () => {
    const b = new FakeBackend();
    b.setupView = { project: "/p", items, needsTrust: true, toolNames: [{ pilot: "run_bash", claude: "Bash" }, { pilot: "write_file", claude: "Write" }] };
    b.trust = { needed: true, project: "/p", path: "/p/.mcp.json", hash: "abc", changed: false, token: "tok-1", servers: [{ name: "db", display: "db-server" }], sections: [mcpSection] };
    renderApp(b);
    fireEvent.click(within(await screen.findByTestId("mcp-trust")).getByTestId("mcp-trust-later"));
    await waitFor(() => expect(screen.queryByTestId("mcp-trust")).toBeNull());

    fireEvent.click(await screen.findByTestId("settings-open"));
    const nav = (await screen.findAllByTestId("settings-nav-item")).map((n) => n.getAttribute("data-section"));
    expect(nav).toContain("setup");
    const page = await screen.findByTestId("setup-page");
    const rows = within(page).getAllByTestId("setup-item");
    expect(rows.map((r) => [r.getAttribute("data-kind"), r.getAttribute("data-state")])).toEqual(items.map((it) => [it.kind, it.state]));
    expect(rows[0]!.textContent).toContain("not trusted");
    expect(rows[0]!.textContent).toContain("[Bash]");
    expect(rows[0]!.textContent).toContain("./guard.sh");
    expect(rows[0]!.textContent).toContain(`${claude} (project)`);
    expect(rows[0]!.textContent).toContain("pilot trust");
    expect(rows[1]!.textContent).toContain("is not one Pilot fires");
    expect(rows[2]!.textContent).toContain("in use");
    expect(rows[3]!.textContent).toContain("has the same name (review) and wins");
    expect(rows[5]!.textContent).toContain("applied");
    expect(rows[7]!.textContent).toContain("off");
    expect(rows[9]!.textContent).toContain("not read");
    expect(rows[9]!.textContent).toContain("Replace the link with the file itself.");
    expect(rows[9]!.querySelector(".rule-problem")).not.toBeNull();
    expect(within(rows[10]!).getByTestId("setup-tokens").textContent).toBe("≈ 120 tokens");
    expect(rows[10]!.textContent).toContain("in use");
    expect(rows[11]!.textContent).toContain("not found");
    expect(within(rows[11]!).queryByTestId("setup-tokens")).toBeNull();
    const names = within(page).getByTestId("setup-tool-names");
    expect(names.textContent).toContain("run_bash");
    expect(names.textContent).toContain("Bash");
    const asked = b.callsOf("setup").length;
    expect(asked).toBeGreaterThan(0);

    // "Review and trust…" brings back the one trust prompt; trusting it
    // (mcp:updated, as the service emits) reads the setup again.
    fireEvent.click(within(page).getByTestId("setup-trust"));
    const prompt = await screen.findByTestId("mcp-trust");
    fireEvent.click(within(prompt).getByTestId("mcp-trust-accept"));
    await waitFor(() => expect(b.callsOf("trustProject").length > 0).toBe(true));
    b.setupView = { ...b.setupView, needsTrust: false, items: items.map((it) => (it.state === "untrusted" ? { ...it, state: "active", detail: "" } : it)) };
    act(() => b.emit("mcp:updated", { project: "/p" }));
    await waitFor(() => expect(within(page).getAllByTestId("setup-item")[0]!.getAttribute("data-state")).toBe("active"));
    expect(b.callsOf("setup").length).toBeGreaterThan(asked);
    expect(within(page).getAllByTestId("setup-item")[0]!.textContent).toContain("runs");
    expect(within(page).queryByTestId("setup-trust")).toBeNull();
  });

  it("says what to add where a kind has nothing", async () => {
    const b = new FakeBackend();
    renderApp(b);
    fireEvent.click(await screen.findByTestId("settings-open"));
    const page = await screen.findByTestId("setup-page");
    expect(within(page).queryAllByTestId("setup-item")).toHaveLength(0);
    expect(page.textContent).toContain("No hooks: add them");
    expect(page.textContent).toContain("No skills");
  });
});
