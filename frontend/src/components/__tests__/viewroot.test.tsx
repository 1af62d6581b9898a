// The file tree, the @ picker, previews and the header's git state follow
// the open session's folder: its worktree for a worktree session, else the
// project folder (issue 25).
import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend, summary } from "../../test/fakeBackend";
import type { FileEntry } from "../../lib/types";

const entry = (path: string, changed = false): FileEntry => ({ path, name: path.split("/").pop()!, isDir: false, isLink: false, changed });
const WT = "/home/u/.pilot/worktrees/1/parser";

/** A folder session (1) and a worktree session (2) on pilot/parser, each with a message; none open. */
function twoFolders() {
  const b = new FakeBackend();
  b.sessions = [summary(1, { title: "In the folder" }), summary(2, { title: "In the worktree", branch: "pilot/parser", worktree: WT })];
  const said = (id: number) => [{ id, role: "user" as const, blocks: [{ type: "text" as const, text: "hello" }], state: "complete" as const, createdAt: id }];
  b.details[1] = detail(1, { session: b.sessions[0]!, messages: said(11) });
  b.details[2] = detail(2, { session: b.sessions[1]!, messages: said(12) });
  b.dirs = { "": [entry("main.go"), entry("shared.go", true)] };
  b.files = { "main.go": "package main // the user's\n", "shared.go": "package main\n" };
  b.gitStatusAnswer = { repo: true, branch: "main", uncommitted: 0 };
  b.worktrees[WT] = {
    dirs: { "": [entry("main.go", true), entry("only-in-worktree.go", true), entry("shared.go")] },
    files: { "main.go": "package main // the session's\n", "only-in-worktree.go": "package main\n", "shared.go": "package main\n" },
    git: { repo: true, branch: "pilot/parser", uncommitted: 2 },
  };
  return b;
}

async function open(title: string) {
  const item = (await screen.findAllByTestId("session-item")).find((x) => x.textContent?.includes(title));
  if (!item) throw new Error(`no session ${title}`);
  fireEvent.click(within(item).getAllByRole("button")[0]!);
}

const names = () => within(screen.getByTestId("file-tree")).queryAllByTestId("file-tree-item").map((e) => e.getAttribute("data-path"));
const changed = () =>
  within(screen.getByTestId("file-tree"))
    .queryAllByTestId("file-tree-item")
    .filter((e) => e.getAttribute("data-changed") === "true")
    .map((e) => e.getAttribute("data-path"));

