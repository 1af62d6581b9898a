import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import type { Message } from "../../lib/wire.gen";

async function openSession(b = new FakeBackend()) {
  const r = renderApp(b);
  fireEvent.click(await screen.findByText("Session 1"));
  await screen.findByTestId("chat-input");
  await waitFor(() => expect(b.callsOf("getSession")).toHaveLength(1));
  await act(async () => {});
  return r;
}

const user = (id: number, text: string): Message => ({ id, role: "user", blocks: [{ type: "text", text }], state: "complete", createdAt: id });

describe("chat", () => {
  it("renders streaming Markdown as deltas arrive, highlighted and sanitised", async () => {
    const { backend: b } = await openSession();
    let seq = 0;
    const delta = (text: string) => act(() => b.emit("agent:stream", { sessionId: 1, seq: ++seq, messageId: 7, text }));
    delta("Here is **bold**");
    const msg = await screen.findByTestId("message");
    expect(msg.getAttribute("data-role")).toBe("assistant");
    expect(msg.querySelector("strong")?.textContent).toBe("bold");
    delta(" text.\n\n```go\nfunc main() {}\n");
    delta("```\n\n<img src=x onerror=alert(1)><script>alert(2)</script>");
    expect(msg.querySelector(".hljs-keyword")?.textContent).toBe("func");
    expect(msg.querySelector("button.code-copy")).toBeTruthy();
    expect(msg.innerHTML).not.toMatch(/onerror|<script/);
    expect(msg.textContent).toContain("Here is bold text.");
  });

  it("opens http links in the browser and never navigates the window", async () => {
    const { backend: b } = await openSession();
    act(() => b.emit("agent:stream", { sessionId: 1, seq: 1, messageId: 7, text: "See [docs](https://example.com/a) and [bad](javascript:alert(1))" }));
    const msg = await screen.findByTestId("message");
    const links = msg.querySelectorAll("a");
    for (const a of links) fireEvent.click(a);
    expect(b.callsOf("openExternal")).toEqual([["https://example.com/a"]]);
  });

  it("applies out-of-order events in seq order and drops duplicates", async () => {
    const { backend: b } = await openSession();
    act(() => {
      b.emit("agent:stream", { sessionId: 1, seq: 2, messageId: 7, text: "B" });
      b.emit("agent:stream", { sessionId: 1, seq: 3, messageId: 7, text: "C" });
      b.emit("agent:stream", { sessionId: 1, seq: 1, messageId: 7, text: "A" });
      b.emit("agent:stream", { sessionId: 1, seq: 2, messageId: 7, text: "B" });
      b.emit("agent:stream", { sessionId: 2, seq: 4, messageId: 8, text: "other session" });
    });
    expect((await screen.findByTestId("message")).textContent).toContain("ABC");
    expect(screen.getAllByTestId("message")).toHaveLength(1);
  });

  it("shows one card per tool call with its label, status and live output", async () => {
    const { backend: b } = await openSession();
    const call = { id: "t1", messageId: 7, name: "run_bash", label: "→ Running: ls", input: { command: "ls" }, status: "running" as const, output: "", isError: false, startedAt: 1 };
    act(() => {
      b.emit("agent:message", { sessionId: 1, seq: 1, message: { id: 7, role: "assistant", blocks: [{ type: "text", text: "Listing." }, { type: "tool_use", id: "t1", name: "run_bash", input: {} }], state: "complete", createdAt: 1 } });
      b.emit("agent:tool", { sessionId: 1, seq: 2, call });
      b.emit("agent:tool_output", { sessionId: 1, seq: 3, toolCallId: "t1", chunk: "main.go\n" });
    });
    const card = await screen.findByTestId("tool-call");
    expect(card.getAttribute("data-tool")).toBe("run_bash");
    expect(card.getAttribute("data-status")).toBe("running");
    expect(card.textContent).toContain("→ Running: ls");
    expect(screen.getByTestId("tool-output").textContent).toBe("main.go\n");
    act(() => b.emit("agent:tool", { sessionId: 1, seq: 4, call: { ...call, status: "done", output: "" } }));
    expect(card.getAttribute("data-status")).toBe("done");
  });

  it("shows an error with a retry that re-runs the failed turn without sending the prompt again", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, { messages: [user(1, "fix the bug")] });
    await openSession(b);
    act(() => b.emit("agent:error", { sessionId: 1, seq: 1, kind: "network", message: "The model server could not be reached.", retryable: true }));
    const banner = await screen.findByTestId("error-banner");
    expect(banner.textContent).toContain("could not be reached");
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(b.callsOf("retryTurn")).toEqual([[1]]));
    expect(b.callsOf("sendMessage")).toEqual([]);
  });

  it("retries a message the backend refused by sending it again, and logs the error", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, { messages: [] });
    await openSession(b);
    let refuse = true;
    b.sendMessage = async (id, text, att) => {
      b.calls.push({ method: "sendMessage", args: [id, text, att] });
      if (refuse) throw new Error("Pilot is closing; the message was not sent.");
    };
    fireEvent.change(screen.getByTestId("chat-input"), { target: { value: "hello" } });
    fireEvent.click(screen.getByTestId("chat-send"));
    const banner = await screen.findByTestId("error-banner");
    expect(banner.textContent).toContain("The message was not sent: Pilot is closing");
    await waitFor(() => expect(b.callsOf("reportError")).toEqual([["chat", 1, "The message was not sent: Pilot is closing; the message was not sent."]]));
    refuse = false;
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(b.callsOf("sendMessage").length).toBe(2));
    expect(b.callsOf("retryTurn")).toEqual([]);
  });

  it("queues a message typed while a turn runs and sends it when the turn ends", async () => {
    const { backend: b } = await openSession();
    const input = screen.getByTestId("chat-input");
    fireEvent.change(input, { target: { value: "first" } });
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(b.callsOf("sendMessage")).toHaveLength(1));
    act(() => b.emit("agent:state", { sessionId: 1, seq: 1, state: "streaming" }));
    expect((screen.getByTestId("chat-send") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("chat-cancel")).toBeTruthy();
    fireEvent.change(input, { target: { value: "second" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(screen.getByTestId("queued").textContent).toContain("second");
    expect(b.callsOf("sendMessage")).toHaveLength(1);
    act(() => {
      b.emit("agent:state", { sessionId: 1, seq: 2, state: "idle" });
      b.emit("agent:turn_done", { sessionId: 1, seq: 3, reason: "end_turn" });
    });
    await waitFor(() => expect(b.callsOf("sendMessage")).toHaveLength(2));
    expect(b.callsOf("sendMessage")[1]).toEqual([1, "second", []]);
    expect(screen.queryByTestId("queued")).toBeNull();
  });

  it("Shift+Enter keeps typing, Up recalls the last prompt, Esc cancels", async () => {
    const { backend: b } = await openSession();
    const input = screen.getByTestId("chat-input") as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "line one" } });
    fireEvent.keyDown(input, { key: "Enter", shiftKey: true });
    expect(b.callsOf("sendMessage")).toHaveLength(0);
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(b.callsOf("sendMessage")).toHaveLength(1));
    expect(input.value).toBe("");
    fireEvent.keyDown(input, { key: "ArrowUp" });
    expect(input.value).toBe("line one");
    fireEvent.keyDown(window, { key: "Escape" });
    await waitFor(() => expect(b.callsOf("cancelTurn")).toEqual([[1]]));
  });

  it("attaches a file picked with @", async () => {
    const b = new FakeBackend();
    b.files = { "src/main.go": "package main", "README.md": "# r" };
    await openSession(b);
    const input = screen.getByTestId("chat-input") as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "look at @mai", selectionStart: 12 } });
    const item = await screen.findByTestId("file-picker-item");
    expect(item.textContent).toContain("main.go");
    fireEvent.keyDown(input, { key: "Enter" });
    expect(input.value).toBe("look at @src/main.go ");
    expect(screen.getByTestId("attachment").textContent).toContain("src/main.go");
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(b.callsOf("sendMessage")).toEqual([[1, "look at @src/main.go", ["src/main.go"]]]));
  });

  it("virtualises a transcript of 5,000 messages", async () => {
    const b = new FakeBackend();
    const messages: Message[] = [];
    for (let i = 1; i <= 5000; i++)
      messages.push(i % 2 ? user(i, `question ${i}`) : { id: i, role: "assistant", blocks: [{ type: "text", text: `answer **${i}**` }], state: "complete", createdAt: i });
    b.details[1] = detail(1, { messages });
    await openSession(b);
    const rows = await screen.findAllByTestId("message");
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(40);
    // It opens at the end of the conversation.
    expect(rows[rows.length - 1]!.textContent).toContain("answer 5000");
  });

  it("unsubscribes from every event on unmount", async () => {
    const { backend: b, unmount } = await openSession();
    expect(b.listenerCount()).toBeGreaterThan(0);
    unmount();
    expect(b.listenerCount()).toBe(0);
  });
});
