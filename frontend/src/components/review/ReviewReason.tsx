import type { Approval } from "../../lib/wire.gen";
import { useApp, useController } from "../../state/context";
import { reviewFocused } from "../../state/layout";
import { agentReason, userRequest } from "../../state/reviewReason";
import Markdown from "../Markdown";

/**
 * Why the first waiting approval is asked for, where the chat is not in
 * view: the user's request and the agent's latest words, pinned above the
 * hunks. When a big change took the whole window, it says so and how to
 * bring the chat back.
 */
export default function ReviewReason({ approval }: { approval: Approval }) {
  const c = useController();
  const request = useApp((s) => userRequest(s, approval));
  const reason = useApp((s) => agentReason(s, approval));
  const focused = useApp(reviewFocused);
  const auto = useApp((s) => s.layout.reviewFocus === "auto");
  return (
    <section className="review-reason" data-testid="review-reason" aria-label="Why this is proposed">
      {request && (
        <div className="reason-row">
          <span className="reason-who">You asked</span>
          <p className="reason-request">{request}</p>
        </div>
      )}
      <div className="reason-row">
        <span className="reason-who">Pilot says</span>
        {reason ? <Markdown text={reason} /> : <p className="muted">Pilot proposed this without a word of explanation; its request is on the card in the chat.</p>}
      </div>
      {focused && (
        <p className="reason-why muted">
          {auto ? "This change is too big to read beside the chat, so it has the whole window. " : ""}
          <button type="button" className="link" onClick={() => c.layout.toggleFocusReview()}>
            Show the chat beside it
          </button>{" "}
          (<kbd>f</kbd>)
        </p>
      )}
    </section>
  );
}
