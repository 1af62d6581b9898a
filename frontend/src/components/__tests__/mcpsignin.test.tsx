import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp, renderWith } from "../../test/render";
import { FakeBackend, mcpServer, withCalls } from "../../test/fakeBackend";
import type { MCPServer, ToolCall } from "../../lib/wire.gen";
import McpServersEditor from "../settings/McpServersEditor";

const hosted = (over: Partial<MCPServer>): MCPServer =>
  mcpServer({ name: "hosted", scope: "user", transport: "http", display: "http https://mcp.example/mcp", tools: [], stderr: [], command: "", args: null, url: "https://mcp.example/mcp", ...over });

const refused: ToolCall = {
  id: "toolu_1",
  messageId: 2,
  name: "mcp__hosted__list",
  label: "→ MCP hosted: list {}",
  input: { state: "open" },
  status: "error",
  output: "The MCP call failed: the MCP server hosted no longer accepts its sign-in (expired or revoked): run `pilot mcp login hosted`.",
  isError: true,
  startedAt: 1,
  needsSignIn: "hosted",
};

describe("MCP sign-in in the window", () => {
  it("a server that needs a sign-in says why on its row, signs in with the browser (cancel, the end), and a signed-in one signs out", async () => {
    const b = new FakeBackend();
    b.mcp = { project: "/p", configError: "", servers: [hosted({ state: "failed", needsSignIn: true, signIn: "needs sign-in", signInWhy: "no longer accepts its sign-in (expired or revoked)" })] };
    renderWith(<McpServersEditor />, b);
    const row = await screen.findByTestId("mcp-signin-row");
    expect(row.textContent).toContain("Sign-in needed: the server no longer accepts its sign-in (expired or revoked).");
    const button = within(row).getByTestId("mcp-signin");
    expect(button.getAttribute("data-server")).toBe("hosted");

    fireEvent.click(button);
    expect(b.callsOf("mcpSignIn")).toEqual([["hosted"]]);
    await waitFor(() => expect(within(row).getByTestId("mcp-signin-address").textContent).toBe("https://auth.example/authorize"));
    expect(within(row).getByTestId("mcp-signin-note").textContent).toContain("Waiting for the browser");
    expect((within(row).getByTestId("mcp-signin") as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(row).getByTestId("mcp-signin-cancel"));
    expect(b.callsOf("mcpCancelSignIn")).toEqual([["hosted"]]);
    act(() => b.emit("mcp:updated", { project: "/p", signIn: { server: "hosted", error: "", cancelled: true } }));
    await waitFor(() => expect(screen.getByTestId("mcp-signin-note").textContent).toContain("Sign-in cancelled"));

    fireEvent.click(screen.getByTestId("mcp-signin"));
    act(() => b.emit("mcp:updated", { project: "/p", signIn: { server: "hosted", error: "the authorization server refused the sign-in (access_denied); sign in again", cancelled: false } }));
    await waitFor(() => expect(screen.getByTestId("mcp-signin-note").textContent).toBe("Not signed in: the authorization server refused the sign-in (access_denied); sign in again"));

    b.mcp = { ...b.mcp, servers: [hosted({ signIn: "signed in (renews 2026-11-30 10:00 UTC)" })] };
    act(() => b.emit("mcp:updated", { project: "/p", signIn: { server: "hosted", error: "", cancelled: false } }));
    const out = await screen.findByTestId("mcp-signout");
    expect(screen.getByTestId("mcp-signin-row").textContent).toContain("signed in (renews 2026-11-30 10:00 UTC)");
    expect(screen.queryByTestId("mcp-signin")).toBeNull();
    fireEvent.click(out);
    expect(b.callsOf("mcpSignOut")).toEqual([["hosted"]]);
  });

  it("the card of a call refused for want of a sign-in offers it, then Retry once the server runs signed in", async () => {
    const b = new FakeBackend();
    b.mcp = { project: "/p", configError: "", servers: [hosted({ needsSignIn: true, signIn: "needs sign-in", signInWhy: "no longer accepts its sign-in (expired or revoked)" })] };
    withCalls(b, [refused, { ...refused, id: "toolu_2", needsSignIn: undefined, status: "done", isError: false, output: "ok" }]);
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const cards = await screen.findAllByTestId("tool-call");
    expect(within(cards[1]!).queryByTestId("mcp-signin")).toBeNull();
    const button = await within(cards[0]!).findByTestId("mcp-signin");
    expect(button.getAttribute("data-server")).toBe("hosted");
    await waitFor(() => expect(within(cards[0]!).getByTestId("tool-signin").textContent).toContain("expired or revoked"));
    expect(within(cards[0]!).queryByTestId("mcp-retry")).toBeNull();
    fireEvent.click(button);
    expect(b.callsOf("mcpSignIn")).toEqual([["hosted"]]);

    b.mcp = { ...b.mcp, servers: [hosted({ signIn: "signed in" })] };
    act(() => b.emit("mcp:updated", { project: "/p", signIn: { server: "hosted", error: "", cancelled: false } }));
    const retry = await within(cards[0]!).findByTestId("mcp-retry");
    fireEvent.click(retry);
    expect(b.callsOf("retryToolCall")).toEqual([[1, "toolu_1"]]);
    await waitFor(() => expect(within(cards[0]!).queryByTestId("mcp-retry")).toBeNull());
  });
});
