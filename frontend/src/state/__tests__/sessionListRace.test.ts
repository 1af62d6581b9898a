import { describe, expect, it } from "vitest";
import { FakeBackend, summary } from "../../test/fakeBackend";
import { AppController } from "../controller";

describe("the session list read while a session starts", () => {
  it("keeps a session started while the project's first page was being read", async () => {
    const b = new FakeBackend();
    b.sessions = [summary(1, { projectId: 99, updatedAt: 1 })];
    let answer = () => {};
    b.listGate = new Promise<void>((r) => (answer = r));
    const c = new AppController(b);
    const opening = c.openProject("/p");
    // The page is read (session 1 only); the user starts a session before it comes back.
    await Promise.resolve();
    const id = await c.newSession();
    expect(id).not.toBeNull();
    answer();
    await opening;
    const ids = c.state.sessions.map((s) => s.id);
    expect(ids).toContain(id);
    expect(ids).toContain(1);
    expect(c.state.session?.id).toBe(id);
  });
});
