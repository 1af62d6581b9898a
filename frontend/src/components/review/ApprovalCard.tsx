import type { Approval } from "../../lib/wire.gen";
import { later } from "../../lib/later";
import type { DiffLayout } from "./DiffHunk";

// Loaded with the first approval that needs them: diffs bring highlight.js.
const BashApproval = later(() => import("./BashApproval"));
const ChangeReview = later(() => import("./ChangeReview"));
const BudgetApproval = later(() => import("./BudgetApproval"));
const FetchApproval = later(() => import("./FetchApproval"));
const NetworkApproval = later(() => import("./NetworkApproval"));

/**
 * One waiting decision as its kind shows it: a change's hunks, a command,
 * an MCP call, a web page, a host, the budget (the session's review panel
 * and the inbox show the same card). Inside a Suspense.
 */
export default function ApprovalCard({ approval: a, layout }: { approval: Approval; layout: DiffLayout }) {
  switch (a.kind) {
    case "change":
      return <ChangeReview approval={a} layout={layout} />;
    case "budget":
      return <BudgetApproval approval={a} />;
    case "fetch":
      return <FetchApproval approval={a} />;
    case "network":
      return <NetworkApproval approval={a} />;
    case "elicitation": // shown on its call's card
      return <p className="muted">An MCP server asks you to fill a form: it is on the card of its call in the chat.</p>;
    default: // command, mcp, a command outside the sandbox
      return <BashApproval approval={a} />;
  }
}
