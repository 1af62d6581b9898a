import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend, summary } from "../../test/fakeBackend";
import { changedFile } from "../../test/fakeGit";
import type { BranchView } from "../../lib/wire.gen";

const worktree = "/home/u/.pilot/worktrees/1/fix";

const view: BranchView = {
  sessionId: 1,
  version: "v1",
  branch: "pilot/fix",
  base: "9f3a2c1",
  worktree,
  files: [
    changedFile("main.go", [
      ["func a() int { return 1 }", "func a() int { return 2 }"],
      ["func b() {}", "func b() { c() }"],
    ]),
    changedFile("util.go", [["x := 1", "x := 2"]]),
  ],
};

/** A project whose session 1 works in its own worktree on pilot/fix. */
function worktreeBackend(v: BranchView = view): FakeBackend {
  const b = new FakeBackend();
  const s = summary(1, { branch: "pilot/fix", worktree });
  b.sessions = [s];
  b.details[1] = detail(1, { session: s });
  b.git.branches[1] = v;
  return b;
}

async function openBranch(b = worktreeBackend()) {
  renderApp(b);
  fireEvent.click(await screen.findByText("Session 1"));
  fireEvent.click(await screen.findByTestId("branch-open"));
  await waitFor(() => expect(screen.getByTestId("branch-view").getAttribute("data-status")).toBe("ready"));
  return b;
}

const hunksOf = (path: string) => within(screen.getAllByTestId("diff-view").find((d) => d.getAttribute("data-path") === path)!).getAllByTestId("diff-hunk");

