// Parallel sessions you can see: every session's live state in the list,
// a worktree session's branch, the project's git state in the header, and
// each session's draft and half-made review kept across switches.
import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend, summary } from "../../test/fakeBackend";
import type { Approval, ChangeView } from "../../lib/wire.gen";

const change = (id: string, path: string): Approval => ({ id, kind: "change", toolCallId: `t-${id}`, tool: "patch_file", paths: [path] });
const command: Approval = { id: "c1", kind: "command", toolCallId: "tc", tool: "bash", command: "npm test" };

function item(id: number): HTMLElement {
  const el = screen.getAllByTestId("session-item").find((x) => x.getAttribute("data-session-id") === String(id));
  if (!el) throw new Error(`no session-item ${id}`);
  return el;
}

/** Two sessions in the list, 2 open; session 1 is the one not open. */
async function twoSessions() {
  const b = new FakeBackend();
  b.sessions = [summary(1, { title: "Fix the parser" }), summary(2, { title: "Refactor", branch: "pilot/refactor", worktree: "/home/u/.pilot/worktrees/1/refactor" })];
  // Each has a message: a session left empty leaves the list.
  const said = (id: number) => [{ id, role: "user" as const, blocks: [{ type: "text" as const, text: "hello" }], state: "complete" as const, createdAt: id }];
  b.details[1] = detail(1, { session: b.sessions[0]!, messages: said(11) });
  b.details[2] = detail(2, { session: b.sessions[1]!, messages: said(12) });
  renderApp(b);
  fireEvent.click(await screen.findByText("Refactor"));
  await waitFor(() => expect(b.callsOf("getSession").map((c) => c[0])).toContain(2));
  return b;
}

/** Clicks a session in the list (its title may be in the header too). */
function open(id: number) {
  fireEvent.click(within(item(id)).getAllByRole("button")[0]!);
}

let seq = 1;
const at = (sessionId: number) => ({ sessionId, seq: seq++ });

describe("the session list's live state", () => {
  it("shows the state of a session that is not open, live, with what it waits for and the changes waiting", async () => {
    const b = await twoSessions();
    expect(item(1).getAttribute("data-state")).toBe("idle");

    act(() => b.emit("agent:state", { ...at(1), state: "streaming" }));
    expect(item(1).getAttribute("data-state")).toBe("streaming");
    expect(item(2).getAttribute("data-state")).toBe("idle");

    act(() => {
      b.emit("agent:approval", { ...at(1), approval: change("a1", "src/parse.go") });
      b.emit("agent:approval", { ...at(1), approval: change("a2", "src/lex.go") });
      b.emit("agent:approval", { ...at(1), approval: command });
      b.emit("agent:state", { ...at(1), state: "awaiting_approval" });
    });
    const one = item(1);
    expect(one.getAttribute("data-state")).toBe("waiting");
    expect(within(one).getByTestId("session-waiting").textContent).toBe("2");
    const button = within(one).getByRole("button", { name: /Fix the parser/ });
    expect(button.getAttribute("title")).toBe("Waiting for you to review a change to src/parse.go, and 2 more decisions.");
    expect(button.textContent).toContain("2 changes wait for your review.");

    act(() => b.emit("agent:approval_done", { ...at(1), approvalId: "a1", outcome: "approved" }));
    expect(within(item(1)).getByTestId("session-waiting").textContent).toBe("1");
    act(() => {
      b.emit("agent:approval_done", { ...at(1), approvalId: "a2", outcome: "rejected" });
      b.emit("agent:approval_done", { ...at(1), approvalId: "c1", outcome: "approved" });
      b.emit("agent:state", { ...at(1), state: "tool_executing" });
    });
    expect(item(1).getAttribute("data-state")).toBe("streaming");
    expect(within(item(1)).queryByTestId("session-waiting")).toBeNull();

    act(() => {
      b.emit("agent:state", { ...at(1), state: "error" });
      b.emit("agent:turn_done", { ...at(1), reason: "error" });
    });
    expect(item(1).getAttribute("data-state")).toBe("error");
    act(() => {
      b.emit("agent:state", { ...at(1), state: "streaming" });
      b.emit("agent:state", { ...at(1), state: "idle" });
      b.emit("agent:turn_done", { ...at(1), reason: "end_turn" });
    });
    expect(item(1).getAttribute("data-state")).toBe("idle");
  });

  it("tells what a waiting command is, and counts no change for it", async () => {
    const b = await twoSessions();
    act(() => b.emit("agent:approval", { ...at(1), approval: command }));
    expect(item(1).getAttribute("data-state")).toBe("waiting");
    expect(within(item(1)).getByRole("button", { name: /Fix the parser/ }).getAttribute("title")).toBe("Waiting for you to approve the command “npm test”.");
    expect(within(item(1)).queryByTestId("session-waiting")).toBeNull();
  });

  it("starts from the state the store saved for a session it has seen no event of", async () => {
    const b = new FakeBackend();
    b.sessions = [summary(1, { state: "running" }), summary(2, { state: "error" }), summary(3, { state: "interrupted" })];
    renderApp(b);
    await screen.findAllByTestId("session-item");
    expect([1, 2, 3].map((id) => item(id).getAttribute("data-state"))).toEqual(["streaming", "error", "idle"]);
  });

  it("marks a worktree session with its branch, and no other", async () => {
    await twoSessions();
    expect(item(2).getAttribute("data-branch")).toBe("pilot/refactor");
    expect(item(2).textContent).toContain("pilot/refactor");
    expect(item(1).hasAttribute("data-branch")).toBe(false);
  });

  it("shows the opened session's pending approvals as waiting, from its snapshot", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, { pending: [change("p1", "a.go")], state: "awaiting_approval" });
    b.changes.p1 = { approvalId: "p1", tool: "patch_file", files: [] };
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    await waitFor(() => expect(item(1).getAttribute("data-state")).toBe("waiting"));
    expect(within(item(1)).getByTestId("session-waiting").textContent).toBe("1");
  });
});

