// Approvals: loading a proposed change, the user's hunk decisions, and the
// answers to commands waiting for approval.
import { errorText } from "../lib/format";
import type { ElicitationDecision } from "../lib/wire.gen";
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

  async submitChange(approvalId: string, mode: DecisionMode): Promise<void> {
    const r = this.reviews[approvalId];
    if (!r || !r.change || r.phase === "submitting" || r.phase === "submitted") return;
    const decision = buildDecision(r, mode);
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
