// Issue 40: comments on lines of a pending change, sent as one review that
// also decides the change: the decision carries the comments (a rejected
// hunk's is the model's reason), the review goes once the turn has ended,
// and the comments stay shown as sent.
import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend, summary } from "../../test/fakeBackend";
import type { Approval, ChangeDecision, ChangeView, ToolCall } from "../../lib/wire.gen";

const approval: Approval = { id: "ap1", kind: "change", toolCallId: "t1", tool: "patch_file", paths: ["main.go"] };

const hunk = (index: number, no: number, before: string, after: string) => ({
  index,
  oldStart: no,
  oldLines: 1,
  newStart: no,
  newLines: 1,
  lines: [
    { kind: "del" as const, text: before, oldNo: no },
    { kind: "add" as const, text: after, newNo: no },
  ],
});

const change: ChangeView = {
  approvalId: "ap1",
  tool: "patch_file",
  files: [{ path: "main.go", isNew: false, emptied: false, hunks: [hunk(0, 3, "a := 1", "a := 2"), hunk(1, 9, "b()", "c()")] }],
};

async function setup() {
  const b = new FakeBackend();
  b.details[1] = detail(1, { pending: [approval], state: "awaiting_approval" });
  b.changes.ap1 = change;
  renderApp(b);
  fireEvent.click(await screen.findByText("Session 1"));
  await screen.findByTestId("diff-view");
  return b;
}

/** Adds a comment on a line of hunk i and types text into it. */
async function comment(i: number, line: number, text: string) {
  const h = screen.getAllByTestId("diff-hunk")[i]!;
  fireEvent.click(within(h).getByRole("button", { name: `Comment on line ${line}` }));
  const box = await waitFor(() => {
    const c = screen.getAllByTestId("line-comment").find((x) => x.dataset.line === String(line));
    if (!c) throw new Error(`no comment on line ${line} yet`);
    return within(c).getByTestId("line-comment-text");
  });
  fireEvent.change(box, { target: { value: text } });
}

describe("line comments on a pending change", () => {
  it("sends the comments with the hunks' verdicts, then as one review when the turn ends", async () => {
    const b = await setup();
    await comment(0, 3, "fine, but name it total");
    await comment(1, 9, "c() does not exist yet");
    const comments = screen.getAllByTestId("line-comment");
    expect(comments.map((c) => [c.dataset.path, c.dataset.line])).toEqual([
      ["main.go", "3"],
      ["main.go", "9"],
    ]);
    // The comment sits right under its line.
    expect(comments[1]!.closest("tr")!.previousElementSibling!.textContent).toContain("c()");

    fireEvent.click(within(screen.getAllByTestId("diff-hunk")[0]!).getByTestId("hunk-approve"));
    fireEvent.click(within(screen.getAllByTestId("diff-hunk")[1]!).getByTestId("hunk-reject"));
    // Every hunk is decided, but the comments wait for the review: nothing is sent yet.
    expect(b.calls.filter((c) => c.method === "decideChange")).toHaveLength(0);

    fireEvent.click(screen.getByTestId("review-submit"));
    await waitFor(() => expect(b.calls.filter((c) => c.method === "decideChange")).toHaveLength(1));
    const d = b.calls.find((c) => c.method === "decideChange")!.args[1] as ChangeDecision;
    expect(d.files[0]!.hunks).toEqual([true, false]);
    expect(d.comments?.map((c) => [c.path, c.line, c.lineText, c.text])).toEqual([
      ["main.go", 3, "a := 2", "fine, but name it total"],
      ["main.go", 9, "c()", "c() does not exist yet"],
    ]);
    // The turn goes on with the decision; the review goes when it ends.
    expect(b.calls.some((c) => c.method === "sendReview")).toBe(false);
    act(() => b.emit("agent:turn_done", { sessionId: 1, seq: 1, reason: "end_turn" }));
    await waitFor(() => expect(b.calls.filter((c) => c.method === "sendReview")).toHaveLength(1));
    await waitFor(() => expect(b.stored.map((c) => c.state)).toEqual(["sent", "sent"]));
  });

  it("stretches the comment being written to a line clicked with Shift, and deletes a draft", async () => {
    const b = await setup();
    await comment(0, 3, "from here");
    const h = screen.getAllByTestId("diff-hunk")[1]!;
    fireEvent.click(within(h).getByRole("button", { name: "Comment on line 9" }), { shiftKey: true });
    await waitFor(() => expect(screen.getByText("Lines 3–9")).toBeTruthy());
    fireEvent.click(screen.getByRole("button", { name: "Delete the comment on lines 3–9" }));
    await waitFor(() => expect(screen.queryByTestId("line-comment")).toBeNull());
    expect(b.stored).toEqual([]);
  });
});

describe("line comments on a plan", () => {
  it("comments on a line of the plan and sends the review at once (no turn runs)", async () => {
    const b = new FakeBackend();
    const input = { plan: "## Goal\nRename the package.", steps: ["Patch main.go"] };
    const call: ToolCall = { id: "p1", messageId: 2, name: "present_plan", label: "→ Presenting the plan", input, status: "done", output: "shown", isError: false, startedAt: 2 };
    b.sessions = [summary(1, { approvalMode: "plan" })];
    b.details[1] = detail(1, {
      session: b.sessions[0]!,
      messages: [{ id: 2, role: "assistant", blocks: [{ type: "tool_use", id: "p1", name: "present_plan", input }], state: "complete", createdAt: 2 }],
      toolCalls: [call],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    fireEvent.click(await screen.findByRole("button", { name: "Comment on lines" }));
    fireEvent.click(await screen.findByRole("button", { name: "Comment on line 2" }));
    const box = await screen.findByTestId("line-comment-text");
    fireEvent.change(box, { target: { value: "rename it to core" } });
    fireEvent.click(await screen.findByTestId("review-submit"));
    await waitFor(() => expect(b.calls.filter((c) => c.method === "sendReview")).toHaveLength(1));
    expect(b.stored.map((c) => [c.path, c.line, c.lineText, c.origin, c.originRef, c.state])).toEqual([["plan", 2, "Rename the package.", "plan", "p1", "sent"]]);
  });
});
