// The inbox across sessions: every live session's waiting decisions, of
// every project, oldest first, decided with the review's keys; deciding
// one (here or on the session's card) moves to the next.
import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { FakeBackend, summary } from "../../test/fakeBackend";
import type { Approval, ChangeView, InboxItem } from "../../lib/wire.gen";
import { moved, nextAt } from "../../state/inbox";
import { emptyInbox } from "../../state/inboxState";

const ask = (id: string, kind: Approval["kind"], more: Partial<Approval> = {}): Approval => ({ id, kind, toolCallId: `t-${id}`, tool: kind === "change" ? "write_file" : "run_bash", ...more });
const waiting = (a: Approval, sessionId: number, more: Partial<InboxItem> = {}): InboxItem => ({
  approval: a,
  sessionId,
  title: `Session ${sessionId}`,
  projectId: 1,
  project: "proj",
  projectPath: "/home/u/proj",
  reason: "",
  since: 1000 + sessionId,
  ...more,
});

const hunk = (index: number, text: string) => ({ index, oldStart: index + 1, oldLines: 1, newStart: index + 1, newLines: 1, lines: [{ kind: "del" as const, text, oldNo: index + 1 }, { kind: "add" as const, text: text.toUpperCase(), newNo: index + 1 }] });
const twoHunks: ChangeView = { approvalId: "ch", tool: "write_file", files: [{ path: "notes.txt", isNew: false, emptied: false, hunks: [hunk(0, "one"), hunk(4, "five")] }] };

/** Three sessions wait: a command, a change (in a worktree), a host (another project's session). */
function threeWaiting(): FakeBackend {
  const b = new FakeBackend();
  b.inboxItems = [
    waiting(ask("cmd", "command", { command: "npm test" }), 1, { title: "Fix the parser", reason: "Running the tests first." }),
    waiting(ask("ch", "change", { paths: ["notes.txt"] }), 2, { title: "Capitals", branch: "pilot/caps", reason: "I will capitalise." }),
    waiting(ask("net", "network", { host: "example.com", port: 443, command: "curl https://example.com" }), 7, { title: "Fetch", projectId: 2, project: "other", projectPath: "/home/u/other" }),
  ];
  b.changes.ch = twoHunks;
  return b;
}

const items = () => screen.getAllByTestId("inbox-item");
const shown = () => items().find((x) => x.getAttribute("aria-current") === "true")?.getAttribute("data-approval-id");

/** The decision `id` ended, as the backend says for any session. */
function done(b: FakeBackend, sessionId: number, approvalId: string) {
  act(() => b.emit("agent:approval_done", { sessionId, seq: 100, approvalId, outcome: "approved" }));
}

describe("the inbox's order", () => {
  it("keeps the item shown while it waits, else moves to the next one that still waits", () => {
    const [a, b, c] = threeWaiting().inboxItems as [InboxItem, InboxItem, InboxItem];
    expect(nextAt([a, b, c], "ch", [a, b, c])).toBe("ch");
    expect(nextAt([a, b, c], "ch", [a, c])).toBe("net");
    expect(nextAt([a, b, c], "net", [a, b])).toBe("ch");
    expect(nextAt([], null, [a, b])).toBe("cmd");
    expect(nextAt([a], "cmd", [])).toBeNull();
    const inbox = { ...emptyInbox, items: [a, b, c], at: "ch" };
    expect([moved(inbox, 1), moved(inbox, -1), moved(inbox, 5)]).toEqual(["net", "cmd", "net"]);
  });
});

