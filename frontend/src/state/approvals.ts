// Approvals: loading a proposed change, the user's hunk decisions, and the
// answers to commands waiting for approval.
import { errorText } from "../lib/format";
import type { Comment, ElicitationDecision, LineComment } from "../lib/wire.gen";
import type { ActionContext } from "./actions";
import { buildDecision, loadingReview, readyReview, type DecisionMode, type ReviewState } from "./review";

export class ApprovalActions {
  constructor(private readonly ctx: ActionContext) {}

  private get reviews() {
    return this.ctx.store.getState().reviews;
  }

  /** Changes one review, if it is still there. */
  update(id: string, update: (r: ReviewState) => ReviewState) {
    this.ctx.store.setState((st) => {
      const r = st.reviews[id];
      return r ? { ...st, reviews: { ...st.reviews, [id]: update(r) } } : st;
    });
  }

  async loadChange(approvalId: string): Promise<void> {
    if (this.reviews[approvalId]) return;
    this.ctx.store.setState((st) => ({ ...st, reviews: { ...st.reviews, [approvalId]: loadingReview(approvalId) } }));
    try {
      const change = await this.ctx.backend.getChange(approvalId);
      this.update(approvalId, () => readyReview(change));
    } catch (err) {
      this.update(approvalId, (r) => ({ ...r, phase: "load_failed", error: errorText(err) }));
    }
  }

  /** Sends the decision; comments: the user's comments on this change (one on a rejected hunk is the model's reason). */
  async submitChange(approvalId: string, mode: DecisionMode, comments: readonly Comment[] = []): Promise<void> {
    const r = this.reviews[approvalId];
    if (!r || !r.change || r.phase === "submitting" || r.phase === "submitted") return;
    const decision = comments.length > 0 ? { ...buildDecision(r, mode), comments: comments.map(commentOf) } : buildDecision(r, mode);
    this.update(approvalId, (x) => ({
      ...x,
      phase: "submitting",
      error: null,
      decisions:
        mode === "as_decided"
          ? x.decisions
          : x.decisions.map((row) => row.map(() => (mode === "approve_all" ? "approved" : "rejected"))),
    }));
    try {
      await this.ctx.backend.decideChange(approvalId, decision);
      this.update(approvalId, (x) => ({ ...x, phase: "submitted" }));
    } catch (err) {
      this.update(approvalId, (x) => ({ ...x, phase: "submit_failed", error: errorText(err) }));
    }
  }

  /**
   * A review's decision of the open session's pending change: its hunks as
   * decided (undecided ones rejected) with the comments made on it; null
   * when no change waits. Resolves to whether it was sent.
   */
  decideWithComments(sessionId: number, comments: readonly LineComment[]): Promise<boolean> | null {
    const s = this.ctx.store.getState().session;
    if (!s || s.id !== sessionId) return null;
    const a = s.pending.find((p) => p.kind === "change" && this.reviews[p.id]?.phase === "deciding");
    if (!a) return null;
    const mine = comments.filter((c) => c.origin === "change" && c.originRef === a.id);
    return this.submitChange(a.id, "as_decided", mine).then(() => this.reviews[a.id]?.phase !== "submit_failed");
  }

  async decideCommand(approvalId: string, approve: boolean, feedback: string, alwaysAllow: boolean): Promise<void> {
    try {
      await this.ctx.backend.decideCommand(approvalId, { approve, feedback: approve ? "" : feedback.trim(), alwaysAllow: approve && alwaysAllow });
    } catch (err) {
      this.ctx.fail("Could not send the decision", err);
    }
  }

  /**
   * Answers an MCP server's form; what Go refused (values that do not fit
   * the form, a form no longer waiting) comes back as its sentence, null
   * once sent.
   */
  async decideElicitation(approvalId: string, decision: ElicitationDecision): Promise<string | null> {
    try {
      await this.ctx.backend.decideElicitation(approvalId, decision);
      return null;
    } catch (err) {
      return errorText(err);
    }
  }
}

/** A comment as a decision carries it (without the database's ids). */
function commentOf(c: Comment): Comment {
  return { path: c.path, line: c.line, endLine: c.endLine, lineText: c.lineText, text: c.text, origin: c.origin, originRef: c.originRef, state: c.state };
}
