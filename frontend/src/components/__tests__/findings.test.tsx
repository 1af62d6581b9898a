// Issue 40: /review in the window: its findings are comments under their
// lines of the Branch view, with "Ask the agent to fix" and "Dismiss".
import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend, summary } from "../../test/fakeBackend";
import { changedFile } from "../../test/fakeGit";

const worktree = "/home/u/.pilot/worktrees/1/fix";

function worktreeBackend(): FakeBackend {
  const b = new FakeBackend();
  const s = summary(1, { branch: "pilot/fix", worktree });
  b.sessions = [s];
  b.details[1] = detail(1, { session: s });
  b.git.branches[1] = {
    sessionId: 1,
    version: "v1",
    branch: "pilot/fix",
    base: "9f3a2c1",
    worktree,
    files: [changedFile("calc.go", [["for i := 0; i < n; i++ {", "for i := 0; i < n-1; i++ {"]]), changedFile("util.go", [["x := 1", "x := 2"]])],
  };
  b.findings.next[1] = [{ path: "calc.go", line: 10, lineText: "for i := 0; i < n-1; i++ {", text: "The loop skips the last element.\u001b[31m" }];
  return b;
}

describe("/review in the window", () => {
  it("reviews the branch and shows the finding under its line, then fix and dismiss are stored", async () => {
    const b = worktreeBackend();
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const input = (await screen.findByTestId("chat-input")) as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "/review", selectionStart: 7 } });
    fireEvent.keyDown(input, { key: "Escape" });
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(b.callsOf("runReview")).toEqual([[1, "branch"]]));
    expect(b.callsOf("sendMessage")).toEqual([]);
    const finding = await screen.findByTestId("review-finding");
    expect(finding.dataset.path).toBe("calc.go");
    expect(finding.dataset.line).toBe("10");
    // In the calc.go diff, in the row right under the changed line; the escape shown, not sent.
    const view = screen.getAllByTestId("diff-view").find((d) => d.getAttribute("data-path") === "calc.go")!;
    expect(within(view).getByTestId("review-finding")).toBe(finding);
    const row = finding.closest("tr")!;
    expect(row.previousElementSibling!.textContent).toContain("n-1");
    expect(finding.textContent).not.toContain("\u001b");
    expect(within(finding).getByTestId("hidden-char").dataset.code).toBe("27");

    fireEvent.click(within(finding).getByTestId("review-finding-fix"));
    await waitFor(() => expect(screen.getByTestId("review-finding").dataset.state).toBe("fixing"));
    expect(b.callsOf("fixFinding")).toEqual([[1]]);
    fireEvent.click(within(screen.getByTestId("review-finding")).getByTestId("review-finding-dismiss"));
    await waitFor(() => expect(screen.queryByTestId("review-finding")).toBeNull());
    expect(b.callsOf("dismissFinding")).toEqual([[1]]);
  });

  it("reviews what the session changed with /review session, and the project's uncommitted changes with a bare /review", async () => {
    const b = new FakeBackend();
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const input = (await screen.findByTestId("chat-input")) as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "/review session", selectionStart: 15 } });
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(b.callsOf("runReview")).toEqual([[1, "session"]]));
    await waitFor(() => expect(screen.getByTestId("changes-open").getAttribute("aria-selected")).toBe("true"));
    fireEvent.change(input, { target: { value: "/review", selectionStart: 7 } });
    fireEvent.keyDown(input, { key: "Escape" });
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(b.callsOf("runReview")).toEqual([[1, "session"], [1, "uncommitted"]]));
    expect(b.callsOf("sendMessage")).toEqual([]);
  });
});
