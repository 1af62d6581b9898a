// Mirrors backend/wire/events.go: every event name the backend emits and
// its payload. backend/wire/events_test.go fails when a Go constant is
// missing here.
import type {
  AgentState,
  Approval,
  ApprovalOutcome,
  Message,
  NoticeKind,
  SessionSummary,
  TodoItem,
  ToolCall,
  TurnEndReason,
  Usage,
  WorkInFlight,
} from "./types";

export interface AppReadyPayload {
  startupMs: number;
}

/** A second launch (`pilot DIR`) opened a folder, or could not (error). */
export interface OpenProjectPayload {
  path: string;
  error?: string;
}

/** A notification of this session was clicked. */
export interface OpenSessionPayload {
  projectPath: string;
  sessionId: number;
}

/** Every session event carries its session and a per-session sequence number. */
export interface Seq {
  sessionId: number;
  seq: number;
}

export interface StatePayload extends Seq {
  state: AgentState;
}
export interface StreamPayload extends Seq {
  messageId: number;
  text?: string;
  thinking?: string;
}
export interface MessagePayload extends Seq {
  message: Message;
}
export interface ToolPayload extends Seq {
  call: ToolCall;
}
export interface ToolOutputPayload extends Seq {
  toolCallId: string;
  chunk: string;
}
export interface ApprovalPayload extends Seq {
  approval: Approval;
}
export interface ApprovalDonePayload extends Seq {
  approvalId: string;
  outcome: ApprovalOutcome;
}
export interface UsagePayload extends Seq {
  usage: Usage;
}
export interface NoticePayload extends Seq {
  kind: NoticeKind;
  text: string;
  retryInMs?: number;
  reason?: string;
}
export interface ErrorPayload extends Seq {
  kind: string;
  message: string;
  retryable: boolean;
}
/** The task list that replaced the previous one (todo_write). */
export interface TodosPayload extends Seq {
  todos: TodoItem[];
}
export interface TurnDonePayload extends Seq {
  reason: TurnEndReason;
}
export interface LedgerUpdatedPayload {
  sessionId: number;
}
export interface McpUpdatedPayload {
  project: string;
}
export interface SessionPayload {
  session: SessionSummary;
}

export interface EventMap {
  "app:ready": AppReadyPayload;
  "app:open_project": OpenProjectPayload;
  "app:open_session": OpenSessionPayload;
  "app:confirm_quit": WorkInFlight;
  "agent:state": StatePayload;
  "agent:stream": StreamPayload;
  "agent:message": MessagePayload;
  "agent:tool": ToolPayload;
  "agent:tool_output": ToolOutputPayload;
  "agent:approval": ApprovalPayload;
  "agent:approval_done": ApprovalDonePayload;
  "agent:usage": UsagePayload;
  "agent:notice": NoticePayload;
  "agent:error": ErrorPayload;
  "agent:todos": TodosPayload;
  "agent:turn_done": TurnDonePayload;
  "session:updated": SessionPayload;
  "ledger:updated": LedgerUpdatedPayload;
  "mcp:updated": McpUpdatedPayload;
}

export type EventName = keyof EventMap;
