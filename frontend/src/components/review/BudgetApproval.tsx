import { useState } from "react";
import type { Approval } from "../../lib/wire.gen";
import { useController } from "../../state/context";

/** The session reached its budget: the turn waits until the user lets it go on or stops it. */
export default function BudgetApproval({ approval }: { approval: Approval }) {
  const c = useController();
  const [sent, setSent] = useState<"no" | "continue" | "stop">("no");
  const decide = async (go: boolean) => {
    setSent(go ? "continue" : "stop");
    await c.approvals.decideCommand(approval.id, go, go ? "" : "The user stopped the turn at the session budget.", false);
  };
  return (
    <div className="review-card bash-card" data-testid="budget-approval" data-approval-id={approval.id}>
      <header className="review-title">
        <strong>Budget reached</strong>
      </header>
      <p>{approval.command}</p>
      <div className="review-actions">
        <button type="button" className="primary" data-testid="budget-continue" disabled={sent !== "no"} onClick={() => void decide(true)}>
          Continue
        </button>
        <button type="button" className="danger-outline" data-testid="budget-stop" disabled={sent !== "no"} onClick={() => void decide(false)}>
          Stop here
        </button>
        {sent !== "no" && <span className="muted" role="status">{sent === "continue" ? "Continuing…" : "Stopped."}</span>}
      </div>
    </div>
  );
}