describe("the header's git state", () => {
  it("shows the branch and the uncommitted count, read again after a turn and on focus", async () => {
    const b = new FakeBackend();
    b.gitStatusAnswer = { repo: true, branch: "main", uncommitted: 0 };
    renderApp(b);
    const git = await screen.findByTestId("git-status");
    expect(git.getAttribute("data-branch")).toBe("main");
    expect(git.getAttribute("data-uncommitted")).toBe("0");
    expect(git.getAttribute("title")).toBe("The project folder is on the branch main, with nothing uncommitted.");

    b.gitStatusAnswer = { repo: true, branch: "main", uncommitted: 3 };
    act(() => b.emit("agent:turn_done", { ...at(1), reason: "end_turn" }));
    await waitFor(() => expect(screen.getByTestId("git-status").getAttribute("data-uncommitted")).toBe("3"));
    expect(screen.getByTestId("git-status").textContent).toContain("3 uncommitted");

    b.gitStatusAnswer = { repo: true, branch: "feature", uncommitted: 1 };
    const before = b.callsOf("gitStatus").length;
    act(() => window.dispatchEvent(new Event("focus")));
    await waitFor(() => expect(screen.getByTestId("git-status").getAttribute("data-branch")).toBe("feature"));
    expect(b.callsOf("gitStatus").length).toBe(before + 1);
    expect(screen.getByTestId("git-status").getAttribute("title")).toContain("1 uncommitted file.");
  });

  it("says why a folder has no git state, and a failed read in a sentence", async () => {
    const b = new FakeBackend();
    b.gitStatusAnswer = { repo: false, branch: "", uncommitted: 0, why: "/home/u/proj is not in a git repository, so it cannot have worktrees: run `git init` there and make a first commit" };
    renderApp(b);
    const git = await screen.findByTestId("git-status");
    expect(git.getAttribute("data-repo")).toBe("false");
    expect(git.getAttribute("title")).toContain("git init");

    b.gitError = "git status: fatal: index file corrupt";
    act(() => window.dispatchEvent(new Event("focus")));
    await waitFor(() => expect(screen.getByTestId("git-status").getAttribute("title")).toBe("Could not read the git status: git status: fatal: index file corrupt"));
  });
});

