// The Branch view paints the branch the window read ahead (a turn's end,
// the session opened) without waiting for GetBranch, reads it again, and
// shows a branch changed since instead, its review started over.
import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend, summary } from "../../test/fakeBackend";
import { changedFile } from "../../test/fakeGit";
import type { BranchView } from "../../lib/wire.gen";
import { AppController } from "../../state/controller";
import { replacedNotice } from "../branch/BranchReview";

const worktree = "/home/u/.pilot/worktrees/1/fix";

const v1: BranchView = {
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
  ],
};
/** The same branch after another turn: another file changed too. */
const v2: BranchView = { ...v1, version: "v2", files: [...v1.files, changedFile("util.go", [["x := 1", "x := 2"]])] };

/** Session 1 works in a worktree on pilot/fix; session 2 in the project folder. */
function backend(): FakeBackend {
  const b = new FakeBackend();
  const s1 = summary(1, { branch: "pilot/fix", worktree });
  const s2 = summary(2);
  b.sessions = [s1, s2];
  b.details[1] = detail(1, { session: s1 });
  b.details[2] = detail(2, { session: s2 });
  b.git.branches[1] = v1;
  return b;
}

/** A promise and the function that resolves it. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = () => {};
  const wait = new Promise<void>((ok) => (open = ok));
  return { wait, open };
}

const branchOpen = () => screen.getByTestId("branch-open");
const branchView = () => screen.getByTestId("branch-view");
const paths = () => screen.getAllByTestId("diff-view").map((d) => d.getAttribute("data-path"));

/** Opens session 1 and waits until the branch read on opening is held. */
async function openedWithBranchHeld(b: FakeBackend) {
  renderApp(b);
  fireEvent.click(await screen.findByText("Session 1"));
  await waitFor(() => expect(branchOpen().getAttribute("data-cache")).toBe("held"));
}

describe("the Branch view from the branch read ahead", () => {
  it("paints at once without waiting for GetBranch, which here never answers", async () => {
    const b = backend();
    await openedWithBranchHeld(b);
    expect(b.callsOf("getBranch")).toEqual([[1]]);
    b.git.branchGate = new Promise(() => {});
    act(() => fireEvent.click(branchOpen()));
    // In the same render as the click: nothing was awaited.
    expect(branchView().getAttribute("data-status")).toBe("ready");
    expect(branchView().getAttribute("data-fresh")).toBe("false");
    expect(paths()).toEqual(["main.go"]);
    expect(screen.getAllByTestId("diff-hunk")).toHaveLength(2);
    // It reads the branch again all the same.
    expect(b.callsOf("getBranch")).toEqual([[1], [1]]);
    expect(branchOpen().getAttribute("data-cache")).toBe("reading");
  });

  it("replaces a branch changed since it was shown, starts its review over and says so; the merge names the new version", async () => {
    const b = backend();
    await openedWithBranchHeld(b);
    const g = gate();
    b.git.branchGate = g.wait;
    act(() => fireEvent.click(branchOpen()));
    fireEvent.click(within(screen.getAllByTestId("diff-hunk")[0]!).getByTestId("hunk-approve"));
    expect(screen.getByTestId("branch-merge").textContent).toBe("Merge 1 approved hunk");
    b.git.branches[1] = v2;
    await act(async () => g.open());
    await waitFor(() => expect(branchView().getAttribute("data-fresh")).toBe("true"));
    expect(paths()).toEqual(["main.go", "util.go"]);
    expect(screen.getByTestId("branch-replaced").textContent).toBe(replacedNotice);
    expect(screen.getByTestId("branch-merge").textContent).toBe("Merge 0 approved hunks");
    expect(branchView().querySelector(".review-progress")?.textContent).toBe("0 approved, 0 rejected of 3 hunks; only approved hunks are merged.");
    fireEvent.click(within(screen.getAllByTestId("diff-hunk")[2]!).getByTestId("hunk-approve"));
    fireEvent.click(screen.getByTestId("branch-merge"));
    await screen.findByTestId("branch-merge-result");
    expect(b.callsOf("mergeBranch")).toEqual([[1, { files: [{ path: "util.go", hunks: [true] }], force: false, version: "v2" }]]);
  });

  it("keeps the view and the decisions made on it when the branch read again is the same", async () => {
    const b = backend();
    await openedWithBranchHeld(b);
    const g = gate();
    b.git.branchGate = g.wait;
    act(() => fireEvent.click(branchOpen()));
    fireEvent.click(within(screen.getAllByTestId("diff-hunk")[1]!).getByTestId("hunk-approve"));
    await act(async () => g.open());
    await waitFor(() => expect(branchView().getAttribute("data-fresh")).toBe("true"));
    expect(screen.queryByTestId("branch-replaced")).toBeNull();
    expect(screen.getByTestId("branch-merge").textContent).toBe("Merge 1 approved hunk");
  });

  it("reads a worktree session's branch when its turn ends, so the next opening shows the new one", async () => {
    const b = backend();
    await openedWithBranchHeld(b);
    b.git.branches[1] = v2;
    act(() => b.emit("agent:turn_done", { sessionId: 1, seq: 1, reason: "end_turn" }));
    await waitFor(() => expect(b.callsOf("getBranch")).toHaveLength(2));
    await waitFor(() => expect(branchOpen().getAttribute("data-cache")).toBe("held"));
    b.git.branchGate = new Promise(() => {});
    act(() => fireEvent.click(branchOpen()));
    expect(branchView().getAttribute("data-status")).toBe("ready");
    expect(paths()).toEqual(["main.go", "util.go"]);
    // A session in the project folder has no branch to read.
    act(() => b.emit("agent:turn_done", { sessionId: 2, seq: 1, reason: "end_turn" }));
    expect(b.callsOf("getBranch").filter(([id]) => id === 2)).toEqual([]);
  });

  it("reads the branch when a turn another Pilot process ran ends", async () => {
    const b = backend();
    await openedWithBranchHeld(b);
    const s1 = summary(1, { branch: "pilot/fix", worktree });
    act(() => b.emit("session:updated", { session: { ...s1, elsewhere: { pid: 4242, state: "streaming" } } }));
    expect(b.callsOf("getBranch")).toHaveLength(1);
    b.git.branches[1] = v2;
    act(() => b.emit("session:updated", { session: s1 }));
    await waitFor(() => expect(b.callsOf("getBranch")).toHaveLength(2));
    await waitFor(() => expect(branchOpen().getAttribute("data-cache")).toBe("held"));
    b.git.branchGate = new Promise(() => {});
    act(() => fireEvent.click(branchOpen()));
    expect(paths()).toEqual(["main.go", "util.go"]);
  });

  it("says the branch changed when a turn's end finds it so while the view is open", async () => {
    const b = backend();
    await openedWithBranchHeld(b);
    fireEvent.click(branchOpen());
    await waitFor(() => expect(branchView().getAttribute("data-fresh")).toBe("true"));
    expect(screen.queryByTestId("branch-stale")).toBeNull();
    b.git.branches[1] = v2;
    act(() => b.emit("agent:turn_done", { sessionId: 1, seq: 1, reason: "end_turn" }));
    const stale = await screen.findByTestId("branch-stale");
    expect(stale.textContent).toContain("The branch changed since this view was read.");
    // The view stays as read until the user asks: their decisions are theirs.
    expect(paths()).toEqual(["main.go"]);
    fireEvent.click(within(stale).getByRole("button"));
    await waitFor(() => expect(paths()).toEqual(["main.go", "util.go"]));
    expect(screen.queryByTestId("branch-stale")).toBeNull();
  });
});

