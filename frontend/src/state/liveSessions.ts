// Every session's live state, not only the open one's: the agent events of
// all sessions carry their sessionId, so the window keeps, per session,
// the agent's state and what waits for the user. The session list shows it
// (data-state, what it waits for, a badge with the changes waiting).
import type { AgentStatus, Approval, ElsewhereRun, SessionSummary } from "../lib/wire.gen";
import type { SessionEvent } from "./sessionState";

/** What the session list says of a session. */
export type ListState = "idle" | "streaming" | "waiting" | "error";

export interface LiveSession {
  agent: AgentStatus;
  /** The approvals waiting for the user, oldest first. */
  waiting: Approval[];
}

export type LiveSessions = Record<number, LiveSession>;

const idle: LiveSession = { agent: "idle", waiting: [] };

/** Applies one agent event of any session; returns the same object when nothing changed. */
export function applyLive(live: LiveSessions, ev: SessionEvent): LiveSessions {
  const id = ev.payload.sessionId;
  const cur = live[id] ?? idle;
  let next: LiveSession;
  switch (ev.name) {
    case "agent:state":
      if (cur.agent === ev.payload.state) return live;
      next = { ...cur, agent: ev.payload.state };
      break;
    case "agent:approval": {
      const a = ev.payload.approval;
      next = { ...cur, waiting: [...cur.waiting.filter((x) => x.id !== a.id), a] };
      break;
    }
    case "agent:approval_done": {
      const waiting = cur.waiting.filter((x) => x.id !== ev.payload.approvalId);
      if (waiting.length === cur.waiting.length) return live;
      next = { ...cur, waiting };
      break;
    }
    case "agent:turn_done": {
      // As the open session's view does (sessionState.ts): what still waits is withdrawn by its own approval_done.
      const agent: AgentStatus = cur.agent === "error" || ev.payload.reason === "error" ? "error" : "idle";
      if (agent === cur.agent) return live;
      next = { ...cur, agent };
      break;
    }
    default:
      return live;
  }
  return { ...live, [id]: next };
}

/** The list's state of a session run by another Pilot process, as that process last wrote it. */
function elsewhereState(run: ElsewhereRun): ListState {
  if (run.state === "awaiting_approval" || run.waiting?.length) return "waiting";
  return run.state === "error" ? "error" : "streaming";
}

/**
 * The list's state of a session: as another Pilot process runs it, else its
 * live state when the window saw one, else the state the store saved.
 */
export function listState(s: SessionSummary, live: LiveSession | undefined): ListState {
  if (s.elsewhere) return elsewhereState(s.elsewhere);
  if (!live) return s.state === "running" ? "streaming" : s.state === "error" ? "error" : "idle";
  if (live.waiting.length || live.agent === "awaiting_approval") return "waiting";
  if (live.agent === "streaming" || live.agent === "tool_executing") return "streaming";
  return live.agent === "error" ? "error" : "idle";
}

/** How many proposed changes wait for the user's review (in another Pilot process, when it runs the session). */
export function changesWaiting(live: LiveSession | undefined, elsewhere?: ElsewhereRun): number {
  const waiting = elsewhere ? (elsewhere.waiting ?? []) : (live?.waiting ?? []);
  return waiting.filter((a) => a.kind === "change").length;
}

function quoted(cmd: string): string {
  const one = cmd.replace(/\s+/g, " ").trim();
  return one.length > 60 ? `“${one.slice(0, 59)}…”` : `“${one}”`;
}

function files(paths: string[] | undefined): string {
  const p = paths ?? [];
  if (p.length === 0) return "a change";
  if (p.length === 1) return `a change to ${p[0]}`;
  return `a change to ${p[0]} and ${p.length - 1} more ${p.length === 2 ? "file" : "files"}`;
}

/** What one approval waits for, as the end of "Waiting for you to …". */
export function waitsFor(a: Approval): string {
  switch (a.kind) {
    case "change":
      return `review ${files(a.paths)}`;
    case "command":
      return `approve the command ${quoted(a.command ?? a.tool)}`;
    case "outside_sandbox":
      return `approve running ${quoted(a.command ?? a.tool)} outside the sandbox`;
    case "mcp":
      return `approve ${a.mcpTool ?? a.tool} on the MCP server ${a.server ?? ""}`.trimEnd();
    case "fetch":
      return a.tool === "web_search" ? `allow searching through ${a.host ?? "the search service"}` : `allow reading ${a.host ?? "a web page"}`;
    case "network":
      return `allow a connection to ${a.host ?? "the network"}${a.port ? `:${a.port}` : ""}`;
    case "budget":
      return "raise the session's budget or stop";
    case "plan":
      return "approve the plan or keep planning";
    case "elicitation":
      return a.server ? `answer the form of the MCP server ${a.server}` : "answer an MCP server's form";
  }
}

/** What the list says of a run in another Pilot process (its pid, so the user can find it). */
function elsewhereSentence(run: ElsewhereRun): string {
  const where = `in another Pilot process (pid ${run.pid})`;
  const w = run.waiting ?? [];
  if (w.length) {
    const more = w.length === 1 ? "" : `, and ${w.length - 1} more ${w.length === 2 ? "decision" : "decisions"}`;
    return `Waiting ${where} for you to ${waitsFor(w[0]!)}${more}: answer it there.`;
  }
  switch (run.state) {
    case "awaiting_approval":
      return `Waiting for a decision ${where}: answer it there.`;
    case "tool_executing":
      return `Running ${where}: running a tool.`;
    case "streaming":
      return `Running ${where}: the model is writing.`;
    default:
      return `Running ${where}.`;
  }
}

/** The sentence the session list shows as the item's tooltip. */
export function stateSentence(state: ListState, live: LiveSession | undefined, elsewhere?: ElsewhereRun): string {
  if (elsewhere) return elsewhereSentence(elsewhere);
  switch (state) {
    case "waiting": {
      const w = live?.waiting ?? [];
      if (!w.length) return "Waiting for your decision.";
      const first = `Waiting for you to ${waitsFor(w[0]!)}`;
      return w.length === 1 ? `${first}.` : `${first}, and ${w.length - 1} more ${w.length === 2 ? "decision" : "decisions"}.`;
    }
    case "streaming":
      return live?.agent === "tool_executing" ? "Working: running a tool." : "Working: the model is writing.";
    case "error":
      return "Stopped on an error: open the session to read it and retry.";
    case "idle":
      return "Idle: nothing running, nothing waiting.";
  }
}
