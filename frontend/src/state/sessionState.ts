// The open session as the window shows it, and the pure function that
// applies one backend event to it. Everything here is a plain value; the
// store (./store.ts) owns ordering and subscriptions.
import type { EventMap } from "../lib/wire.gen";
import type { AgentStatus, Approval, Message, MessagePage, SessionDetail, SessionSummary, TodoItem, ToolCall, Usage } from "../lib/wire.gen";

/** The session events (those with a seq), as a union discriminated by name. */
export type SessionEventName = Exclude<keyof EventMap, `app:${string}` | "session:updated" | "ledger:updated" | "mcp:updated">;
export type SessionEvent = { [K in SessionEventName]: { name: K; payload: EventMap[K] } }[SessionEventName];

/** Whether the window considers a turn to be under way. */
export type TurnPhase = "idle" | "sending" | "running";

export type TimelineNotice =
  | { kind: "notice"; id: string; noticeKind: EventMap["agent:notice"]["kind"]; text: string; afterMessageId: number | null; at: number }
  | { kind: "turn_end"; id: string; reason: EventMap["agent:turn_done"]["reason"]; afterMessageId: number | null; at: number };

export interface SessionError {
  kind: string;
  message: string;
  retryable: boolean;
}

export interface RetryCountdown {
  /** Why the call is retried ("connection failed"); the window counts the delay down. */
  text: string;
  until: number; // ms timestamp
}

export interface SessionView {
  id: number;
  summary: SessionSummary | null;
  status: "loading" | "ready" | "failed";
  loadError: string | null;
  messageIds: number[];
  messages: Record<number, Message>;
  toolCalls: Record<string, ToolCall>;
  /** Tool call ids per message, in creation order (helpers' calls are not here). */
  toolsByMessage: Record<number, string[]>;
  /** The calls of each task call's helper, by the task call's id, in creation order. */
  toolsByParent: Record<string, string[]>;
  pending: Approval[];
  usage: Usage | null;
  agentState: AgentStatus;
  turn: TurnPhase;
  error: SessionError | null;
  retry: RetryCountdown | null;
  notices: TimelineNotice[];
  /** The id of the message the user asked to see (search hit), scrolled into view once. */
  focusMessageId: number | null;
  /** The task list the agent keeps (todo_write), shown above the prompt box. */
  todos: TodoItem[];
  /** Whether the session has messages before the first one loaded (read as the user scrolls up). */
  hasOlder: boolean;
  /** Older messages being read, or why reading them failed. */
  older: "idle" | "loading" | { error: string };
}

export function emptySession(id: number, summary: SessionSummary | null = null): SessionView {
  return {
    id,
    summary,
    status: "loading",
    loadError: null,
    messageIds: [],
    messages: {},
    toolCalls: {},
    toolsByMessage: {},
    toolsByParent: {},
    pending: [],
    usage: null,
    agentState: "idle",
    turn: "idle",
    error: null,
    retry: null,
    notices: [],
    focusMessageId: null,
    todos: [],
    hasOlder: false,
    older: "idle",
  };
}

export function sessionFromDetail(d: SessionDetail, focusMessageId: number | null = null): SessionView {
  const s = emptySession(d.session.id, d.session);
  const running = d.state !== "idle" && d.state !== "error";
  return {
    ...prependPage(s, d),
    status: "ready",
    pending: d.pending,
    usage: d.usage,
    agentState: d.state,
    turn: running ? "running" : "idle",
    focusMessageId,
    todos: d.todos ?? [],
  };
}

/**
 * Puts a page of older messages before those loaded. What is loaded
 * already (an event may have brought it) is kept as it is.
 */
export function prependPage(s: SessionView, page: MessagePage): SessionView {
  const messages: Record<number, Message> = { ...s.messages };
  const ids: number[] = [];
  for (const m of page.messages) {
    if (m.id in messages) continue;
    ids.push(m.id);
    messages[m.id] = m;
  }
  const toolCalls: Record<string, ToolCall> = { ...s.toolCalls };
  const byMessage: Record<number, string[]> = {};
  const byParent: Record<string, string[]> = {};
  for (const c of page.toolCalls) {
    if (c.id in toolCalls) continue;
    toolCalls[c.id] = c;
    if (c.parentId) (byParent[c.parentId] ??= []).push(c.id);
    else (byMessage[c.messageId] ??= []).push(c.id);
  }
  const toolsByMessage = { ...s.toolsByMessage };
  for (const [k, list] of Object.entries(byMessage)) toolsByMessage[Number(k)] = [...list, ...(toolsByMessage[Number(k)] ?? [])];
  const toolsByParent = { ...s.toolsByParent };
  for (const [k, list] of Object.entries(byParent)) toolsByParent[k] = [...list, ...(toolsByParent[k] ?? [])];
  return { ...s, messages, messageIds: [...ids, ...s.messageIds], toolCalls, toolsByMessage, toolsByParent, hasOlder: page.hasOlder, older: "idle" };
}

function lastMessageId(s: SessionView): number | null {
  return s.messageIds.length ? s.messageIds[s.messageIds.length - 1]! : null;
}