describe("the inbox", () => {
  it("lists every session's decisions oldest first with their session, and counts them in the sidebar and the title", async () => {
    const b = threeWaiting();
    renderApp(b);
    const opener = await screen.findByTestId("inbox-open");
    await waitFor(() => expect(opener.getAttribute("data-count")).toBe("3"));
    expect(document.title).toBe("(3) Pilot");
    fireEvent.click(opener);
    const inbox = await screen.findByTestId("inbox");
    expect(items().map((x) => [x.getAttribute("data-session-id"), x.getAttribute("data-kind")])).toEqual([
      ["1", "command"],
      ["2", "change"],
      ["7", "network"],
    ]);
    expect(items()[1]!.textContent).toContain("pilot/caps");
    expect(items()[2]!.textContent).toContain("other");
    expect(shown()).toBe("cmd");
    // The agent's words: on its row, and above the decision shown.
    expect(within(inbox).getAllByText("Running the tests first.")).toHaveLength(2);

    // A new decision of any session: the list is read again.
    b.inboxItems = [...b.inboxItems, waiting(ask("late", "command", { command: "ls" }), 3)];
    act(() => b.emit("agent:approval", { sessionId: 3, seq: 1, approval: b.inboxItems[3]!.approval }));
    await waitFor(() => expect(items()).toHaveLength(4));
    expect(screen.getByTestId("inbox-open").getAttribute("data-count")).toBe("4");
  });

  it("decides with keys alone: y and n on a command or host, y per hunk in a change, each moving to the next", async () => {
    const b = threeWaiting();
    renderApp(b);
    fireEvent.click(await screen.findByTestId("inbox-open"));
    await waitFor(() => expect(shown()).toBe("cmd"));
    const keys = () => document.activeElement as HTMLElement;

    fireEvent.keyDown(keys(), { key: "y" });
    await waitFor(() => expect(b.callsOf("decideCommand")).toEqual([["cmd", { approve: true, feedback: "", alwaysAllow: false }]]));
    done(b, 1, "cmd");
    await waitFor(() => expect(shown()).toBe("ch"));

    // The change's own card takes the keys: y per hunk, sent when every hunk is decided.
    await waitFor(() => expect(keys().getAttribute("data-testid")).toBe("change-review"));
    fireEvent.keyDown(keys(), { key: "y" });
    fireEvent.keyDown(keys(), { key: "n" });
    await waitFor(() => expect(b.callsOf("decideChange")).toHaveLength(1));
    expect(b.callsOf("decideChange")[0]).toEqual(["ch", { files: [{ path: "notes.txt", hunks: [true, false] }], feedback: "", alwaysAllow: false }]);
    done(b, 2, "ch");
    await waitFor(() => expect(shown()).toBe("net"));

    fireEvent.keyDown(keys(), { key: "n" });
    await waitFor(() => expect(b.callsOf("decideCommand")[1]).toEqual(["net", { approve: false, feedback: "", alwaysAllow: false }]));
    done(b, 7, "net");
    await waitFor(() => expect(screen.queryAllByTestId("inbox-item")).toHaveLength(0));
    expect(screen.getByTestId("inbox-open").getAttribute("data-count")).toBe("0");
    expect(document.title).toBe("Pilot");
  });

  it("moves with j and k, opens the decision's session with Enter, and drops one decided on its session's card", async () => {
    const b = threeWaiting();
    b.sessions = [summary(1, { title: "Fix the parser" }), summary(2, { title: "Capitals" })];
    renderApp(b);
    fireEvent.click(await screen.findByTestId("inbox-open"));
    await waitFor(() => expect(shown()).toBe("cmd"));
    const root = screen.getByTestId("inbox").querySelector<HTMLElement>(".inbox")!;
    fireEvent.keyDown(root, { key: "j" });
    fireEvent.keyDown(root, { key: "j" });
    expect(shown()).toBe("net");
    fireEvent.keyDown(root, { key: "k" });
    expect(shown()).toBe("ch");

    // Decided elsewhere (the session's card): it leaves, the next is shown.
    done(b, 2, "ch");
    await waitFor(() => expect(shown()).toBe("net"));
    expect(items()).toHaveLength(2);

    fireEvent.keyDown(root, { key: "k" });
    fireEvent.keyDown(root, { key: "Enter" });
    await waitFor(() => expect(screen.queryByTestId("inbox")).toBeNull());
    await waitFor(() => expect(b.callsOf("getSession").map((c) => c[0])).toContain(1));
  });

  it("moves through a change's hunks with j, and past its last hunk to the next decision", async () => {
    const b = threeWaiting();
    renderApp(b);
    await waitFor(() => expect(screen.getByTestId("inbox-open").getAttribute("data-count")).toBe("3"));
    act(() => b.emit("app:open_session", { projectPath: "/home/u/proj", sessionId: 2, approvalId: "ch" }));
    await waitFor(() => expect((document.activeElement as HTMLElement).getAttribute("data-testid")).toBe("change-review"));
    const card = document.activeElement as HTMLElement;
    fireEvent.keyDown(card, { key: "j" });
    expect(shown()).toBe("ch");
    expect(card.querySelectorAll("[data-testid=diff-hunk]")[1]!.className).toContain("focused");
    fireEvent.keyDown(card, { key: "j" });
    expect(shown()).toBe("net");
  });

  it("opens at the decision a clicked notification was about", async () => {
    const b = threeWaiting();
    renderApp(b);
    await waitFor(() => expect(screen.getByTestId("inbox-open").getAttribute("data-count")).toBe("3"));
    act(() => b.emit("app:open_session", { projectPath: "/home/u/other", sessionId: 7, approvalId: "net" }));
    await screen.findByTestId("inbox");
    await waitFor(() => expect(shown()).toBe("net"));
  });

  it("holds a plan that waits: counted, shown as the agent's words, approved with y or refused with n and what should change", async () => {
    const b = threeWaiting();
    const text = "Rename the package.\n\n## Steps\n1. Patch main.go";
    const plan = (id: string) => waiting(ask(id, "plan", { tool: "present_plan" }), 4, { title: "Rename", branch: "pilot/rename", reason: text });
    b.inboxItems = [plan("plan_9"), ...b.inboxItems];
    // What the backend says once a plan is answered: it no longer waits.
    const answered = () => (b.inboxItems = b.inboxItems.filter((x) => x.approval.kind !== "plan"));
    renderApp(b);
    await waitFor(() => expect(screen.getByTestId("inbox-open").getAttribute("data-count")).toBe("4"));
    fireEvent.click(screen.getByTestId("inbox-open"));
    const inbox = await screen.findByTestId("inbox");
    await waitFor(() => expect(shown()).toBe("plan_9"));
    const row = items()[0]!;
    expect([row.getAttribute("data-kind"), row.getAttribute("data-session-id")]).toEqual(["plan", "4"]);
    expect(row.textContent).toContain("pilot/rename");
    expect(row.textContent).toContain("Rename the package.");
    expect(row.textContent).not.toContain("present_plan");
    expect(within(inbox).getByText("Patch main.go")).toBeTruthy(); // the plan, as Markdown, above its answers
    const keys = () => document.activeElement as HTMLElement;

    // y: approved as its card approves it, into the mode the card offers first.
    answered();
    fireEvent.keyDown(keys(), { key: "y" });
    fireEvent.keyDown(keys(), { key: "y" }); // pressed again while the first answer is on its way: sent once
    await waitFor(() => expect(b.callsOf("approvePlan")).toEqual([[4, "ask", text]]));
    await waitFor(() => expect(shown()).toBe("cmd"));
    expect(screen.getByTestId("inbox-open").getAttribute("data-count")).toBe("3");

    // Another plan turns up when a turn ends with one; n asks what should change, and sends it.
    b.inboxItems = [plan("plan_10"), ...b.inboxItems];
    act(() => b.emit("agent:turn_done", { sessionId: 4, seq: 9, reason: "plan" }));
    await waitFor(() => expect(items()).toHaveLength(4));
    fireEvent.click(items()[0]!);
    await waitFor(() => expect(shown()).toBe("plan_10"));
    fireEvent.keyDown(keys(), { key: "n" });
    await waitFor(() => expect(keys().getAttribute("data-testid")).toBe("plan-feedback"));
    expect(b.callsOf("sendMessage")).toEqual([]);
    fireEvent.change(keys(), { target: { value: "Keep the old name as an alias" } });
    answered();
    fireEvent.click(within(inbox).getByTestId("plan-keep"));
    await waitFor(() => expect(b.callsOf("sendMessage")).toEqual([[4, "Keep the old name as an alias", []]]));
    await waitFor(() => expect(items()).toHaveLength(3));
  });
});
