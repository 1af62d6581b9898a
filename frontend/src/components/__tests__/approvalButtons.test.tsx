import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import type { ComponentType } from "react";
import { renderWith } from "../../test/render";
import type { Approval } from "../../lib/wire.gen";
import BashApproval from "../review/BashApproval";
import BudgetApproval from "../review/BudgetApproval";
import FetchApproval from "../review/FetchApproval";
import NetworkApproval from "../review/NetworkApproval";

type Card = ComponentType<{ approval: Approval }>;
/** A button: its test id, its label, what the card says once it is pressed. */
type Answer = [testId: string, label: string, sent: string];
/** The reason field: its test id, its label. */
type Reason = [testId: string, label: string];

const command: Approval = { id: "a1", kind: "command", toolCallId: "t1", tool: "run_bash", command: "make" };
const mcp: Approval = { id: "a2", kind: "mcp", toolCallId: "t2", tool: "mcp__s__t", command: "MCP s: t {}", server: "s", mcpTool: "t", arguments: "{}" };
const page: Approval = { id: "a3", kind: "fetch", toolCallId: "t3", tool: "web_fetch", command: "Fetch https://go.dev/", host: "go.dev" };
const host: Approval = { id: "a4", kind: "network", toolCallId: "t4", tool: "run_bash", command: "curl example.com", host: "example.com", port: 443 };
const budget: Approval = { id: "a5", kind: "budget", toolCallId: "", tool: "", command: "Continue past the session budget?" };
const rejectReason: Reason = ["bash-feedback", "Reason, if you reject (sent to the model)"];

// Every yes-or-no approval card answers with the same row (DecisionButtons):
// its labels, what it says once an answer is sent, and the reason field.
const cards: [name: string, Card: Card, approval: Approval, yes: Answer, no: Answer, reason?: Reason][] = [
  ["a command", BashApproval, command, ["bash-approve", "▶ Run", "Approved — running…"], ["bash-reject", "✕ Reject", "Rejected."], rejectReason],
  ["an MCP call", BashApproval, mcp, ["bash-approve", "▶ Call", "Approved — calling…"], ["bash-reject", "✕ Reject", "Rejected."], rejectReason],
  ["a web page", FetchApproval, page, ["fetch-approve", "▶ Allow go.dev", "Allowed — fetching…"], ["fetch-reject", "✕ Refuse", "Refused."], ["fetch-feedback", "Reason, if you refuse (sent to the model)"]],
  ["a host", NetworkApproval, host, ["network-approve", "▶ Allow once", "Allowed — connecting…"], ["network-reject", "✕ Deny", "Denied."], ["network-feedback", "Reason, if you refuse (sent to the model)"]],
  ["the budget", BudgetApproval, budget, ["budget-continue", "Continue", "Continuing…"], ["budget-stop", "Stop here", "Stopped."]],
];

describe("the answers of an approval card", () => {
  for (const [name, Card, approval, yesAnswer, noAnswer, reason] of cards) {
    const ids = [yesAnswer[0], noAnswer[0]];
    const labels = [yesAnswer[1], noAnswer[1]];
    const sent = [yesAnswer[2], noAnswer[2]];
    for (const yes of [true, false]) {
      it(`${yes ? "approves" : "refuses"} ${name}: both buttons off once sent, and says what was sent`, async () => {
        const { backend } = renderWith(<Card approval={approval} />);
        const buttons = ids.map((id) => screen.getByTestId(id));
        expect(buttons.map((b) => b.textContent)).toEqual(labels);
        expect(buttons.map((b) => b.className)).toEqual(["primary", "danger-outline"]);
        expect(buttons.some((b) => (b as HTMLButtonElement).disabled)).toBe(false);
        expect(screen.queryByRole("status")).toBeNull();
        if (reason) {
          const field = screen.getByTestId(reason[0]) as HTMLInputElement;
          expect(field.closest("label")?.textContent).toBe(reason[1]);
          fireEvent.change(field, { target: { value: "not now" } });
        }
        fireEvent.click(buttons[yes ? 0 : 1]!);
        expect(screen.getByRole("status").textContent).toBe(sent[yes ? 0 : 1]);
        expect(buttons.every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
        if (reason) expect((screen.getByTestId(reason[0]) as HTMLInputElement).disabled).toBe(true);
        await waitFor(() => expect(backend.callsOf("decideCommand")).toHaveLength(1));
        const [id, decision] = backend.callsOf("decideCommand")[0] as [string, { approve: boolean; feedback: string }];
        expect(id).toBe(approval.id);
        expect(decision.approve).toBe(yes);
        if (reason) expect(decision.feedback).toBe(yes ? "" : "not now"); // the reason goes with a no only
      });
    }
  }
});
