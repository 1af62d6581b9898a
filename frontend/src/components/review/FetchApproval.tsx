import type { Approval } from "../../lib/wire.gen";
import { visibleString } from "../../lib/visible";
import Visible from "../Visible";
import AlwaysAllow from "./AlwaysAllow";
import { useCommandDecision } from "./useCommandDecision";

/**
 * web_fetch asks to read a page from a host not allowed yet: allowing it
 * lets the agent read that host for the rest of the session; "always"
 * adds a project rule for the host. The URL and the host (the model's)
 * are shown with every character visible.
 */
export default function FetchApproval({ approval }: { approval: Approval }) {
  const { always, setAlways, feedback, setFeedback, sent, card, decide } = useCommandDecision(approval);
  const url = (approval.command ?? "").replace(/^Fetch /, "");
  const host = <Visible text={approval.host ?? ""} />;

  return (
    <div ref={card} tabIndex={-1} className="review-card bash-card" data-testid="fetch-approval" data-approval-id={approval.id} data-host={approval.host}>
      <header className="review-title">
        <strong>Read a web page from {host}?</strong>
      </header>
      <pre className="command fetch-url" data-testid="fetch-url">
        <Visible text={url} />
      </pre>
      <p className="hint">Allowing it lets the agent read pages from {host} for the rest of this session.</p>
      <AlwaysAllow
        approval={approval}
        testId="fetch-always"
        label={`Always allow ${approval.host ? visibleString(approval.host) : "this host"} in this project`}
        checked={always}
        onChange={setAlways}
        disabled={sent !== "no"}
      />
      <label className="feedback">
        <span>Reason, if you refuse (sent to the model)</span>
        <input type="text" data-testid="fetch-feedback" value={feedback} onChange={(e) => setFeedback(e.target.value)} disabled={sent !== "no"} />
      </label>
      <div className="review-actions">
        <button type="button" className="primary" data-testid="fetch-approve" disabled={sent !== "no"} onClick={() => void decide(true)}>
          ▶ Allow {host}
        </button>
        <button type="button" className="danger-outline" data-testid="fetch-reject" disabled={sent !== "no"} onClick={() => void decide(false)}>
          ✕ Refuse
        </button>
        {sent !== "no" && <span className="muted" role="status">{sent === "approve" ? "Allowed — fetching…" : "Refused."}</span>}
      </div>
    </div>
  );
}
