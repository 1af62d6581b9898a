import type { ApprovalMode } from "../../lib/wire.gen";
import { useApp, useController } from "../../state/context";
import { MODES, toMode } from "../../state/plan";
// The plan's styles load with the first part that shows a mode, a plan or a to-do list (not with the first screen).
import "../../plan.css";

export const modeLabel: Record<ApprovalMode, string> = {
  plan: "Plan",
  ask: "Ask",
  edits: "Edits",
  all: "All",
  none: "None",
};

/** What each mode lets through, in the words of the mode control and of Settings' default mode. */
export const modeWhat: Record<ApprovalMode, string> = {
  plan: "the agent only reads and ends with a plan for you to approve; nothing is changed or run.",
  ask: "every change and command waits for your approval.",
  edits: "file changes are applied (and can be reverted); commands run in the sandbox without asking, or wait for your approval where it cannot start.",
  all: "changes and commands run without asking.",
  none: "every change and command is refused; the agent only reads and answers.",
};

const modeHint = (m: ApprovalMode) => `${modeLabel[m]}: ${modeWhat[m]}`;

/**
 * The open session's own mode; Shift+Tab in the prompt box cycles ask →
 * edits → plan. New sessions start in Settings' default mode.
 */
export default function ModeSelect() {
  const c = useController();
  const mode = useApp((s) => toMode(s.session?.summary?.approvalMode));
  const hasProject = useApp((s) => s.project !== null);
  return (
    <label
      className={`mode-select mode-${mode}`}
      title={`This session's mode. ${modeHint(mode)} Shift+Tab in the message box cycles Ask → Edits → Plan. New sessions start in the default mode set in Settings › Approvals & rules.`}
    >
      <span className="mode-select-label">This session:</span>
      <select
        data-testid="mode-select"
        data-mode={mode}
        aria-label="This session's mode"
        value={mode}
        disabled={!hasProject}
        onChange={(e) => void c.plan.setMode(toMode(e.target.value))}
      >
        {MODES.map((m) => (
          <option key={m} value={m}>
            {modeLabel[m]}
          </option>
        ))}
      </select>
    </label>
  );
}
