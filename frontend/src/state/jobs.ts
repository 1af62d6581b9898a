// The Jobs panel's state: every session's background jobs (ListJobs, then
// the agent:job events of all sessions, so switching sessions keeps each
// one's list), and each job's output. The output is held outside the app's
// store, in a LineStore per job: a chunk lands at once, placed by its byte
// offset (what a read already holds is skipped), and the views reading it
// are told once per animation frame, however many chunks came.
import { errorText } from "../lib/format";
import { LineStore, utf8Length } from "../lib/lineStore";
import type { Job, JobOutputPayload, JobPayload } from "../lib/wire.gen";
import type { ActionContext } from "./actions";
import type { LoadStatus } from "./loadStatus";
import { Store } from "./store";

/** One session's jobs as the panel shows them. */
export interface SessionJobs {
  status: LoadStatus;
  /** Why ListJobs failed (status "failed"). */
  error: string;
  /** The jobs in the order they started ("1", "2", ...). */
  list: Job[];
  /** The job whose output the panel shows (null: the latest one). */
  selected: string | null;
  /** Jobs whose Stop was pressed and not answered yet. */
  stopping: string[];
}

export interface JobsState {
  sessions: Record<number, SessionJobs>;
}

const noJobs: SessionJobs = { status: "idle", error: "", list: [], selected: null, stopping: [] };

/** A session's jobs (an empty list when none is known). */
export const jobsOf = (st: JobsState, sessionId: number | null | undefined): SessionJobs => (sessionId == null ? noJobs : (st.sessions[sessionId] ?? noJobs));

/** How many of a session's jobs run. */
export const runningCount = (sj: SessionJobs): number => sj.list.reduce((n, j) => n + (j.state === "running" ? 1 : 0), 0);

/** The job the panel shows: the one chosen, else the latest running one, else the latest. */
export function shownJob(sj: SessionJobs): Job | null {
  const chosen = sj.selected === null ? undefined : sj.list.find((j) => j.id === sj.selected);
  if (chosen) return chosen;
  for (let i = sj.list.length - 1; i >= 0; i--) if (sj.list[i]!.state === "running") return sj.list[i]!;
  return sj.list[sj.list.length - 1] ?? null;
}

/**
 * The list with job put in its place. An ended job's record is never
 * replaced by a running one (a list read before it ended, answered after).
 */
export function mergeJob(list: Job[], job: Job): Job[] {
  const i = list.findIndex((j) => j.id === job.id);
  if (i < 0) return [...list, job].sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id));
  const was = list[i]!;
  if (was.state !== "running" && job.state === "running") return list;
  const next = list.slice();
  next[i] = job;
  return next;
}

/** Where a job's output view was left: following the end, or at scrollTop. */
export interface OutputPlace {
  pinned: boolean;
  scrollTop: number;
}

/** One job's output and who reads it. */
export class JobOutputState {
  readonly lines = new LineStore();
  /** Bumped once per animation frame in which output came (what views re-render on). */
  version = 0;
  /** JobOutput was read since the job was known, and no chunk was missed after it. */
  synced = false;
  /** A JobOutput read is under way; chunks wait in queue until it is in. */
  reading = false;
  queue: JobOutputPayload[] = [];
  /** Views showing it: a missed chunk is read again at once while there are any. */
  watchers = 0;
  /** Why the output could not be read (shown in place of it). */
  error = "";
  place: OutputPlace = { pinned: true, scrollTop: 0 };
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  /** Tells the readers (once per frame: see JobActions.changed). */
  notify(): void {
    this.version++;
    for (const l of this.listeners) l();
  }
}

const nextFrame: (cb: () => void) => unknown = (cb) => (typeof requestAnimationFrame === "function" ? requestAnimationFrame(cb) : setTimeout(cb, 16));

export class JobActions {
  readonly store = new Store<JobsState>({ sessions: {} });
  private outputs = new Map<string, JobOutputState>();
  private dirty = new Set<JobOutputState>();
  private frame = false;

  constructor(
    private readonly ctx: ActionContext,
    private readonly showPanel: () => void,
  ) {}

  private patch(sessionId: number, update: (sj: SessionJobs) => SessionJobs) {
    this.store.setState((st) => {
      const was = st.sessions[sessionId] ?? noJobs;
      const next = update(was);
      return next === was ? st : { sessions: { ...st.sessions, [sessionId]: next } };
    });
  }

  /** Reads a session's jobs (when it is opened): merged with what events brought meanwhile. */
  async load(sessionId: number): Promise<void> {
    this.patch(sessionId, (sj) => ({ ...sj, status: "loading" }));
    try {
      const jobs = await this.ctx.backend.listJobs(sessionId);
      this.patch(sessionId, (sj) => ({ ...sj, status: "ready", error: "", list: jobs.reduce(mergeJob, sj.list) }));
    } catch (err) {
      const error = `Could not list the session's background jobs: ${errorText(err)}`;
      this.ctx.report("window", sessionId, error);
      this.patch(sessionId, (sj) => ({ ...sj, status: "failed", error }));
    }
  }

