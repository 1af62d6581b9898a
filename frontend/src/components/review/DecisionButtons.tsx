import type { ReactNode } from "react";
import type { Sent } from "./useCommandDecision";

/** One of the two answers of an approval card: its test id and its label. */
export interface Answer {
  testId: string;
  label: ReactNode;
  /** Said once this answer is sent. */
  sent: string;
}

/**
 * The answers of an approval card that asks yes or no (a command, an MCP
 * call, a web page, a host, the budget): the yes (primary) and the no
 * (danger) button, both off once one is sent, then what was sent.
 */
export default function DecisionButtons({ yes, no, sent, decide }: { yes: Answer; no: Answer; sent: Sent; decide: (yes: boolean) => Promise<void> }) {
  return (
    <div className="review-actions">
      <button type="button" className="primary" data-testid={yes.testId} disabled={sent !== "no"} onClick={() => void decide(true)}>
        {yes.label}
      </button>
      <button type="button" className="danger-outline" data-testid={no.testId} disabled={sent !== "no"} onClick={() => void decide(false)}>
        {no.label}
      </button>
      {sent !== "no" && <span className="muted" role="status">{sent === "approve" ? yes.sent : no.sent}</span>}
    </div>
  );
}

/** The reason the user may give with a no, sent to the model. */
export function ReasonField({ testId, no, value, onChange, disabled }: { testId: string; no: string; value: string; onChange: (v: string) => void; disabled: boolean }) {
  return (
    <label className="feedback">
      <span>Reason, if you {no} (sent to the model)</span>
      <input type="text" data-testid={testId} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled} />
    </label>
  );
}
