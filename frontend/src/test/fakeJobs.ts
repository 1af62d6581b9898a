// The background jobs of the fake backend: a test starts a job, writes its
// output and ends it, and the fake emits agent:job and agent:job_output as
// the Go side would (output offsets in UTF-8 bytes); ListJobs, JobOutput
// and StopJob answer from the same record.
import type { EventMap, Job, JobOutput } from "../lib/wire.gen";
import { utf8Length } from "../lib/lineStore";

type Emit = <K extends "agent:job" | "agent:job_output">(name: K, payload: EventMap[K]) => void;

interface FakeJob {
  job: Job;
  /** The whole output written (the fake keeps it all; held says how much JobOutput returns). */
  text: string;
}

export class FakeJobs {
  private jobs = new Map<number, FakeJob[]>();
  /** When set, JobOutput returns only the last this many characters, as the backend's cap would. */
  held = Infinity;
  /** When set, jobOutput waits for it before answering (a read under way while output arrives). */
  outputGate: Promise<void> | null = null;
  /** When set, stopJob fails with this sentence. */
  stopError = "";
  now = 1_000_000;

  constructor(private readonly emit: Emit) {}

  /** Starts a job in a session and announces it; returns its id. */
  start(sessionId: number, command: string, toolCallId = "", over: Partial<Job> = {}): string {
    const list = this.jobs.get(sessionId) ?? [];
    const id = String(list.length + 1);
    const job: Job = { sessionId, id, command, state: "running", toolCallId, sandboxed: true, startedAt: this.now, bytes: 0, ...over };
    list.push({ job, text: "" });
    this.jobs.set(sessionId, list);
    this.emit("agent:job", { sessionId, seq: 0, job: { ...job } });
    return id;
  }

  /** Writes output to a job; emit false keeps it from the window (a chunk it missed). */
  write(sessionId: number, jobId: string, chunk: string, emit = true): void {
    const j = this.find(sessionId, jobId);
    const offset = j.job.bytes;
    j.text += chunk;
    j.job.bytes += utf8Length(chunk);
    if (emit) this.emit("agent:job_output", { sessionId, seq: 0, jobId, offset, chunk });
  }

  /** Ends a job on its own (exited) or stopped, and announces it. */
  end(sessionId: number, jobId: string, state: "exited" | "stopped", exitCode: number): void {
    const j = this.find(sessionId, jobId);
    j.job = { ...j.job, state, exitCode, endedAt: this.now + 5000 };
    this.emit("agent:job", { sessionId, seq: 0, job: { ...j.job } });
  }

  list(sessionId: number): Job[] {
    return (this.jobs.get(sessionId) ?? []).map((j) => ({ ...j.job }));
  }

  async output(sessionId: number, jobId: string): Promise<JobOutput> {
    if (this.outputGate) await this.outputGate;
    const j = this.find(sessionId, jobId);
    const cut = j.text.length > this.held;
    const text = cut ? j.text.slice(j.text.length - this.held) : j.text;
    return { job: { ...j.job }, text, start: j.job.bytes - utf8Length(text), cut };
  }

  async stop(sessionId: number, jobId: string): Promise<void> {
    if (this.stopError) throw new Error(this.stopError);
    const j = this.find(sessionId, jobId);
    if (j.job.state === "running") this.end(sessionId, jobId, "stopped", 143);
  }

  private find(sessionId: number, jobId: string): FakeJob {
    const j = this.jobs.get(sessionId)?.find((x) => x.job.id === jobId);
    if (!j) throw new Error(`session ${sessionId} has no job ${jobId}`);
    return j;
  }
}