function upsertMessage(s: SessionView, m: Message): SessionView {
  const exists = m.id in s.messages;
  return {
    ...s,
    messages: { ...s.messages, [m.id]: m },
    messageIds: exists ? s.messageIds : [...s.messageIds, m.id],
  };
}

function appendDelta(m: Message, text: string | undefined, thinking: string | undefined): Message {
  const blocks = m.blocks.slice();
  const add = (type: "text" | "thinking", delta: string) => {
    const last = blocks[blocks.length - 1];
    if (last && last.type === type) blocks[blocks.length - 1] = { ...last, text: (last.text ?? "") + delta };
    else blocks.push({ type, text: delta });
  };
  if (thinking) add("thinking", thinking);
  if (text) add("text", text);
  return { ...m, blocks, state: "streaming" };
}

let noticeSeq = 0;

/** Applies one session event; returns the same object when nothing changed. */
export function applyEvent(s: SessionView, ev: SessionEvent, now: number = Date.now()): SessionView {
  switch (ev.name) {
    case "agent:state": {
      const state = ev.payload.state;
      const turn: TurnPhase = state === "idle" || state === "error" ? s.turn : "running";
      return {
        ...s,
        agentState: state,
        turn,
        error: state === "streaming" ? null : s.error,
        retry: state === "streaming" ? null : s.retry,
      };
    }
    case "agent:stream": {
      const p = ev.payload;
      const existing = s.messages[p.messageId];
      const base: Message = existing ?? { id: p.messageId, role: "assistant", blocks: [], state: "streaming", createdAt: now };
      return upsertMessage({ ...s, retry: null }, appendDelta(base, p.text, p.thinking));
    }
    case "agent:message":
      return upsertMessage(s, ev.payload.message);
    case "agent:tool": {
      const c = ev.payload.call;
      const known = c.id in s.toolCalls;
      // Keep live output streamed so far when the update carries none.
      const prev = s.toolCalls[c.id];
      const call = prev && !c.output && prev.output ? { ...c, output: prev.output } : c;
      if (c.parentId) {
        const p = c.parentId;
        return {
          ...s,
          toolCalls: { ...s.toolCalls, [c.id]: call },
          toolsByParent: known ? s.toolsByParent : { ...s.toolsByParent, [p]: [...(s.toolsByParent[p] ?? []), c.id] },
        };
      }
      return {
        ...s,
        toolCalls: { ...s.toolCalls, [c.id]: call },
        toolsByMessage: known
          ? s.toolsByMessage
          : { ...s.toolsByMessage, [c.messageId]: [...(s.toolsByMessage[c.messageId] ?? []), c.id] },
      };
    }
    case "agent:tool_output": {
      const c = s.toolCalls[ev.payload.toolCallId];
      if (!c) return s;
      return { ...s, toolCalls: { ...s.toolCalls, [c.id]: { ...c, output: c.output + ev.payload.chunk } } };
    }
    case "agent:approval": {
      const a = ev.payload.approval;
      if (s.pending.some((p) => p.id === a.id)) return s;
      return { ...s, pending: [...s.pending, a] };
    }
    case "agent:approval_done": {
      const pending = s.pending.filter((p) => p.id !== ev.payload.approvalId);
      return pending.length === s.pending.length ? s : { ...s, pending };
    }
    case "agent:usage":
      return { ...s, usage: ev.payload.usage };
    case "agent:todos":
      return { ...s, todos: ev.payload.todos };
    case "agent:notice": {
      const p = ev.payload;
      const retry = p.kind === "retry" ? { text: p.reason ?? "", until: now + (p.retryInMs ?? 0) } : s.retry;
      const notice: TimelineNotice = {
        kind: "notice",
        id: `n${++noticeSeq}`,
        noticeKind: p.kind,
        text: p.text,
        afterMessageId: lastMessageId(s),
        at: now,
      };
      // Retry notices live in the countdown, not in the transcript.
      return { ...s, retry, notices: p.kind === "retry" ? s.notices : [...s.notices, notice] };
    }
    case "agent:error":
      return {
        ...s,
        error: { kind: ev.payload.kind, message: ev.payload.message, retryable: ev.payload.retryable },
        retry: null,
      };
    case "agent:turn_done": {
      const reason = ev.payload.reason;
      // Messages left streaming when a turn ends were interrupted.
      let messages = s.messages;
      for (const id of s.messageIds.slice(-3)) {
        const m = messages[id];
        if (m && m.state === "streaming") messages = { ...messages, [id]: { ...m, state: reason === "end_turn" || reason === "plan" ? "complete" : "interrupted" } };
      }
      // A plan shows as its card; an answer or a failure needs no notice.
      const notices: TimelineNotice[] =
        reason === "end_turn" || reason === "error" || reason === "plan"
          ? s.notices
          : [...s.notices, { kind: "turn_end", id: `t${++noticeSeq}`, reason, afterMessageId: lastMessageId(s), at: now }];
      return { ...s, messages, notices, turn: "idle", retry: null, agentState: s.agentState === "error" ? "error" : "idle" };
    }
    // Jobs and diagnostics have their own state (the Jobs panel, the file
    // tree); the transcript does not change.
    case "agent:job":
    case "agent:job_output":
    case "agent:diagnostics":
      return s;
  }
}
