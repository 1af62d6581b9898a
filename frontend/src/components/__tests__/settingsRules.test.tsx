import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend, mcpSection } from "../../test/fakeBackend";

const claude = "/p/.claude/settings.json";

describe("rules from settings files in Settings", () => {
  it("lists them beside Pilot's own with file and scope, marks an untrusted allow, and the ignored ones with reasons", async () => {
    const b = new FakeBackend();
    b.rules = [{ id: 1, tool: "run_bash", pattern: "go test *", effect: "allow", invalid: "" }];
    b.imported = {
      rules: [
        { tool: "run_bash", pattern: "touch *", effect: "deny", entry: "Bash(touch:*)", file: claude, scope: "project", applies: true, notApplied: "" },
        { tool: "run_bash", pattern: "make", effect: "allow", entry: "Bash(make:*)", file: claude, scope: "project", applies: false, notApplied: "Not applied: /p/.claude/settings.json is the project's, and its allow rules apply only once you trust it as it is now (the trust prompt, or pilot trust)." },
        { tool: "run_bash", pattern: "git push *", effect: "ask", entry: "Bash(git push:*)", file: "/home/u/.claude/settings.json", scope: "user", applies: true, notApplied: "" },
      ],
      ignored: [{ entry: "NotebookEdit", effect: "allow", file: claude, scope: "project", reason: "Pilot has no notebook tool, so the entry has nothing to match; its edits rules cover notebook files changed as text." }],
    };
    renderApp(b);
    fireEvent.click(await screen.findByTestId("settings-open"));
    const rules = await screen.findByTestId("settings-rules");
    const list = await within(rules).findByTestId("imported-rules");
    const items = within(list).getAllByTestId("rule-item");
    expect(items.map((i) => [i.getAttribute("data-file"), i.getAttribute("data-applies"), i.getAttribute("data-invalid")])).toEqual([
      [claude, "true", "false"],
      [claude, "false", "false"],
      ["/home/u/.claude/settings.json", "true", "false"],
      [claude, null, "true"],
    ]);
    expect(list.textContent).toContain(`From ${claude} (project)`);
    expect(items[0]!.textContent).toContain("Bash(touch:*)");
    expect(items[1]!.textContent).toContain("not applied");
    expect(items[1]!.textContent).toContain("pilot trust");
    expect(items[2]!.textContent).toContain("ask");
    expect(within(items[3]!).getByTestId("rule-problem").textContent).toContain("Pilot has no notebook tool");
    // Pilot's own rule stays first and removable; the imported ones are edited in their files.
    expect(within(rules).getAllByTestId("rule-item")).toHaveLength(5);
    expect(within(list).queryAllByRole("button")).toHaveLength(0);
  });
});

describe("the trust prompt with settings files", () => {
  it("shows the .mcp.json servers and each settings file's allow rules and hooks, and trusts them with the token shown", async () => {
    const b = new FakeBackend();
    b.trust = {
      needed: true, project: "/p", path: "/p/.mcp.json", hash: "abc", changed: false, token: "tok-1",
      servers: [{ name: "fs", display: "npx -y @modelcontextprotocol/server-filesystem ." }],
      sections: [
        mcpSection,
        { kind: "rules", path: claude, scope: "project", hash: "h1", items: ['Bash(make:*) → allow run_bash "make", allow run_bash "make *"'], changed: false },
        { kind: "hooks", path: claude, scope: "project", hash: "h1", items: ["PreToolUse [Bash]: ./guard.sh"], changed: true },
      ],
    };
    renderApp(b);
    const dialog = await screen.findByTestId("mcp-trust");
    expect(dialog.textContent).toContain("npx -y @modelcontextprotocol/server-filesystem .");
    const sections = within(dialog).getAllByTestId("trust-section");
    expect(sections.map((s) => s.getAttribute("data-kind"))).toEqual(["rules", "hooks"]);
    expect(sections[0]!.textContent).toContain('allow run_bash "make *"');
    expect(sections[1]!.textContent).toContain("./guard.sh");
    expect(sections[1]!.textContent).toContain("changed since you trusted it");
    expect(b.callsOf("trustProject")).toEqual([]);
    fireEvent.click(within(dialog).getByTestId("mcp-trust-accept"));
    await waitFor(() => expect(b.callsOf("trustProject")).toEqual([["tok-1"]]));
    await waitFor(() => expect(screen.queryByTestId("mcp-trust")).toBeNull());
  });

  it("asks about a settings file alone, without an MCP notice, and 'Not now' trusts nothing", async () => {
    const b = new FakeBackend();
    b.trust = {
      needed: true, project: "/p", path: "/p/.mcp.json", hash: "", changed: false, token: "tok-2", servers: [],
      sections: [{ kind: "rules", path: claude, scope: "project", hash: "h1", items: ["Bash(make:*) → allow run_bash \"make\""], changed: false }],
    };
    renderApp(b);
    const dialog = await screen.findByTestId("mcp-trust");
    expect(within(dialog).queryAllByTestId("mcp-trust-server")).toHaveLength(0);
    expect(within(dialog).getByTestId("mcp-trust-accept").textContent).toBe("Trust");
    fireEvent.click(within(dialog).getByTestId("mcp-trust-later"));
    await waitFor(() => expect(screen.queryByTestId("mcp-trust")).toBeNull());
    expect(b.callsOf("trustProject")).toEqual([]);
    expect(screen.queryByTestId("mcp-started")).toBeNull();
  });
});

describe("an approval an ask rule asked for", () => {
  it("names the rule and, for a read, says it is a read", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      pending: [{ id: "r1", kind: "command", toolCallId: "t1", tool: "read_file", command: "read_file secrets/k.pem", paths: ["secrets/k.pem"], askRule: 'ask read_file "secrets/**"', noAlways: '"Always allow" is not offered: the rule ask read_file "secrets/**" asks every time.' }],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("bash-approval");
    expect(card.textContent).toContain("Let the agent read this?");
    expect(within(card).getByTestId("ask-rule").textContent).toContain('ask read_file "secrets/**"');
    expect(within(card).queryByTestId("bash-always")).toBeNull();
  });
});
