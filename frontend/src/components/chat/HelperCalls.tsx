import type { ReactNode } from "react";
import { useApp } from "../../state/context";

const none: string[] = [];

/** How many calls the helper of a task call has made so far. */
export function useHelperCallCount(taskId: string): number {
  return useApp((s) => s.session?.toolsByParent[taskId]?.length ?? 0);
}

/**
 * The calls a helper (the task tool) made, nested under its task card in
 * the order they started; each is a card of its own, collapsed.
 */
export default function HelperCalls({ taskId, card }: { taskId: string; card: (id: string) => ReactNode }) {
  const ids = useApp((s) => s.session?.toolsByParent[taskId] ?? none);
  if (ids.length === 0) return <p className="helper-calls empty muted">The helper has made no tool calls yet.</p>;
  return (
    <div className="helper-calls" data-testid="helper-calls" role="list" aria-label="The helper's tool calls">
      {ids.map((id) => (
        <div role="listitem" key={id}>
          {card(id)}
        </div>
      ))}
    </div>
  );
}

/** "3 calls" on a task card's head. */
export function callCountText(n: number): string {
  return `${n.toLocaleString("en-US")} call${n === 1 ? "" : "s"}`;
}
