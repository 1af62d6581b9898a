import { describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import type { ChangeSummary, ToolCall } from "../../lib/wire.gen";
import { decidedLabel } from "../chat/ToolCallCard";

const summary = (applied: number, total: number, edited = false): ChangeSummary => ({ applied, total, edited, files: [], undone: false });

const call = (id: string, change: ChangeSummary): ToolCall => ({
  id,
  messageId: 2,
  name: "write_file",
  label: "→ Writing file: long.txt (327 bytes)",
  input: {},
  status: change.applied === 0 ? "rejected" : "done",
  output: "",
  isError: false,
  startedAt: 1,
  change,
});

// Old code: the card of a change of which 1 hunk of 2 was written still
// read "(327 bytes)", the size of the proposal, as if it had been written.
describe("a decided file change's card label", () => {
  it("marks the size as the proposal's when not all of it was written as proposed", async () => {
    const calls = [call("all", summary(2, 2)), call("part", summary(1, 2)), call("edited", summary(1, 1, true)), call("none", summary(0, 2))];
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      messages: [{ id: 2, role: "assistant", state: "complete", createdAt: 2, blocks: calls.map((c) => ({ type: "tool_use" as const, id: c.id, name: c.name, input: {} })) }],
      toolCalls: calls,
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const cards = await screen.findAllByTestId("tool-call");
    expect(cards.map((c) => within(c).getByText(/Writing file/).textContent)).toEqual([
      "→ Writing file: long.txt (327 bytes)",
      "→ Writing file: long.txt (proposed: 327 bytes)",
      "→ Writing file: long.txt (proposed: 327 bytes)",
      "→ Writing file: long.txt (327 bytes)",
    ]);
    expect(cards.map((c) => within(c).getByTestId("change-summary").textContent)).toEqual(["applied", "applied 1 of 2 hunks", "edited by you", "rejected"]);
  });

  it("leaves a label without a size alone", () => {
    expect(decidedLabel("→ Editing main.go", summary(1, 2))).toBe("→ Editing main.go");
    expect(decidedLabel("→ Patching file: a.txt: beta → BETA (same size)", summary(1, 2))).toBe("→ Patching file: a.txt: beta → BETA (proposed: same size)");
  });
});
