import type { Approval } from "../../lib/wire.gen";
import { useApp, useController } from "../../state/context";
import AlwaysAllow from "./AlwaysAllow";

/**
 * "Always allow" on a proposed change, offered when the approval carries
 * rules to add (alwaysRules), with those rules shown; it goes along with
 * the decision when that approves some of the change. When it is not
 * offered for a reason (noAlways: an ask rule, or remember's own file),
 * the reason is said instead.
 */
export default function ChangeAlwaysAllow({ approval, locked }: { approval: Approval; locked: boolean }) {
  const c = useController();
  const checked = useApp((s) => s.reviews[approval.id]?.alwaysAllow ?? false);
  const n = approval.alwaysRules?.length ?? 0;
  if (n === 0 && approval.noAlways)
    return (
      <p className="hint" data-testid="change-no-always">
        {approval.noAlways}
      </p>
    );
  return (
    <AlwaysAllow
      approval={approval}
      testId="change-always"
      label={n > 1 ? "Always allow changes like these in this project (when approved)" : "Always allow changes like this in this project (when approved)"}
      checked={checked}
      disabled={locked}
      onChange={(v) => c.approvals.update(approval.id, (x) => ({ ...x, alwaysAllow: v }))}
    />
  );
}
