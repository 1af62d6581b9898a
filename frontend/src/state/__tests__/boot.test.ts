import { describe, expect, it } from "vitest";
import { boot } from "../boot";
import { FakeBackend } from "../../test/fakeBackend";

describe("boot", () => {
  it("makes the first call and has the controller listening before anything renders", () => {
    const b = new FakeBackend();
    boot(b);
    // Synchronously, in the task the entry module runs in: no render, no effect.
    expect(b.calls[0]?.method).toBe("frontendReady");
    expect(b.listeners.get("app:open_project")?.size).toBe(1);
    expect(b.callsOf("getSettings")).toHaveLength(1);
  });

  it("answers the first call's failure as its sentence, never as a rejection", async () => {
    const b = new FakeBackend();
    b.startError = new Error("Pilot could not open its data under /home/u/.pilot.");
    await expect(boot(b).ready).resolves.toEqual({ error: "Pilot could not open its data under /home/u/.pilot." });
    await expect(boot(new FakeBackend()).ready).resolves.toEqual({ ok: { startupMs: 5 } });
  });
});
