// Why a waiting approval is asked for, in the conversation's own words: the
// user's request that started the turn and the agent's latest words before
// the call. Shown with the review where the chat is not in view.
import type { Approval, Message } from "../lib/wire.gen";
import type { AppState } from "./appState";

/** A message's text as the user sees it (a slash command as typed). */
function textOf(m: Message): string {
  return m.blocks
    .filter((b) => b.type === "text")
    .map((b) => (m.role === "user" && b.command ? b.command : (b.text ?? "")))
    .join("\n")
    .trim();
}

/** A message the user wrote (not one that only carries tool results back to the model). */
const fromUser = (m: Message) => m.role === "user" && m.blocks.some((b) => b.type === "text" || b.type === "image");

/** The messages up to the one that made the approval's call, newest first. */
function before(st: AppState, approval: Approval): Message[] {
  const s = st.session;
  if (!s) return [];
  const at = s.toolCalls[approval.toolCallId]?.messageId;
  const ids = s.messageIds;
  const end = at !== undefined && ids.includes(at) ? ids.indexOf(at) : ids.length - 1;
  const out: Message[] = [];
  for (let i = end; i >= 0; i--) {
    const m = s.messages[ids[i]!];
    if (m) out.push(m);
  }
  return out;
}

/** The agent's latest words before the call, back to the user's request ("" when it said nothing). */
export function agentReason(st: AppState, approval: Approval): string {
  for (const m of before(st, approval)) {
    if (fromUser(m)) return "";
    if (m.role !== "assistant") continue;
    const t = textOf(m);
    if (t) return t;
  }
  return "";
}

/** The user's message that started the turn ("" when it is not loaded). */
export function userRequest(st: AppState, approval: Approval): string {
  for (const m of before(st, approval)) if (fromUser(m)) return textOf(m);
  return "";
}
