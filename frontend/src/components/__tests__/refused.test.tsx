import { describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import type { ToolCall } from "../../lib/wire.gen";

const call = (id: string, over: Partial<ToolCall>): ToolCall => ({
  id,
  messageId: 2,
  name: "run_bash",
  label: `→ Running: ${id}`,
  input: {},
  status: "rejected",
  output: "Not run.",
  isError: true,
  startedAt: 1,
  ...over,
});

const calls = [
  call("plan", { name: "write_file", label: "→ Writing file: a.txt", refusedBy: "plan", output: "Not run: plan mode only reads and plans; nothing was changed or run." }),
  call("rule", { refusedBy: "rule", refusedRule: 'run_bash "rm *"', output: 'Not done: denied by the rule deny run_bash "rm *".' }),
  call("none", { refusedBy: "mode", output: "Not done: approval mode none: changes and commands are refused." }),
  call("user", { refusedBy: "user", output: "The user rejected this command." }),
  call("old", { output: "The user rejected this command." }),
];

// Old code: every one of these cards read "⊘ rejected", the user's own
// rejection and a refusal by plan mode alike; only expanding told them apart.
describe("a refused call's card", () => {
  it("says who refused it without expanding, and keeps data-status rejected", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      messages: [{ id: 2, role: "assistant", state: "complete", createdAt: 2, blocks: calls.map((c) => ({ type: "tool_use" as const, id: c.id, name: c.name, input: {} })) }],
      toolCalls: calls,
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const cards = await screen.findAllByTestId("tool-call");
    expect(cards.map((c) => [c.getAttribute("data-status"), c.getAttribute("data-refused-by")])).toEqual([
      ["rejected", "plan"],
      ["rejected", "rule"],
      ["rejected", "mode"],
      ["rejected", "user"],
      ["rejected", null],
    ]);
    const head = (c: HTMLElement) => within(c).getAllByRole("button")[0]!;
    expect(cards.map((c) => head(c).getAttribute("aria-expanded"))).toEqual(["false", "false", "false", "false", "false"]);
    expect(cards.map((c) => head(c).textContent)).toEqual([
      "⊘→ Writing file: a.txtnot run: plan mode▸",
      '⊘→ Running: ruledenied by rule run_bash "rm *"▸',
      "⊘→ Running: nonenot run: approval mode none▸",
      "⊘→ Running: userrejected by you▸",
      "⊘→ Running: oldrejected▸",
    ]);
    const texts = cards.map((c) => within(c).queryByTestId("tool-refusal")?.textContent ?? null);
    expect(new Set(texts.slice(0, 4)).size).toBe(4);
  });
});
