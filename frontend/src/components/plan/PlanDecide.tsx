import { useState, type ReactNode } from "react";
import type { ApprovalMode } from "../../lib/wire.gen";
import { useController } from "../../state/context";
import { toMode, WORK_MODES } from "../../state/plan";
import { modeLabel } from "./ModeSelect";

/**
 * The answers to a presented plan (its card in the chat, and the inbox):
 * "Approve and continue in [mode ▾]" as one control, so the mode reads as
 * part of its sentence, or keep planning with feedback. `more` are other
 * controls of the approve row (the card's edit and comment toggles).
 */
export default function PlanDecide({
  sessionId,
  plan,
  idle,
  onApprove,
  onKeep,
  more,
}: {
  sessionId: number;
  /** The plan as it would be approved. */
  plan: string;
  /** Whether the session can start a turn now. */
  idle: boolean;
  onApprove: (mode: ApprovalMode, plan: string) => void;
  onKeep: (feedback: string) => void;
  more?: ReactNode;
}) {
  const c = useController();
  const [target, setTarget] = useState<ApprovalMode>(() => c.plan.workMode(sessionId));
  const [feedback, setFeedback] = useState("");
  return (
    <div className="plan-actions">
      <div className="plan-approve-row">
        <span className="plan-approve-split" role="group" aria-label="Approve the plan">
          <button
            type="button"
            className="primary"
            data-testid="plan-approve"
            aria-label={`Approve the plan and continue in ${modeLabel[target].toLowerCase()} mode`}
            disabled={!idle || !plan.trim()}
            onClick={() => onApprove(target, plan)}
          >
            Approve and continue in
          </button>
          <select
            data-testid="plan-approve-mode"
            aria-label="Mode to continue in"
            title={target === "edits" ? "Edits: file changes are applied, commands run in the sandbox" : "Ask: every change and command is asked"}
            value={target}
            onChange={(e) => setTarget(toMode(e.target.value))}
          >
            {WORK_MODES.map((m) => (
              <option key={m} value={m}>
                {modeLabel[m].toLowerCase()}
              </option>
            ))}
          </select>
        </span>
        {more}
      </div>
      <div className="plan-keep-row">
        <textarea
          data-testid="plan-feedback"
          aria-label="What should change in the plan"
          placeholder="What should change in the plan?"
          rows={2}
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
        />
        <button
          type="button"
          data-testid="plan-keep"
          disabled={!idle || !feedback.trim()}
          title={feedback.trim() ? "Send the feedback; the agent revises the plan" : "Write what should change first"}
          onClick={() => {
            onKeep(feedback);
            setFeedback("");
          }}
        >
          Keep planning
        </button>
      </div>
    </div>
  );
}
