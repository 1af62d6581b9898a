import { describe, expect, it } from "vitest";
import type { Message, ToolCall } from "../../lib/wire.gen";
import { detail, FakeBackend } from "../../test/fakeBackend";
import { AppController } from "../controller";
import { applyEvent, emptySession, prependPage, sessionFromDetail } from "../sessionState";

const msg = (id: number): Message => ({
  id,
  role: id % 2 ? "user" : "assistant",
  blocks: [{ type: "text", text: `message ${id}` }],
  state: "complete",
  createdAt: id,
});
const call = (id: string, messageId: number, parentId?: string): ToolCall =>
  ({ id, messageId, parentId, name: "read_file", label: id, input: {}, output: "", status: "done", approval: "none", startedAt: 0 }) as unknown as ToolCall;

/** A session of n messages (ids 1..n), a call in every tenth, opened with pages of `page` messages. */
async function opened(n: number, page: number, focus: number | null = null) {
  const b = new FakeBackend();
  const messages = Array.from({ length: n }, (_, i) => msg(i + 1));
  const toolCalls = messages.filter((m) => m.id % 10 === 0).map((m) => call(`t${m.id}`, m.id));
  b.details[1] = detail(1, { messages, toolCalls });
  b.pageSize = page;
  const c = new AppController(b);
  await c.openSession(1, focus);
  return { b, c, s: () => c.state.session! };
}

describe("prependPage", () => {
  it("puts older messages and their calls first, and keeps what is loaded as it is", () => {
    const s = sessionFromDetail(detail(1, { messages: [msg(5), msg(6)], toolCalls: [call("a", 6)], hasOlder: true }));
    const newer = { ...s, messages: { ...s.messages, 5: { ...msg(5), state: "interrupted" as const } } };
    const p = prependPage(newer, { messages: [msg(3), msg(4), msg(5)], toolCalls: [call("x", 4), call("y", 4, "x"), call("a", 6)], hasOlder: false });
    expect(p.messageIds).toEqual([3, 4, 5, 6]);
    expect(p.messages[5]!.state).toBe("interrupted");
    expect(p.toolsByMessage).toEqual({ 4: ["x"], 6: ["a"] });
    expect(p.toolsByParent).toEqual({ x: ["y"] });
    expect(p.hasOlder).toBe(false);
    expect(p.older).toBe("idle");
  });

  it("an empty session has nothing older", () => {
    const s = sessionFromDetail(detail(1));
    expect(s.messageIds).toEqual([]);
    expect(s.hasOlder).toBe(false);
    expect(emptySession(1).older).toBe("idle");
  });
});

describe("a session read in pages", () => {
  it("opens at its last page and reads older pages until the first message", async () => {
    const { b, c, s } = await opened(25, 10);
    expect(s().messageIds).toEqual(Array.from({ length: 10 }, (_, i) => 16 + i));
    expect(s().hasOlder).toBe(true);
    await c.loadOlder();
    expect(b.callsOf("olderMessages")).toEqual([[1, 16, 0]]);
    expect(s().messageIds[0]).toBe(6);
    expect(s().toolsByMessage[10]).toEqual(["t10"]);
    await c.loadOlder();
    expect(s().messageIds).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(s().hasOlder).toBe(false);
    await c.loadOlder(); // nothing older: no call
    expect(b.callsOf("olderMessages")).toHaveLength(2);
  });

  it("keeps messages that arrived between pages once, at the end", async () => {
    const { c, s } = await opened(15, 10);
    c.store.setState((st) => ({ ...st, session: applyEvent(st.session!, { name: "agent:message", payload: { sessionId: 1, seq: 1, message: msg(16) } }) }));
    await c.loadOlder();
    expect(s().messageIds).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  });

  it("opens a search hit far above the last page with the messages from it on", async () => {
    const { b, s } = await opened(2000, 100, 3);
    expect(b.callsOf("getSession")).toEqual([[1, 3]]);
    expect(s().messageIds[0]).toBe(3);
    expect(s().messageIds).toHaveLength(1998);
    expect(s().focusMessageId).toBe(3);
  });

  it("reads back to a hit in the open session before scrolling to it", async () => {
    const { b, c, s } = await opened(300, 100);
    await c.openSession(1, 12);
    expect(b.callsOf("olderMessages")).toEqual([[1, 201, 12]]);
    expect(s().messageIds[0]).toBe(12);
    expect(s().focusMessageId).toBe(12);
  });

  it("a read back to a hit waits for the page under way, then reads on to the hit", async () => {
    const { b, c, s } = await opened(300, 100);
    const page = c.loadOlder();
    await c.openSession(1, 12);
    await page;
    expect(b.callsOf("olderMessages")).toEqual([
      [1, 201, 0],
      [1, 101, 12],
    ]);
    expect(s().messageIds[0]).toBe(1); // a page at least
    expect(s().messageIds).toHaveLength(300);
    expect(s().focusMessageId).toBe(12);
  });

  it("drops a page read for a session that was opened again since", async () => {
    const { b, c, s } = await opened(300, 100);
    const page = c.loadOlder();
    c.store.setState((st) => ({ ...st, session: null }));
    await c.openSession(1);
    await page;
    expect(b.callsOf("olderMessages")).toHaveLength(1);
    expect(s().messageIds[0]).toBe(201);
  });

  it("shows a failure to read older messages where they would be, and tries again", async () => {
    const { b, c, s } = await opened(20, 10);
    b.olderError = "database is locked";
    await c.loadOlder();
    expect(s().older).toEqual({ error: "Could not read the earlier messages: database is locked" });
    expect(b.callsOf("reportError")).toHaveLength(1);
    b.olderError = "";
    await c.loadOlder();
    expect(s().older).toBe("idle");
    expect(s().messageIds).toHaveLength(20);
  });
});
