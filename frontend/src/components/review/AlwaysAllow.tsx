import type { Approval } from "../../lib/wire.gen";
import Visible from "../Visible";

/**
 * "Always allow" on a command-like card, with the rules it adds (one per
 * part of a compound command) shown before the user chooses. Not offered
 * when the backend has no rule to add for this call.
 */
export default function AlwaysAllow({
  approval,
  testId,
  label,
  checked,
  onChange,
  disabled,
}: {
  approval: Approval;
  testId: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled: boolean;
}) {
  const rules = approval.alwaysRules ?? [];
  if (rules.length === 0) return null;
  return (
    <div className="always-allow">
      <label className="check">
        <input type="checkbox" data-testid={testId} checked={checked} onChange={(e) => onChange(e.target.checked)} disabled={disabled} />
        {label}
      </label>
      <div className="always-rules" data-testid="always-rules" data-count={rules.length}>
        <span>{rules.length === 1 ? "Always allow adds this rule:" : `Always allow adds these ${rules.length} rules:`}</span>
        <ul>
          {rules.map((r) => (
            <li key={r}>
              <code data-testid="always-rule">
                <Visible text={r} />
              </code>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
