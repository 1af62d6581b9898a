import { describe, expect, it } from "vitest";
import { FakeBackend } from "../../test/fakeBackend";
import { AppController } from "../controller";
import { mergeJob, shownJob, type SessionJobs } from "../jobs";
import type { Job } from "../../lib/wire.gen";

const job = (id: string, state: Job["state"], over: Partial<Job> = {}): Job => ({ sessionId: 1, id, command: `cmd ${id}`, state, toolCallId: "", sandboxed: true, startedAt: 1, bytes: 0, ...over });

describe("the jobs' state", () => {
  it("never takes an ended job back to running (a list read before it ended, answered after)", () => {
    const ended = [job("1", "stopped", { exitCode: 143 })];
    expect(mergeJob(ended, job("1", "running"))).toBe(ended);
    expect(mergeJob([job("1", "running")], job("1", "exited", { exitCode: 0 }))).toEqual([job("1", "exited", { exitCode: 0 })]);
    expect(mergeJob([job("10", "running")], job("2", "running")).map((j) => j.id)).toEqual(["2", "10"]);
  });

  it("shows the chosen job, else the latest running one, else the latest", () => {
    const sj = (list: Job[], selected: string | null = null): SessionJobs => ({ status: "ready", error: "", list, selected, stopping: [] });
    expect(shownJob(sj([job("1", "running"), job("2", "exited"), job("3", "stopped")]))?.id).toBe("1");
    expect(shownJob(sj([job("1", "exited"), job("2", "stopped")]))?.id).toBe("2");
    expect(shownJob(sj([job("1", "running"), job("2", "running")], "1"))?.id).toBe("1");
    expect(shownJob(sj([]))).toBeNull();
  });

  it("keeps no output of a job no view has shown, and reads it whole when one does", async () => {
    const b = new FakeBackend();
    const c = new AppController(b);
    const stop = c.start();
    b.jobs.start(1, "yes");
    for (let i = 0; i < 1000; i++) b.jobs.write(1, "1", "y\n".repeat(100));
    expect(c.jobs.output(1, "1").lines.end).toBe(0);
    const unwatch = c.jobs.watch(1, "1");
    await expect.poll(() => c.jobs.output(1, "1").lines.end).toBe(200_000);
    // Shown once, it is kept up to date while no view shows it.
    unwatch();
    b.jobs.write(1, "1", "n\n");
    expect(c.jobs.output(1, "1").lines.end).toBe(200_002);
    expect(b.callsOf("jobOutput")).toHaveLength(1);
    stop();
  });
});
