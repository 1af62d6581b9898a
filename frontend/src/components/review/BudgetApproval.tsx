import { useState } from "react";
import type { Approval } from "../../lib/wire.gen";
import { useController } from "../../state/context";
import DecisionButtons from "./DecisionButtons";
import type { Sent } from "./useCommandDecision";

/** The session reached its budget: the turn waits until the user lets it go on or stops it. */
export default function BudgetApproval({ approval }: { approval: Approval }) {
  const c = useController();
  const [sent, setSent] = useState<Sent>("no");
  const decide = async (go: boolean) => {
    setSent(go ? "approve" : "reject");
    await c.approvals.decideCommand(approval.id, go, go ? "" : "The user stopped the turn at the session budget.", false);
  };
  return (
    <div className="review-card bash-card" data-testid="budget-approval" data-approval-id={approval.id}>
      <header className="review-title">
        <strong>Budget reached</strong>
      </header>
      <p>{approval.command}</p>
      <DecisionButtons yes={{ testId: "budget-continue", label: "Continue", sent: "Continuing…" }} no={{ testId: "budget-stop", label: "Stop here", sent: "Stopped." }} sent={sent} decide={decide} />
    </div>
  );
}
