import type { Approval } from "../../lib/wire.gen";
import { visibleString } from "../../lib/visible";
import Visible from "../Visible";
import AlwaysAllow from "./AlwaysAllow";
import DecisionButtons, { ReasonField } from "./DecisionButtons";
import { useCommandDecision } from "./useCommandDecision";

/**
 * A sandboxed command wants to reach a host not allowed yet, through
 * Pilot's proxy: the command waits. Allowing it lets the session's
 * commands reach that host for the rest of the session; "always" adds a
 * project rule for the host. The command and the host are shown with
 * every character visible.
 */
export default function NetworkApproval({ approval }: { approval: Approval }) {
  const { always, setAlways, feedback, setFeedback, sent, card, decide } = useCommandDecision(approval);
  const host = approval.host ? visibleString(approval.host) : "this host";
  const where = approval.port ? `${approval.host ?? ""}:${approval.port}` : (approval.host ?? "this host");

  return (
    <div ref={card} tabIndex={-1} className="review-card bash-card" data-testid="network-approval" data-approval-id={approval.id} data-host={approval.host}>
      <header className="review-title">
        <strong>
          <code data-testid="network-command">
            <Visible text={approval.command ?? ""} />
          </code>{" "}
          wants to reach{" "}
          <span data-testid="network-host">
            <Visible text={where} />
          </span>
        </strong>
      </header>
      <p className="hint">The command runs in the sandbox and waits for your answer. Allowing it lets this session&apos;s commands reach {host} until the session ends.</p>
      <AlwaysAllow approval={approval} testId="network-always" label={`Always allow ${host} in this project`} checked={always} onChange={setAlways} disabled={sent !== "no"} />
      <ReasonField testId="network-feedback" no="refuse" value={feedback} onChange={setFeedback} disabled={sent !== "no"} />
      <DecisionButtons
        yes={{ testId: "network-approve", label: "▶ Allow once", sent: "Allowed — connecting…" }}
        no={{ testId: "network-reject", label: "✕ Deny", sent: "Denied." }}
        sent={sent}
        decide={decide}
      />
    </div>
  );
}
