import type { Approval } from "../../lib/wire.gen";
import { visibleString } from "../../lib/visible";
import Visible from "../Visible";
import AlwaysAllow from "./AlwaysAllow";
import DecisionButtons, { ReasonField } from "./DecisionButtons";
import { useCommandDecision } from "./useCommandDecision";

/**
 * web_fetch asks to read a page from a host not allowed yet: allowing it
 * lets the agent read that host for the rest of the session; "always"
 * adds a project rule for the host. The URL and the host (the model's)
 * are shown with every character visible. A web_search asks the same
 * way about its search service's host: the card names the service, the
 * query and which of the session's searches it is ("search 3 of 20").
 */
export default function FetchApproval({ approval }: { approval: Approval }) {
  const { always, setAlways, feedback, setFeedback, sent, card, decide } = useCommandDecision(approval);
  const search = approval.tool === "web_search";
  const url = search ? (approval.command ?? "") : (approval.command ?? "").replace(/^Fetch /, "");
  const host = <Visible text={approval.host ?? ""} />;

  return (
    <div ref={card} tabIndex={-1} className="review-card bash-card" data-testid="fetch-approval" data-approval-id={approval.id} data-host={approval.host}>
      <header className="review-title">
        <strong>{search ? <>Search the web through {host}?</> : <>Read a web page from {host}?</>}</strong>
      </header>
      <pre className="command fetch-url" data-testid="fetch-url">
        <Visible text={url} />
      </pre>
      <p className="hint">
        {search ? <>Allowing it lets the agent search through {host} for the rest of this session; the query goes to that service.</> : <>Allowing it lets the agent read pages from {host} for the rest of this session.</>}
      </p>
      <AlwaysAllow
        approval={approval}
        testId="fetch-always"
        label={`Always allow ${approval.host ? visibleString(approval.host) : "this host"} in this project`}
        checked={always}
        onChange={setAlways}
        disabled={sent !== "no"}
      />
      <ReasonField testId="fetch-feedback" no="refuse" value={feedback} onChange={setFeedback} disabled={sent !== "no"} />
      <DecisionButtons
        yes={{ testId: "fetch-approve", label: <>▶ Allow {host}</>, sent: search ? "Allowed — searching…" : "Allowed — fetching…" }}
        no={{ testId: "fetch-reject", label: "✕ Refuse", sent: "Refused." }}
        sent={sent}
        decide={decide}
      />
    </div>
  );
}