describe("branch view", () => {
  it("is offered only for a session in its own worktree", async () => {
    const b = new FakeBackend();
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    await screen.findByTestId("changes-open");
    expect(screen.queryByTestId("branch-open")).toBeNull();
  });

  it("lists the branch's files and hunks with per-hunk decisions, side by side", async () => {
    const b = await openBranch();
    // Read ahead when the session was opened, and again when the view was.
    expect(b.callsOf("getBranch")).toEqual([[1], [1]]);
    const v = screen.getByTestId("branch-view");
    expect(v.getAttribute("data-branch")).toBe("pilot/fix");
    expect(v.textContent).toContain("9f3a2c1");
    expect(v.textContent).toContain(worktree);
    expect(screen.getAllByTestId("diff-view").map((d) => d.getAttribute("data-path"))).toEqual(["main.go", "util.go"]);
    expect(hunksOf("main.go")).toHaveLength(2);
    expect(v.querySelector("table")?.className).toContain("split");
    // The branch is not an edit of a proposal: no edit button.
    expect(screen.queryByTestId("diff-edit")).toBeNull();
    // Nothing approved: nothing to merge.
    expect((screen.getByTestId("branch-merge") as HTMLButtonElement).disabled).toBe(true);
  });

  it("merges exactly the one approved hunk of two, and says what it merged", async () => {
    const b = await openBranch();
    fireEvent.click(within(hunksOf("main.go")[0]!).getByTestId("hunk-approve"));
    fireEvent.click(within(hunksOf("main.go")[1]!).getByTestId("hunk-reject"));
    const merge = screen.getByTestId("branch-merge");
    expect(merge.textContent).toBe("Merge 1 approved hunk");
    fireEvent.click(merge);
    const out = await screen.findByTestId("branch-merge-result");
    expect(b.callsOf("mergeBranch")).toEqual([[1, { files: [{ path: "main.go", hunks: [true, false] }], force: false, version: "v1" }]]);
    expect(out.getAttribute("data-merged")).toBe("1");
    expect(out.textContent).toContain("Merged into your folder: main.go.");
    // A merged file is not sent twice.
    expect((screen.getByTestId("branch-merge") as HTMLButtonElement).disabled).toBe(true);
    expect(b.callsOf("sendMessage")).toHaveLength(0);
  });

  it("opens the Changes view of the session that holds the merge, to undo it", async () => {
    const b = worktreeBackend();
    b.details[7] = detail(7, { session: summary(7, { title: "Merge of pilot/fix" }) });
    await openBranch(b);
    fireEvent.click(within(hunksOf("util.go")[0]!).getByTestId("hunk-approve"));
    fireEvent.click(screen.getByTestId("branch-merge"));
    fireEvent.click(await screen.findByTestId("branch-merge-changes"));
    await waitFor(() => expect(b.callsOf("getSession").map((a) => a[0])).toContain(7));
    expect(await screen.findByTestId("changes-view")).toBeTruthy();
    await waitFor(() => expect(b.callsOf("getLedger").map((a) => a[0])).toContain(7));
    expect(screen.queryByTestId("branch-view")).toBeNull();
  });

  it("shows a file the user changed as refused with the backend's sentence, and forces only that file", async () => {
    const b = worktreeBackend();
    b.git.userChanged.add("util.go");
    await openBranch(b);
    fireEvent.click(screen.getByTestId("branch-approve-all"));
    fireEvent.click(screen.getByTestId("branch-merge"));
    const conflict = await screen.findByTestId("branch-conflict");
    expect(conflict.getAttribute("data-path")).toBe("util.go");
    expect(conflict.textContent).toContain("You changed util.go since the branch was made and have not committed it");
    expect(screen.getByTestId("branch-merge-result").textContent).toContain("not merged, and not touched");
    fireEvent.click(screen.getByTestId("branch-merge-force"));
    await waitFor(() => expect(b.callsOf("mergeBranch")).toHaveLength(2));
    expect(b.callsOf("mergeBranch")[1]).toEqual([1, { files: [{ path: "util.go", hunks: [true] }], force: true, version: "v1" }]);
    await waitFor(() => expect(screen.queryByTestId("branch-conflict")).toBeNull());
  });

  it("shows a binary file and a change of mode as whole-file hunks with their sentences, merged when approved", async () => {
    const whole = (index: number, note: string) => ({ index, oldStart: 0, oldLines: 0, newStart: 0, newLines: 0, lines: [], note });
    const b = await openBranch(
      worktreeBackend({
        ...view,
        files: [
          { path: "logo.png", isNew: true, emptied: false, hunks: [whole(1, "The branch adds the binary file logo.png (2048 bytes).")] },
          { path: "run.sh", isNew: false, emptied: false, hunks: [whole(2, "The branch makes run.sh executable.")] },
        ],
      }),
    );
    const [logo] = hunksOf("logo.png");
    expect(logo!.textContent).toContain("The branch adds the binary file logo.png (2048 bytes).");
    expect(logo!.textContent).toContain("whole file");
    expect(logo!.querySelector("table")).toBeNull();
    fireEvent.click(within(logo!).getByTestId("hunk-approve"));
    fireEvent.click(within(hunksOf("run.sh")[0]!).getByTestId("hunk-reject"));
    fireEvent.click(screen.getByTestId("branch-feedback"));
    fireEvent.click(screen.getByTestId("branch-merge"));
    await screen.findByTestId("branch-merge-result");
    expect(b.callsOf("mergeBranch")).toEqual([[1, { files: [{ path: "logo.png", hunks: [true] }], force: false, version: "v1" }]]);
    await waitFor(() => expect(b.callsOf("sendMessage")).toHaveLength(1));
    expect(b.callsOf("sendMessage")[0]![1]).toContain("- run.sh, hunk 2 (The branch makes run.sh executable.)");
  });

  it("sends the rejected hunks and the user's words to the session's model when asked", async () => {
    const b = await openBranch();
    fireEvent.click(within(hunksOf("main.go")[0]!).getByTestId("hunk-approve"));
    fireEvent.click(within(hunksOf("main.go")[1]!).getByTestId("hunk-reject"));
    fireEvent.click(screen.getByTestId("branch-feedback"));
    fireEvent.change(screen.getByTestId("branch-feedback-text"), { target: { value: "b must not call c." } });
    fireEvent.click(screen.getByTestId("branch-merge"));
    await waitFor(() => expect(b.callsOf("sendMessage")).toHaveLength(1));
    const [sid, text] = b.callsOf("sendMessage")[0]!;
    expect(sid).toBe(1);
    expect(text).toBe("I reviewed your branch pilot/fix and rejected this hunk:\n- main.go, hunk 2 (line 20)\n\nb must not call c.");
    expect((await screen.findByTestId("branch-notice")).textContent).toBe("The rejected hunk went to the model as your message.");
  });

  it("queues the feedback behind a running turn, and says so", async () => {
    const b = worktreeBackend();
    b.details[1] = detail(1, { session: b.sessions[0]!, state: "streaming" });
    await openBranch(b);
    fireEvent.click(within(hunksOf("util.go")[0]!).getByTestId("hunk-reject"));
    fireEvent.click(screen.getByTestId("branch-feedback"));
    fireEvent.click(screen.getByTestId("branch-feedback-send"));
    expect((await screen.findByTestId("branch-notice")).textContent).toBe("The rejected hunk will go to the model as your message when its running turn ends.");
    expect(b.callsOf("sendMessage")).toHaveLength(0);
  });

  it("commits on the branch with the drafted message as the user edited it", async () => {
    const b = await openBranch();
    fireEvent.click(screen.getByTestId("branch-commit"));
    const box = (await screen.findByTestId("commit-message")) as HTMLTextAreaElement;
    await waitFor(() => expect(box.value).toBe("Add the branch's work"));
    expect(screen.getByTestId("commit-dialog").textContent).toContain(worktree);
    expect(screen.getByTestId("commit-no-hooks").textContent).toContain("runs none of the repository's hooks");
    fireEvent.change(box, { target: { value: "Fix a and b\n\nReturn 2 from a." } });
    fireEvent.click(screen.getByTestId("commit-accept"));
    await waitFor(() => expect(screen.queryByTestId("commit-dialog")).toBeNull());
    expect(b.callsOf("commitSession")).toEqual([[1, "Fix a and b\n\nReturn 2 from a."]]);
    expect(screen.getByTestId("branch-notice").textContent).toBe("Committed 1a2b3c4 on pilot/fix: 2 files.");
  });

  it("keeps what the user typed when the draft arrives later", async () => {
    const b = worktreeBackend();
    let release = () => {};
    b.git.draftGate = new Promise((ok) => (release = ok));
    await openBranch(b);
    fireEvent.click(screen.getByTestId("branch-commit"));
    const box = (await screen.findByTestId("commit-message")) as HTMLTextAreaElement;
    expect(box.getAttribute("aria-busy")).toBe("true");
    fireEvent.change(box, { target: { value: "My own words" } });
    await act(async () => release());
    await waitFor(() => expect(box.getAttribute("aria-busy")).toBe("false"));
    expect(box.value).toBe("My own words");
  });

  it("says when no message could be drafted and lets the user write one", async () => {
    const b = worktreeBackend();
    b.git.draftError = "No model is set up: choose a provider in Settings.";
    await openBranch(b);
    fireEvent.click(screen.getByTestId("branch-commit"));
    expect((await screen.findByTestId("commit-draft-error")).textContent).toBe("No message was drafted: No model is set up: choose a provider in Settings. Write one below.");
    const accept = screen.getByTestId("commit-accept") as HTMLButtonElement;
    expect(accept.disabled).toBe(true);
    fireEvent.change(screen.getByTestId("commit-message"), { target: { value: "Fix a" } });
    expect(accept.disabled).toBe(false);
  });

  it("discards only after a confirmation that names the worktree and the branch", async () => {
    const b = await openBranch();
    fireEvent.click(screen.getByTestId("branch-discard"));
    const dialog = screen.getByTestId("confirm-dialog");
    expect(dialog.textContent).toContain(worktree);
    expect(dialog.textContent).toContain("pilot/fix");
    fireEvent.click(screen.getByTestId("confirm-cancel"));
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(b.callsOf("discardWorktree")).toHaveLength(0);

    fireEvent.click(screen.getByTestId("branch-discard"));
    fireEvent.click(screen.getByTestId("confirm-accept"));
    await waitFor(() => expect(screen.getByTestId("branch-view").getAttribute("data-status")).toBe("discarded"));
    expect(b.callsOf("discardWorktree")).toEqual([[1]]);
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(screen.queryByTestId("branch-merge")).toBeNull();
  });

  it("keeps the confirmation open with the reason when the discard fails", async () => {
    const b = await openBranch();
    b.git.discarded.add(1); // already gone: the fake refuses with a sentence
    fireEvent.click(screen.getByTestId("branch-discard"));
    fireEvent.click(screen.getByTestId("confirm-accept"));
    expect((await within(screen.getByTestId("confirm-dialog")).findByRole("alert")).textContent).toContain("Nothing was removed: Session 1 has no worktree");
  });
});

