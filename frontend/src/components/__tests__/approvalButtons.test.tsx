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

// Every yes-or-no approval card answers with the same row (DecisionButtons):
// its labels, what it says once an answer is sent, and the reason field.
const cards: { name: string; Card: Card; approval: Approval; ids: [string, string]; labels: [string, string]; sent: [string, string]; reason?: [string, string] }[] = [
  {
    name: "a command",
    Card: BashApproval,
    approval: { id: "a1", kind: "command", toolCallId: "t1", tool: "run_bash", command: "make" },
    ids: ["bash-approve", "bash-reject"],
    labels: ["▶ Run", "✕ Reject"],
    sent: ["Approved — running…", "Rejected."],
    reason: ["bash-feedback", "Reason, if you reject (sent to the model)"],
  },
  {
    name: "an MCP call",
    Card: BashApproval,
    approval: { id: "a2", kind: "mcp", toolCallId: "t2", tool: "mcp__s__t", command: "MCP s: t {}", server: "s", mcpTool: "t", arguments: "{}" },
    ids: ["bash-approve", "bash-reject"],
    labels: ["▶ Call", "✕ Reject"],
    sent: ["Approved — calling…", "Rejected."],
    reason: ["bash-feedback", "Reason, if you reject (sent to the model)"],
  },
  {
    name: "a web page",
    Card: FetchApproval,
    approval: { id: "a3", kind: "fetch", toolCallId: "t3", tool: "web_fetch", command: "Fetch https://go.dev/", host: "go.dev" },
    ids: ["fetch-approve", "fetch-reject"],
    labels: ["▶ Allow go.dev", "✕ Refuse"],
    sent: ["Allowed — fetching…", "Refused."],
    reason: ["fetch-feedback", "Reason, if you refuse (sent to the model)"],
  },
  {
    name: "a host",
    Card: NetworkApproval,
    approval: { id: "a4", kind: "network", toolCallId: "t4", tool: "run_bash", command: "curl example.com", host: "example.com", port: 443 },
    ids: ["network-approve", "network-reject"],
    labels: ["▶ Allow once", "✕ Deny"],
    sent: ["Allowed — connecting…", "Denied."],
    reason: ["network-feedback", "Reason, if you refuse (sent to the model)"],
  },
  {
    name: "the budget",
    Card: BudgetApproval,
    approval: { id: "a5", kind: "budget", toolCallId: "", tool: "", command: "Continue past the session budget?" },
    ids: ["budget-continue", "budget-stop"],
    labels: ["Continue", "Stop here"],
    sent: ["Continuing…", "Stopped."],
  },
];

describe("the answers of an approval card", () => {
  for (const { name, Card, approval, ids, labels, sent, reason } of cards) {
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
        if (reason) expect(decision.feedback).toBe("not now");
      });
    }
  }
});