describe("what the window keeps of branches read ahead", () => {
  /** A controller on the backend with session 1 opened (its branch read ahead). */
  async function held() {
    const b = backend();
    const c = new AppController(b);
    const stop = c.start();
    await waitFor(() => expect(c.state.sessions.length).toBe(2));
    await c.openSession(1);
    await waitFor(() => expect(c.branches.state(1)).toBe("held"));
    return { b, c, stop };
  }

  it("holds one view per worktree session, the latest", async () => {
    const { b, c, stop } = await held();
    await c.openSession(2);
    expect(c.branches.state(2)).toBe("none");
    b.git.branches[1] = v2;
    b.emit("agent:turn_done", { sessionId: 1, seq: 1, reason: "end_turn" });
    await waitFor(() => expect(c.branches.view(1)?.version).toBe("v2"));
    stop();
  });

  it("drops a session's view when its worktree is discarded, elsewhere too", async () => {
    const { b, c, stop } = await held();
    b.emit("session:updated", { session: summary(1, { branch: "pilot/fix", worktree, worktreeDiscarded: true }) });
    expect(c.branches.state(1)).toBe("none");
    stop();
  });

  it("drops a session's view when the session is deleted", async () => {
    const { c, stop } = await held();
    await c.sessions.remove(1);
    expect(c.branches.state(1)).toBe("none");
    stop();
  });

  it("drops every view when another project is opened", async () => {
    const { c, stop } = await held();
    await c.openProject("/home/u/other");
    expect(c.branches.state(1)).toBe("none");
    stop();
  });

  it("drops a view whose branch can no longer be read, so none is painted from it", async () => {
    const { b, c, stop } = await held();
    b.git.discarded.add(1);
    b.emit("agent:turn_done", { sessionId: 1, seq: 1, reason: "end_turn" });
    await waitFor(() => expect(c.branches.state(1)).toBe("none"));
    expect(c.branches.view(1)).toBeNull();
    stop();
  });
});
