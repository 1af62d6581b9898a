import type { InboxItem } from "../../lib/wire.gen";
import { useController } from "../../state/context";
import PlanDecide from "../plan/PlanDecide";

/**
 * A plan waiting in the inbox (the plan itself is above it, as the agent's
 * words): the answers its card in the chat offers, given to its session
 * whichever one is open. Editing the plan or commenting on its lines is on
 * the card (Enter opens the session).
 */
export default function InboxPlan({ item }: { item: InboxItem }) {
  const c = useController();
  return (
    <section className="plan-card" data-state="open" aria-label="Plan">
      <PlanDecide
        sessionId={item.sessionId}
        plan={item.reason}
        idle
        onApprove={(mode) => void c.inbox.answerPlan(item, { mode })}
        onKeep={(feedback) => void c.inbox.answerPlan(item, { feedback })}
      />
    </section>
  );
}