  /** agent:job: a job started, ended or was stopped (any session). */
  onJob(p: JobPayload): void {
    this.patch(p.job.sessionId || p.sessionId, (sj) => {
      const list = mergeJob(sj.list, p.job);
      return list === sj.list ? sj : { ...sj, list };
    });
  }

  /**
   * agent:job_output: a chunk of a job's output (any session). Output of a
   * job no view has shown is not kept: the first view reads it whole.
   */
  onOutput(p: JobOutputPayload): void {
    const o = this.outputs.get(`${p.sessionId}/${p.jobId}`);
    if (!o || (!o.synced && !o.reading && o.watchers === 0)) return;
    if (o.reading) {
      o.queue.push(p);
      return;
    }
    this.place(o, p);
  }

  private place(o: JobOutputState, p: JobOutputPayload) {
    const r = o.lines.append(p.offset, p.chunk);
    if (r === "appended") this.changed(o);
    else if (r === "gap") {
      // Output this window missed (sent before it listened, or lost): read it whole again.
      o.synced = false;
      // After a failed read, not again at every chunk: the next view reads it.
      if (o.watchers > 0 && !o.error) void this.read(p.sessionId, p.jobId);
    }
  }

  /** A job's output record (made empty the first time). */
  output(sessionId: number, jobId: string): JobOutputState {
    const key = `${sessionId}/${jobId}`;
    let o = this.outputs.get(key);
    if (!o) {
      o = new JobOutputState();
      this.outputs.set(key, o);
    }
    return o;
  }

  /** A view shows a job's output: it is read when not held whole yet. Returns the view's goodbye. */
  watch(sessionId: number, jobId: string): () => void {
    const o = this.output(sessionId, jobId);
    o.watchers++;
    if (!o.synced && !o.reading) void this.read(sessionId, jobId);
    return () => {
      // What a view read stays (capped at 1 MiB a job), so switching back
      // shows it without reading it again.
      o.watchers--;
    };
  }

  /**
   * Reads what Pilot holds of a job's output. Chunks that arrive meanwhile
   * wait, then go after it, skipping what the read already holds; what this
   * window held is kept when it reaches further than the read.
   */
  async read(sessionId: number, jobId: string): Promise<void> {
    const o = this.output(sessionId, jobId);
    if (o.reading) return;
    o.reading = true;
    try {
      const out = await this.ctx.backend.jobOutput(sessionId, jobId);
      // The job's byte count is where the text ends (exact where the cut fell inside a character).
      const end = out.job.bytes >= out.start ? out.job.bytes : out.start + utf8Length(out.text);
      if (!o.synced || end >= o.lines.end) o.lines.reset(out.start, out.text, end);
      o.error = "";
      this.onJob({ sessionId, seq: 0, job: out.job });
    } catch (err) {
      o.error = `Could not read the job's output: ${errorText(err)}`;
      this.ctx.report("window", sessionId, o.error);
    } finally {
      o.reading = false;
    }
    o.synced = !o.error;
    const queued = o.queue;
    o.queue = [];
    for (const p of queued) this.place(o, p);
    this.changed(o);
  }

  /** The job's output changed: its views re-render at the next frame, once. */
  private changed(o: JobOutputState) {
    this.dirty.add(o);
    if (this.frame) return;
    this.frame = true;
    nextFrame(() => {
      this.frame = false;
      const now = [...this.dirty];
      this.dirty.clear();
      for (const x of now) x.notify();
    });
  }

  /** Shows a job's output in the panel. */
  select(sessionId: number, jobId: string): void {
    this.patch(sessionId, (sj) => (sj.selected === jobId ? sj : { ...sj, selected: jobId }));
  }

  /** A tool card's link: the Jobs panel, with that job's output. */
  show(sessionId: number, jobId: string): void {
    this.select(sessionId, jobId);
    this.showPanel();
  }

  /** The Stop button: the job's whole process group; agent:job says when it ended. */
  async stop(sessionId: number, jobId: string): Promise<void> {
    this.patch(sessionId, (sj) => ({ ...sj, stopping: [...sj.stopping, jobId] }));
    try {
      await this.ctx.backend.stopJob(sessionId, jobId);
    } catch (err) {
      this.ctx.fail(`Could not stop job ${jobId}`, err);
    } finally {
      this.patch(sessionId, (sj) => ({ ...sj, stopping: sj.stopping.filter((x) => x !== jobId) }));
    }
  }

  /** A deleted session: its jobs and their output are dropped. */
  forget(sessionId: number): void {
    for (const key of [...this.outputs.keys()]) if (key.startsWith(`${sessionId}/`)) this.outputs.delete(key);
    this.store.setState((st) => {
      if (!(sessionId in st.sessions)) return st;
      const sessions = { ...st.sessions };
      delete sessions[sessionId];
      return { sessions };
    });
  }
}
