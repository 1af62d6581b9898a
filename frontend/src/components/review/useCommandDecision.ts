import { useRef, useState } from "react";
import { useReclaimFocus } from "../../lib/focus";
import type { Approval } from "../../lib/wire.gen";
import { useApp, useController } from "../../state/context";
import { panelShown } from "../../state/layout";

export type Sent = "no" | "approve" | "reject";

/**
 * The state of a command-like approval card (a command, an MCP call, a web
 * page): "always allow", the feedback, what was sent, and the card that
 * takes the focus back when the review is shown.
 */
export function useCommandDecision(approval: Approval) {
  const c = useController();
  const [always, setAlways] = useState(false);
  const [feedback, setFeedback] = useState("");
  const [sent, setSent] = useState<Sent>("no");
  const card = useRef<HTMLDivElement>(null);
  useReclaimFocus(card, useApp((s) => panelShown(s, "review")));
  const decide = async (approve: boolean) => {
    setSent(approve ? "approve" : "reject");
    await c.approvals.decideCommand(approval.id, approve, feedback, always);
  };
  return { always, setAlways, feedback, setFeedback, sent, card, decide };
}
