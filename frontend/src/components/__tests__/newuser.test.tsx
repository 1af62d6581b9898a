import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { defaultSettings, detail, FakeBackend } from "../../test/fakeBackend";
import type { Message } from "../../lib/wire.gen";

const user = (id: number, text: string): Message => ({ id, role: "user", blocks: [{ type: "text", text }], state: "complete", createdAt: id });

describe("what a new user trips over", () => {
  it("shows a failure to open a folder on the first screen, and logs it", async () => {
    const b = new FakeBackend();
    b.projects = [];
    b.openProject = async (path) => {
      b.calls.push({ method: "openProject", args: [path] });
      throw new Error(`${path} does not exist: check the path, or create the folder first`);
    };
    renderApp(b);
    fireEvent.change(await screen.findByTestId("project-path"), { target: { value: "/no/such/folder" } });
    fireEvent.submit(screen.getByTestId("project-path").closest("form")!);
    const banner = await screen.findByTestId("error-banner");
    expect(banner.textContent).toContain("/no/such/folder does not exist");
    expect(b.callsOf("reportError")[0]?.[0]).toBe("start");
    fireEvent.click(within(banner).getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByTestId("error-banner")).toBeNull();
  });

  it("folds a long pasted message, with Show all", async () => {
    const b = new FakeBackend();
    const pasted = Array.from({ length: 500 }, (_, i) => `line ${i + 1} of the pasted file`).join("\n");
    b.details[1] = detail(1, { messages: [user(1, pasted)] });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const msg = await screen.findByTestId("message");
    expect(msg.textContent).toContain("line 20 of");
    expect(msg.textContent).not.toContain("line 500 of");
    const more = within(msg).getByTestId("message-expand");
    expect(more.textContent).toMatch(/Show all \(500 lines/);
    fireEvent.click(more);
    expect(msg.textContent).toContain("line 500 of");
    expect(within(msg).getByTestId("message-expand").textContent).toBe("Show less");
  });

  it("+ New clears the session search so the new session shows", async () => {
    const b = new FakeBackend();
    renderApp(b);
    await screen.findByText("Session 1");
    fireEvent.change(screen.getByTestId("session-search"), { target: { value: "nothing matches" } });
    await waitFor(() => expect(screen.queryByTestId("session-list")).toBeNull());
    fireEvent.click(screen.getByTestId("session-new"));
    const list = await screen.findByTestId("session-list");
    await waitFor(() => expect(within(list).getAllByTestId("session-item")).toHaveLength(2));
    expect((screen.getByTestId("session-search") as HTMLInputElement).value).toBe("");
  });

  it("drops a session left empty from the list", async () => {
    const b = new FakeBackend();
    renderApp(b);
    await screen.findByText("Session 1");
    fireEvent.click(screen.getByTestId("session-new"));
    await waitFor(() => expect(screen.getAllByTestId("session-item")).toHaveLength(2));
    await act(async () => {});
    fireEvent.click(screen.getByText("Session 1"));
    await waitFor(() => expect(screen.getAllByTestId("session-item")).toHaveLength(1));
    expect(screen.getByTestId("session-item").getAttribute("data-session-id")).toBe("1");
  });

  it("counts a retry down once, with its reason, and the status bar says it waits", async () => {
    const b = new FakeBackend();
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    await screen.findByTestId("chat-input");
    await act(async () => {});
    act(() => {
      b.emit("agent:state", { sessionId: 1, seq: 1, state: "streaming" });
      b.emit("agent:notice", { sessionId: 1, seq: 2, kind: "retry", text: "Retrying in 2.1s (connection failed).", retryInMs: 2100, reason: "connection failed" });
    });
    const countdown = await screen.findByTestId("retry-countdown");
    expect(countdown.textContent).toBe("Retrying in 3 s (connection failed)…");
    expect(screen.getByTestId("agent-state").textContent).toBe("Waiting to retry…");
  });

  it("Settings says where each value comes from, and nests no form", async () => {
    const b = new FakeBackend();
    b.settings = {
      ...defaultSettings,
      hasKey: true,
      keyHint: "sk-ant-…abcd",
      source: { apiKey: "env", model: "settings", baseUrl: "default", provider: "env" },
      sourceFrom: { apiKey: "ANTHROPIC_API_KEY", provider: "PILOT_PROVIDER" },
    };
    renderApp(b);
    fireEvent.click(await screen.findByTestId("settings-open"));
    const key = (await screen.findByTestId("settings-api-key")) as HTMLInputElement;
    expect(key.placeholder).toContain("from ANTHROPIC_API_KEY (sk-ant-…abcd)");
    expect(key.placeholder).not.toMatch(/^saved/);
    expect(screen.getByTestId("settings-model-source").textContent).toBe("Saved here.");
    expect(screen.getByTestId("settings-baseUrl-source").textContent).toMatch(/^Pilot's default/);
    expect(screen.getByTestId("settings-provider-source").textContent).toContain("PILOT_PROVIDER");
    expect(document.querySelectorAll("form form")).toHaveLength(0);
  });

  it("shows no ↓ Latest when the whole chat fits", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, { messages: [user(1, "where is the quokka?")] });
    b.hits = [{ sessionId: 1, sessionTitle: "Session 1", messageId: 1, kind: "message", snippet: "where is the «quokka»?" }];
    renderApp(b);
    await screen.findByText("Session 1");
    fireEvent.change(screen.getByTestId("session-search"), { target: { value: "quokka" } });
    fireEvent.click(within(await screen.findByTestId("search-hit")).getByRole("button"));
    await screen.findByTestId("message");
    await act(async () => {});
    expect(screen.queryByText("↓ Latest")).toBeNull();
  });

  it("names the session hover icons and gives them tooltips", async () => {
    renderApp(new FakeBackend());
    const item = (await screen.findByText("Session 1")).closest("[data-testid=session-item]") as HTMLElement;
    for (const [name, tip] of [
      ["Rename session", "Rename this session"],
      ["Export as Markdown", "Export this session as Markdown (.md)"],
      ["Export as JSON", "Export this session as JSON"],
      ["Delete session", "Delete this session"],
    ] as const) {
      const button = within(item).getByRole("button", { name });
      expect(button.getAttribute("title")).toContain(tip);
    }
  });

  it("logs an error shown inside a panel (a failed search)", async () => {
    const b = new FakeBackend();
    b.searchSessions = async () => {
      throw new Error("the search index is damaged");
    };
    renderApp(b);
    await screen.findByText("Session 1");
    fireEvent.change(screen.getByTestId("session-search"), { target: { value: "quokka" } });
    expect((await screen.findByText(/Search failed/)).textContent).toContain("the search index is damaged");
    await waitFor(() => expect(b.callsOf("reportError")).toEqual([["sessions", 0, "Search failed: the search index is damaged"]]));
  });
});
