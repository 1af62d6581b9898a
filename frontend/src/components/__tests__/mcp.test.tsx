import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp, renderWith } from "../../test/render";
import { detail, FakeBackend, mcpSection, mcpServer } from "../../test/fakeBackend";
import McpServersEditor from "../settings/McpServersEditor";
import { mcpInput, emptyMcpForm } from "../settings/mcpForm";

const server = mcpServer;

describe("MCP servers in Settings", () => {
  it("lists each server with its state, tools, stderr and failure reason, and follows mcp:updated", async () => {
    const b = new FakeBackend();
    b.mcp = { project: "/p", configError: "", servers: [server({}), server({ name: "gh", scope: "user", state: "failed", error: "could not start \"gh-mcp\": not found; retrying in 1s", tools: [] })] };
    renderWith(<McpServersEditor />, b);
    const items = await screen.findAllByTestId("mcp-server");
    expect(items.map((i) => [i.getAttribute("data-name"), i.getAttribute("data-state")])).toEqual([
      ["fs", "ready"],
      ["gh", "failed"],
    ]);
    expect(within(items[0]!).getByTestId("mcp-server-tools").textContent).toContain("read_file");
    expect(within(items[0]!).getByTestId("mcp-server-stderr").textContent).toContain("running on stdio");
    expect(within(items[1]!).getByTestId("mcp-server-error").textContent).toContain("not found");

    b.mcp = { ...b.mcp, servers: [server({ state: "starting", tools: [] })] };
    act(() => b.emit("mcp:updated", { project: "/p" }));
    await waitFor(() => expect(screen.getAllByTestId("mcp-server").map((i) => i.getAttribute("data-state"))).toEqual(["starting"]));
  });

  it("adds a server from the form and toggles one off", async () => {
    const b = new FakeBackend();
    b.mcp = { project: "/p", configError: "", servers: [server({})] };
    renderWith(<McpServersEditor />, b);
    fireEvent.click(await screen.findByTestId("mcp-add"));
    fireEvent.click(screen.getByTestId("mcp-form-save"));
    expect(screen.getByTestId("mcp-form-error").textContent).toContain("Name");
    fireEvent.change(screen.getByTestId("mcp-form-name"), { target: { value: "everything" } });
    fireEvent.change(screen.getByTestId("mcp-form-command"), { target: { value: "npx" } });
    fireEvent.change(screen.getByTestId("mcp-form-args"), { target: { value: "-y\n@modelcontextprotocol/server-everything\n" } });
    fireEvent.change(screen.getByTestId("mcp-form-env"), { target: { value: "TOKEN=${GITHUB_TOKEN}" } });
    fireEvent.click(screen.getByTestId("mcp-form-save"));
    await waitFor(() => expect(b.callsOf("mcpSaveServer")).toHaveLength(1));
    expect(b.callsOf("mcpSaveServer")[0]![0]).toMatchObject({
      scope: "user",
      name: "everything",
      type: "stdio",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-everything"],
      env: { TOKEN: "${GITHUB_TOKEN}" },
    });
    fireEvent.click(screen.getByTestId("mcp-server-toggle"));
    await waitFor(() => expect(b.callsOf("mcpSetDisabled")).toEqual([["project", "fs", true]]));
  });

  it("checks an http server's form", () => {
    expect(mcpInput({ ...emptyMcpForm, name: "web", type: "http", url: "ftp://x" })).toContain("URL");
    expect(mcpInput({ ...emptyMcpForm, name: "web", type: "http", url: "https://x/mcp", headers: "Authorization: Bearer ${T}" })).toMatchObject({
      type: "http",
      headers: { Authorization: "Bearer ${T}" },
    });
    expect(mcpInput({ ...emptyMcpForm, name: "a__b", command: "x" })).toContain("Name");
  });
});

describe("trusting a project's .mcp.json", () => {
  it("shows the exact commands and starts nothing until accepted", async () => {
    const b = new FakeBackend();
    b.trust = { needed: true, project: "/p", path: "/p/.mcp.json", hash: "abc", servers: [{ name: "fs", display: "npx -y @modelcontextprotocol/server-filesystem ." }], changed: false, sections: [mcpSection], token: "tok" };
    renderApp(b);
    const dialog = await screen.findByTestId("mcp-trust");
    expect(dialog.textContent).toContain("npx -y @modelcontextprotocol/server-filesystem .");
    expect(b.callsOf("trustProject")).toEqual([]);
    fireEvent.click(within(dialog).getByTestId("mcp-trust-accept"));
    await waitFor(() => expect(b.callsOf("trustProject")).toEqual([["tok"]]));
    await waitFor(() => expect(screen.queryByTestId("mcp-trust")).toBeNull());
  });
});

describe("an MCP tool call waiting for approval", () => {
  it("shows the server, the tool and the arguments, and can always allow the tool", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      pending: [{ id: "m1", kind: "mcp", toolCallId: "t3", tool: "mcp__everything__get-sum", command: "MCP everything: get-sum {\"a\":2,\"b\":3}", server: "everything", mcpTool: "get-sum", arguments: '{"a":2,"b":3}', alwaysRules: ['allow mcp__everything__get-sum "*"'] }],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("bash-approval");
    expect(card.getAttribute("data-kind")).toBe("mcp");
    expect(within(card).getByTestId("mcp-approval-server").textContent).toBe("everything");
    expect(within(card).getByTestId("mcp-approval-tool").textContent).toBe("get-sum");
    expect(within(card).getByTestId("mcp-approval-arguments").textContent).toContain('"a": 2');
    fireEvent.click(within(card).getByTestId("bash-always"));
    fireEvent.click(within(card).getByTestId("bash-approve"));
    await waitFor(() => expect(b.callsOf("decideCommand")).toEqual([["m1", { approve: true, feedback: "", alwaysAllow: true }]]));
  });
});