describe("switching sessions", () => {
  it("keeps each session's draft", async () => {
    const b = await twoSessions();
    const input = () => screen.getByTestId("chat-input") as HTMLTextAreaElement;
    fireEvent.change(input(), { target: { value: "rename the lexer" } });
    open(1);
    await waitFor(() => expect(b.callsOf("getSession").map((c) => c[0])).toContain(1));
    await waitFor(() => expect(input().value).toBe(""));
    fireEvent.change(input(), { target: { value: "and the parser" } });
    open(2);
    await waitFor(() => expect(input().value).toBe("rename the lexer"));
    open(1);
    await waitFor(() => expect(input().value).toBe("and the parser"));
  });

  it("keeps a half-made review: its decisions and the hunk the user was at", async () => {
    const b = new FakeBackend();
    const a = change("ap1", "main.go");
    const view: ChangeView = {
      approvalId: "ap1",
      tool: "patch_file",
      files: [
        {
          path: "main.go",
          isNew: false,
          emptied: false,
          hunks: [0, 1].map((i) => ({ index: i, oldStart: 1 + 10 * i, oldLines: 1, newStart: 1 + 10 * i, newLines: 1, lines: [{ kind: "del" as const, text: `old ${i}`, oldNo: 1 + 10 * i }, { kind: "add" as const, text: `new ${i}`, newNo: 1 + 10 * i }] })),
        },
      ],
    };
    b.sessions = [summary(1), summary(2)];
    b.details[1] = detail(1, { pending: [a], state: "awaiting_approval", messages: [{ id: 5, role: "user", blocks: [{ type: "text", text: "change it" }], state: "complete", createdAt: 5 }] });
    b.changes.ap1 = view;
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    await screen.findByTestId("diff-view");
    fireEvent.click(within(screen.getAllByTestId("diff-hunk")[0]!).getByTestId("hunk-reject"));
    expect(screen.getAllByTestId("diff-hunk")[0]!.getAttribute("data-decision")).toBe("rejected");
    fireEvent.keyDown(screen.getByTestId("change-review"), { key: "j" }); // to the second hunk
    expect(screen.getAllByTestId("diff-hunk")[1]!.className).toContain("focused");

    open(2);
    await waitFor(() => expect(screen.queryByTestId("diff-view")).toBeNull());
    open(1);
    await screen.findByTestId("diff-view");
    expect(screen.getAllByTestId("diff-hunk").map((h) => h.getAttribute("data-decision"))).toEqual(["rejected", "pending"]);
    expect(screen.getAllByTestId("diff-hunk").map((h) => h.className.includes("focused"))).toEqual([false, true]);
    expect(b.callsOf("getChange")).toHaveLength(1);
  });
});

describe("switching sessions keeps the conversation's place", () => {
  const user = (id: number) => ({ id, role: "user" as const, blocks: [{ type: "text" as const, text: `prompt ${id}` }], state: "complete" as const, createdAt: id });
  const shown = () => screen.getAllByTestId("message").map((m) => Number(m.getAttribute("data-message-id")));

  async function longAndShort() {
    const b = new FakeBackend();
    b.sessions = [summary(1), summary(2)];
    b.details[1] = detail(1, { messages: Array.from({ length: 60 }, (_, i) => user(i + 1)) });
    b.details[2] = detail(2, { messages: [user(100)] });
    renderApp(b);
    await screen.findAllByTestId("session-item");
    open(1);
    await screen.findByText("prompt 60");
    return b;
  }

  it("returns to where the user had scrolled up to", async () => {
    await longAndShort();
    const transcript = screen.getByTestId("transcript");
    expect(Math.min(...shown())).toBeGreaterThan(40); // opened at its end
    act(() => {
      transcript.scrollTop = 0;
      transcript.dispatchEvent(new Event("scroll"));
    });
    await waitFor(() => expect(shown()).toContain(1));

    open(2);
    await screen.findByText("prompt 100");
    open(1);
    await screen.findByText("prompt 1");
    expect(shown()).toContain(1);
    expect(screen.getByTestId("transcript").scrollTop).toBe(0);
    expect(screen.queryByText("prompt 60")).toBeNull();
  });

  it("returns to the end when the user was following it", async () => {
    await longAndShort();
    open(2);
    await screen.findByText("prompt 100");
    open(1);
    await screen.findByText("prompt 60");
    expect(Math.min(...shown())).toBeGreaterThan(40);
  });
});