describe("the open session's folder", () => {
  it("re-roots the tree, its header and the git badge on a worktree session, and back on a folder session", async () => {
    const b = twoFolders();
    renderApp(b);
    fireEvent.click(await screen.findByTestId("tab-files"));
    await waitFor(() => expect(names()).toEqual(["main.go", "shared.go"]));
    expect(screen.getByTestId("file-tree-root").getAttribute("data-root")).toBe("folder");
    expect(changed()).toEqual(["shared.go"]);
    await waitFor(() => expect(screen.getByTestId("git-status").getAttribute("data-branch")).toBe("main"));

    await open("In the worktree");
    await waitFor(() => expect(names()).toEqual(["main.go", "only-in-worktree.go", "shared.go"]));
    // The marks are the worktree's: its main.go, not the folder's shared.go.
    expect(changed()).toEqual(["main.go", "only-in-worktree.go"]);
    const head = screen.getByTestId("file-tree-root");
    expect(head.getAttribute("data-root")).toBe("worktree");
    expect(head.getAttribute("data-branch")).toBe("pilot/parser");
    expect(head.textContent).toContain("pilot/parser");
    expect(head.getAttribute("title")).toContain(WT);
    await waitFor(() => expect(screen.getByTestId("git-status").getAttribute("data-branch")).toBe("pilot/parser"));
    const git = screen.getByTestId("git-status");
    expect(git.getAttribute("data-uncommitted")).toBe("2");
    expect(git.getAttribute("data-worktree")).toBe("true");
    expect(git.getAttribute("title")).toBe("This session's worktree is on the branch pilot/parser, with 2 uncommitted files.");
    expect(b.callsOf("listDir").at(-1)?.[4]).toBe(2);

    await open("In the folder");
    await waitFor(() => expect(names()).toEqual(["main.go", "shared.go"]));
    expect(changed()).toEqual(["shared.go"]);
    expect(screen.getByTestId("file-tree-root").getAttribute("data-root")).toBe("folder");
    await waitFor(() => expect(screen.getByTestId("git-status").getAttribute("data-branch")).toBe("main"));
    expect(screen.getByTestId("git-status").getAttribute("data-worktree")).toBeNull();
  });

  it("previews the worktree's file and closes a preview of the other folder's", async () => {
    const b = twoFolders();
    renderApp(b);
    fireEvent.click(await screen.findByTestId("tab-files"));
    await waitFor(() => expect(names()).toEqual(["main.go", "shared.go"]));
    fireEvent.click(screen.getByTestId("file-tree").querySelector('[data-path="main.go"]')!);
    await waitFor(() => expect(screen.getByTestId("file-preview").textContent).toContain("the user's"));

    await open("In the worktree");
    // The preview was of the project folder's main.go: the tree is shown again, of the worktree.
    await waitFor(() => expect(screen.queryByTestId("file-preview")).toBeNull());
    await waitFor(() => expect(names()).toContain("only-in-worktree.go"));
    fireEvent.click(screen.getByTestId("file-tree").querySelector('[data-path="main.go"]')!);
    await waitFor(() => expect(screen.getByTestId("file-preview").textContent).toContain("the session's"));
    expect(b.callsOf("readProjectFile").at(-1)).toEqual([1, "main.go", 2]);
  });

  it("the @ picker finds the worktree's files for a worktree session", async () => {
    const b = twoFolders();
    renderApp(b);
    await open("In the worktree");
    await waitFor(() => expect(b.callsOf("getSession").map((c) => c[0])).toContain(2));
    const input = (await screen.findByTestId("chat-input")) as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "look at @only", selectionStart: 13 } });
    const item = await screen.findByTestId("file-picker-item");
    expect(item.textContent).toContain("only-in-worktree.go");
    expect(b.callsOf("findFiles").at(-1)).toEqual([1, "only", 12, 2]);
  });

  it("shows the project folder for a session whose worktree was discarded, and says so", async () => {
    const b = twoFolders();
    b.sessions[1] = { ...b.sessions[1]!, worktreeDiscarded: true };
    b.details[2] = { ...b.details[2]!, session: b.sessions[1]! };
    renderApp(b);
    fireEvent.click(await screen.findByTestId("tab-files"));
    await open("In the worktree");
    await waitFor(() => expect(screen.getByTestId("file-tree-root").textContent).toContain("Worktree discarded"));
    await waitFor(() => expect(names()).toEqual(["main.go", "shared.go"]));
    expect(b.callsOf("listDir").every((c) => c[4] === 0)).toBe(true);
  });
});

describe("a worktree session left without a message", () => {
  it("stays in the list when the user starts another session, as the backend keeps it; an empty folder session goes", async () => {
    const b = new FakeBackend();
    renderApp(b);
    fireEvent.click(await screen.findByTestId("session-new-worktree"));
    const dialog = await screen.findByTestId("worktree-dialog");
    fireEvent.change(within(dialog).getByTestId("worktree-name"), { target: { value: "kept" } });
    fireEvent.click(within(dialog).getByTestId("worktree-create"));
    await waitFor(() => expect(screen.queryByTestId("worktree-dialog")).toBeNull());
    const branches = () => screen.getAllByTestId("session-item").map((i) => i.getAttribute("data-branch"));
    await waitFor(() => expect(branches()).toContain("pilot/kept"));

    fireEvent.click(screen.getByTestId("session-new"));
    await waitFor(() => expect(b.callsOf("newSession")).toHaveLength(1));
    const ids = () => screen.getAllByTestId("session-item").map((i) => Number(i.getAttribute("data-session-id")));
    await waitFor(() => expect(ids()).toHaveLength(3));
    expect(branches()).toContain("pilot/kept");
    const kept = Number(screen.getAllByTestId("session-item").find((i) => i.getAttribute("data-branch") === "pilot/kept")!.getAttribute("data-session-id"));
    const folder = ids().find((id) => id !== 1 && id !== kept);

    fireEvent.click(screen.getByTestId("session-new"));
    await waitFor(() => expect(b.callsOf("newSession")).toHaveLength(2));
    await waitFor(() => expect(ids()).not.toContain(folder));
    expect(branches()).toContain("pilot/kept");
  });
});