describe("branch view, moving around", () => {
  it("decides hunks from the keyboard: n rejects, y approves, each moves on", async () => {
    await openBranch();
    const v = screen.getByTestId("branch-view");
    v.focus();
    fireEvent.keyDown(v, { key: "n" });
    fireEvent.keyDown(v, { key: "y" });
    fireEvent.keyDown(v, { key: "y" });
    expect(hunksOf("main.go").map((h) => h.getAttribute("data-decision"))).toEqual(["rejected", "approved"]);
    expect(hunksOf("util.go")[0]!.getAttribute("data-decision")).toBe("approved");
    expect(screen.getByTestId("branch-merge").textContent).toBe("Merge 2 approved hunks");
  });

  it("shows the Review tab in place of Branch for a session without a worktree", async () => {
    const b = worktreeBackend();
    b.sessions.push(summary(2));
    b.details[2] = detail(2);
    await openBranch(b);
    fireEvent.click(screen.getByText("Session 2"));
    await waitFor(() => expect(screen.queryByTestId("branch-open")).toBeNull());
    expect(screen.queryByTestId("branch-view")).toBeNull();
    expect(screen.getByTestId("tab-review").getAttribute("aria-selected")).toBe("true");
  });

  it("says when the session changed files since the branch was read, and reads it again on request", async () => {
    const b = await openBranch();
    expect(screen.queryByTestId("branch-stale")).toBeNull();
    b.git.branches[1] = { ...view, files: [...view.files, changedFile("new.go", [["", "package x"]])] };
    act(() => b.emit("ledger:updated", { sessionId: 1 }));
    const stale = await screen.findByTestId("branch-stale");
    expect(screen.getAllByTestId("diff-view")).toHaveLength(2);
    fireEvent.click(within(stale).getByRole("button"));
    await waitFor(() => expect(screen.getAllByTestId("diff-view")).toHaveLength(3));
    expect(screen.queryByTestId("branch-stale")).toBeNull();
  });

  it("says why the branch cannot be shown", async () => {
    const b = worktreeBackend();
    delete b.git.branches[1];
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    fireEvent.click(await screen.findByTestId("branch-open"));
    await waitFor(() => expect(screen.getByTestId("branch-view").getAttribute("data-status")).toBe("failed"));
    expect(screen.getByTestId("branch-view").textContent).toContain("Could not show the branch: Session 1 has no worktree: it works in the project folder.");
    await waitFor(() => expect(b.callsOf("reportError").some((a) => String(a[2]).startsWith("Could not show the branch"))).toBe(true));
  });
});

describe("commit of a folder session", () => {
  it("commits the files the session changed from its Changes view", async () => {
    const b = new FakeBackend();
    b.files = { "main.go": "b\n" };
    b.ledger.record(1, { kind: "edit", messageId: 2, toolCallId: "t1", label: "→ Editing main.go", files: { "main.go": { before: "a\n", after: "b\n" } } });
    b.git.sessionFiles[1] = ["main.go"];
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    await waitFor(() => expect(b.callsOf("getLedger")).toHaveLength(1));
    fireEvent.click(screen.getByTestId("changes-open"));
    fireEvent.click(await screen.findByTestId("changes-commit"));
    const dialog = screen.getByTestId("commit-dialog");
    expect(dialog.textContent).toContain("Stages only the file this session changed");
    expect(dialog.textContent).toContain("main.go");
    await waitFor(() => expect((screen.getByTestId("commit-message") as HTMLTextAreaElement).value).toBe("Add the branch's work"));
    fireEvent.click(screen.getByTestId("commit-accept"));
    expect((await screen.findByTestId("changes-committed")).textContent).toBe("Committed 1a2b3c4: 1 file (main.go).");
    expect(b.callsOf("commitSession")).toEqual([[1, "Add the branch's work"]]);
  });
});

describe("branch view of a big branch", () => {
  const bigFile = (i: number) =>
    changedFile(`src/pkg${Math.floor(i / 10)}/file${i}.go`, [
      [`const a${i} = 1`, `const a${i} = 2`],
      [`func f${i}() {}`, `func f${i}() { g() }`],
      [`// old ${i}`, `// new ${i}`],
    ]);

  /** Opens the Branch view of a branch of n files: ms from the click to the first hunks in the page, and the files rendered. */
  async function paint(n: number): Promise<{ ms: number; shown: number }> {
    const b = worktreeBackend({ ...view, files: Array.from({ length: n }, (_, i) => bigFile(i)) });
    const r = renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const open = await screen.findByTestId("branch-open");
    const t0 = performance.now();
    await act(async () => {
      fireEvent.click(open);
    });
    await waitFor(() => {
      expect(screen.getByTestId("branch-view").getAttribute("data-status")).toBe("ready");
      expect(screen.getAllByTestId("diff-hunk").length).toBeGreaterThan(0);
    });
    const ms = performance.now() - t0;
    expect(screen.getByTestId("branch-view").textContent).toContain(`${n} files changed`);
    const shown = screen.getAllByTestId("diff-view").length;
    r.unmount();
    return { ms, shown };
  }

  it("paints 200 files about as fast as 12, rendering only the files near the view (times reported, not asserted)", async () => {
    await paint(12); // warms the code up
    await paint(200);
    const small: number[] = [];
    const big: { ms: number; shown: number }[] = [];
    for (let i = 0; i < 3; i++) {
      small.push((await paint(12)).ms);
      big.push(await paint(200));
    }
    const best = (xs: number[]) => Math.min(...xs).toFixed(0);
    console.log(`branch view painted (best of 3, ms): 12 files ${best(small)}; 200 files (600 hunks) ${best(big.map((x) => x.ms))}, ${big[0]!.shown} files rendered; all: 12 files ${small.map((x) => x.toFixed(0)).join(", ")}; 200 files ${big.map((x) => x.ms.toFixed(0)).join(", ")}`);
    const shown = big[0]!.shown;
    // Only the files near the view are in the page; the rest are spacers
    // (jsdom measures nothing: the first view assumed, and its overscan).
    expect(shown).toBeLessThan(200);
    expect(shown).toBeLessThanOrEqual(15);
  }, 120_000);
});
