import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import { diffOf } from "../../test/fakeLedger";
import type { FileChange, Message, ToolCall } from "../../lib/wire.gen";

const before = "package main\n\nfunc a() int { return 1 }\n\nfunc b() {}\n";
const after = "package main\n\nfunc a() int { return 2 }\n\nfunc b() {}\n";

const proposed: FileChange = {
  path: "main.go",
  isNew: false,
  emptied: false,
  hunks: [
    { index: 0, oldStart: 3, oldLines: 1, newStart: 3, newLines: 1, lines: [{ kind: "del", text: "func a() int { return 1 }", oldNo: 3 }, { kind: "add", text: "func a() int { return 2 }", newNo: 3 }] },
    { index: 1, oldStart: 5, oldLines: 1, newStart: 5, newLines: 1, lines: [{ kind: "del", text: "func b() {}", oldNo: 5 }, { kind: "add", text: "func b() { c() }", newNo: 5 }] },
  ],
};

const msg = (id: number, role: Message["role"], blocks: Message["blocks"]): Message => ({ id, role, blocks, state: "complete", createdAt: id });
const call = (over: Partial<ToolCall> & Pick<ToolCall, "id" | "name">): ToolCall => ({ messageId: 2, label: `→ ${over.name}`, input: {}, status: "done", output: "ok", isError: false, startedAt: 1, ...over });

/** Session 1: a user message, a patch with one of two hunks applied, a command that changed three files. */
function backend(): FakeBackend {
  const b = new FakeBackend();
  b.files = { "main.go": before, "gen/old.go": "old\n", "go.sum": "a\n" };
  const edit = b.ledger.record(1, { kind: "edit", messageId: 2, toolCallId: "t1", label: "→ Editing main.go", files: { "main.go": { before, after } } });
  const cmd = b.ledger.record(1, {
    kind: "command",
    messageId: 2,
    toolCallId: "t2",
    label: "$ make gen",
    note: "1,237 files changed; only the first 3 are listed.",
    omitted: 1234,
    files: {
      "gen/new.go": { before: null, after: "package gen\n" },
      "go.sum": { before: "a\n", after: "a\nb\n" },
      "gen/old.go": { before: "old\n", after: null },
      "big.bin": { before: "x", after: "y", kept: false, why: "over 8 MiB, not kept" },
    },
  });
  const summary = {
    checkpointId: edit.id,
    applied: 1,
    total: 2,
    edited: false,
    undone: false,
    files: [{ path: "main.go", op: "modified" as const, decisions: ["approved" as const, "rejected" as const], applied: 1, total: 2, edited: false, written: true }],
  };
  b.ledger.details.t1 = { summary, proposed: [proposed], applied: [diffOf("main.go", before, after)] };
  b.details[1] = detail(1, {
    messages: [
      msg(1, "user", [{ type: "text", text: "bump a, run make gen" }]),
      msg(2, "assistant", [
        { type: "tool_use", id: "t1", name: "patch_file", input: {} },
        { type: "tool_use", id: "t2", name: "run_bash", input: {} },
      ]),
    ],
    toolCalls: [
      call({ id: "t1", name: "patch_file", label: "→ Editing main.go", output: "Applied 1 of 2 hunks; the user rejected hunk 2.", change: summary }),
      call({ id: "t2", name: "run_bash", label: "$ make gen", effects: { checkpointId: cmd.id, files: cmd.files, omitted: 1234, note: cmd.note, undone: false } }),
    ],
  });
  return b;
}

async function open(b = backend()) {
  renderApp(b);
  fireEvent.click(await screen.findByText("Session 1"));
  await screen.findAllByTestId("tool-call");
  await waitFor(() => expect(b.callsOf("getLedger")).toHaveLength(1));
  return b;
}

const card = (tool: string) => screen.getAllByTestId("tool-call").find((c) => c.getAttribute("data-tool") === tool)!;

describe("file-change card", () => {
  it("says how much was applied and expands to the applied diff side by side, the rejected hunk marked", async () => {
    const b = await open();
    const summary = within(card("patch_file")).getByTestId("change-summary");
    expect(summary.textContent).toBe("applied 1 of 2 hunks");
    expect(summary.getAttribute("data-applied")).toBe("1");
    expect(summary.getAttribute("data-total")).toBe("2");

    fireEvent.click(within(card("patch_file")).getByRole("button", { name: /Editing main.go/ }));
    const diff = await within(card("patch_file")).findByTestId("file-diff");
    expect(b.callsOf("getChangeDetail")).toEqual([[1, "t1"]]);
    expect(diff.getAttribute("data-layout")).toBe("split");
    expect(diff.querySelector("table.diff-table.split")).not.toBeNull();
    const hunks = within(diff).getAllByTestId("readonly-hunk");
    expect(hunks.map((h) => h.getAttribute("data-tone") ?? "")).toEqual(["", "rejected"]);
    expect(hunks[1]!.textContent).toContain("rejected");
    expect(hunks[1]!.textContent).toContain("func b() { c() }");
    // What the model was told stays available.
    expect(within(card("patch_file")).getByText("Sent to the model")).toBeTruthy();
    expect(within(card("patch_file")).getByTestId("tool-output").textContent).toContain("rejected hunk 2");
  });
});

describe("command card", () => {
  it("lists the files the command changed, the limit it hit, and what cannot be reverted", async () => {
    const b = await open();
    const c = card("run_bash");
    expect(c.textContent).toContain("1,238 files changed");
    fireEvent.click(within(c).getByRole("button", { name: /make gen/ }));
    const files = within(c).getAllByTestId("effect-file");
    expect(files.map((f) => [f.getAttribute("data-path"), f.getAttribute("data-op")])).toEqual([
      ["gen/new.go", "created"],
      ["go.sum", "modified"],
      ["gen/old.go", "deleted"],
      ["big.bin", "modified"],
    ]);
    expect(files[3]!.getAttribute("data-kept")).toBe("false");
    expect(files[3]!.textContent).toContain("over 8 MiB, not kept");
    expect(within(c).getByTestId("effects-omitted").textContent).toBe("…and 1,234 more not listed");
    expect(within(c).getByTestId("effects-note").textContent).toBe("1,237 files changed; only the first 3 are listed.");

    fireEvent.click(within(files[1]!).getByRole("button", { name: "go.sum" }));
    const diff = await within(c).findByTestId("file-diff");
    expect(b.callsOf("getCheckpointDiff")).toEqual([[2, "go.sum"]]);
    expect(diff.textContent).toContain("b");
  });
});

describe("command card: what can run code", () => {
  /** Session 1: a command that made a repository with a hook, an executable script and a plain file. */
  function hooked(): FakeBackend {
    const b = new FakeBackend();
    const cmd = b.ledger.record(1, {
      kind: "command",
      messageId: 2,
      toolCallId: "t2",
      label: "$ git init",
      note: "3 files are in .git folders or ignored: listed, not kept, they cannot be undone.",
      files: {
        "notes.txt": { before: null, after: "y" },
        "run.sh": { before: null, after: "x", runsCode: "executable" },
        "sub/.git": { before: null, after: "", kept: false, listed: true, folder: true, why: "a git folder: not kept", runsCode: "a new git repository: git runs its hooks and config here" },
        "sub/.git/HEAD": { before: null, after: "ref\n", kept: false, listed: true, why: "in a git folder: not kept" },
        "sub/.git/hooks/post-checkout": { before: null, after: "#!/bin/sh\n", kept: false, listed: true, why: "in a git folder: not kept", runsCode: "a git hook" },
      },
    });
    b.details[1] = detail(1, {
      messages: [msg(1, "user", [{ type: "text", text: "make a repo" }]), msg(2, "assistant", [{ type: "tool_use", id: "t2", name: "run_bash", input: {} }])],
      toolCalls: [call({ id: "t2", name: "run_bash", label: "$ git init", effects: { checkpointId: cmd.id, files: cmd.files, note: cmd.note, undone: false } })],
    });
    return b;
  }

  it("lists every file with its kind, a mark on what can run code and what cannot be undone", async () => {
    await open(hooked());
    const c = card("run_bash");
    fireEvent.click(within(c).getByRole("button", { name: /git init/ }));
    const files = within(c).getAllByTestId("command-file");
    const attrs = (f: HTMLElement) => ["data-path", "data-kind", "data-runs-code", "data-kept"].map((a) => f.getAttribute(a));
    // What can run code first, then the others, each by path.
    expect(files.map(attrs)).toEqual([
      ["run.sh", "created", "true", "true"],
      ["sub/.git", "created", "true", "false"],
      ["sub/.git/hooks/post-checkout", "created", "true", "false"],
      ["notes.txt", "created", "false", "true"],
      ["sub/.git/HEAD", "created", "false", "false"],
    ]);
    const row = (path: string) => within(c).getAllByTestId("effect-file").find((f) => f.getAttribute("data-path") === path)!;
    expect(row("sub/.git").textContent).toContain("sub/.git/");
    expect(within(row("sub/.git/hooks/post-checkout")).getByTestId("runs-code").textContent).toBe("can run code: a git hook");
    expect(within(row("sub/.git/hooks/post-checkout")).getByTestId("not-kept").textContent).toContain("in a git folder: not kept; cannot be undone");
    expect(within(row("run.sh")).getByTestId("runs-code").textContent).toBe("can run code: executable");
    expect(within(row("run.sh")).queryByTestId("not-kept")).toBeNull();
    expect(within(row("notes.txt")).queryByTestId("runs-code")).toBeNull();
    expect(row("run.sh").getAttribute("data-runs-code")).toBe("true");
    expect(within(c).getByTestId("effects-note").textContent).toContain("cannot be undone");
  });

  it("the Changes view marks them too, and a commit leaves out what the ledger only listed", async () => {
    await open(hooked());
    fireEvent.click(screen.getByTestId("changes-open"));
    const view = await screen.findByTestId("changes-view");
    const rows = within(view).getAllByTestId("changes-file");
    expect(rows.map((f) => [f.getAttribute("data-path"), f.getAttribute("data-runs-code"), f.getAttribute("data-kept")])).toEqual([
      ["notes.txt", "false", "true"],
      ["run.sh", "true", "true"],
      ["sub/.git", "true", "false"],
      ["sub/.git/HEAD", "false", "false"],
      ["sub/.git/hooks/post-checkout", "true", "false"],
    ]);
    fireEvent.click(within(view).getByTestId("changes-commit"));
    const dialog = await screen.findByRole("dialog");
    expect([...dialog.querySelectorAll(".commit-files code")].map((e) => e.textContent)).toEqual(["notes.txt", "run.sh"]);
  });
});

describe("changes view", () => {
  it("lists the session's files with their net change and refreshes on ledger:updated", async () => {
    const b = await open();
    fireEvent.click(screen.getByTestId("changes-open"));
    const view = await screen.findByTestId("changes-view");
    expect(screen.getByTestId("changes-open").textContent).toContain("5");
    const kinds = () => within(view).getAllByTestId("changes-file").map((f) => [f.getAttribute("data-path"), f.getAttribute("data-kind")]);
    expect(kinds()).toEqual([
      ["main.go", "modified"],
      ["gen/new.go", "created"],
      ["go.sum", "modified"],
      ["gen/old.go", "deleted"],
      ["big.bin", "modified"],
    ]);

    b.ledger.record(1, { kind: "edit", messageId: 2, label: "→ Writing README.md", files: { "README.md": { before: null, after: "# hi\n" } } });
    act(() => b.emit("ledger:updated", { sessionId: 2 }));
    expect(b.callsOf("getLedger")).toHaveLength(1);
    act(() => b.emit("ledger:updated", { sessionId: 1 }));
    await waitFor(() => expect(kinds()).toContainEqual(["README.md", "created"]));

    fireEvent.click(within(view).getAllByTestId("changes-file")[0]!);
    const detailEl = await screen.findByTestId("changes-detail");
    await within(detailEl).findByTestId("file-diff");
    expect(b.callsOf("getFileDiff")).toEqual([[1, "main.go"]]);
    const steps = within(detailEl).getAllByTestId("changes-step");
    expect(steps.map((s) => s.getAttribute("data-kind"))).toEqual(["edit"]);
    fireEvent.click(within(detailEl).getByTestId("changes-revert-file"));
    await waitFor(() => expect(b.callsOf("revertFile")).toEqual([[1, "main.go", { resolutions: {} }]]));
    await waitFor(() => expect(b.files["main.go"]).toBe(before));
    expect((await screen.findByTestId("notice-banner")).textContent).toContain("Reverted main.go");
  });

  it("opens a changed file's diff from the mark in the file tree", async () => {
    const b = backend();
    b.dirs[""] = [{ path: "main.go", name: "main.go", isDir: false, isLink: false, changed: true }];
    await open(b);
    fireEvent.click(screen.getByTestId("tab-files"));
    fireEvent.click(await screen.findByTestId("file-tree-diff"));
    expect((await screen.findByTestId("changes-detail")).getAttribute("data-path")).toBe("main.go");
    expect(screen.getByTestId("changes-open").getAttribute("aria-selected")).toBe("true");
  });
});

describe("revert", () => {
  it("reverts a change from its card, and the card says so", async () => {
    const b = await open();
    fireEvent.click(within(card("patch_file")).getByRole("button", { name: /Editing main.go/ }));
    fireEvent.click(within(card("patch_file")).getByTestId("change-revert"));
    await waitFor(() => expect(b.callsOf("revertCheckpoint")).toEqual([[1, { resolutions: {} }]]));
    await waitFor(() => expect(within(card("patch_file")).getByTestId("change-summary").textContent).toBe("reverted"));
    expect(within(card("patch_file")).queryByTestId("change-revert")).toBeNull();
    expect(b.files["main.go"]).toBe(before);
  });

  it("asks about a file changed outside Pilot, then reverts with the resolution", async () => {
    const b = await open();
    b.ledger.changeOutside("go.sum", "a\nmine\n");
    fireEvent.click(within(card("run_bash")).getByRole("button", { name: /make gen/ }));
    fireEvent.click(within(card("run_bash")).getByTestId("change-revert"));
    const conflict = await screen.findByTestId("rewind-conflict");
    expect(conflict.getAttribute("data-path")).toBe("go.sum");
    expect(conflict.textContent).toContain("Yours, on disk");
    expect(conflict.textContent).toContain("mine");
    expect(b.files["gen/new.go"]).toBe("package gen\n"); // nothing written yet
    fireEvent.click(within(conflict).getByTestId("rewind-keep-mine"));
    await waitFor(() => expect(b.callsOf("revertCheckpoint")).toEqual([[2, { resolutions: {} }], [2, { resolutions: { "go.sum": "mine" } }]]));
    await waitFor(() => expect(screen.queryByTestId("rewind-conflict")).toBeNull());
    expect(b.files["go.sum"]).toBe("a\nmine\n");
    expect(b.files["gen/new.go"]).toBeUndefined();
    expect(b.files["gen/old.go"]).toBe("old\n");
  });

  it("a revert where the user kept every file says nothing changed, not a success banner", async () => {
    const b = await open();
    b.ledger.changeOutside("go.sum", "a\nmine\n");
    b.ledger.changeOutside("gen/new.go", "package gen // mine\n");
    b.ledger.changeOutside("gen/old.go", "mine\n");
    fireEvent.click(within(card("run_bash")).getByRole("button", { name: /make gen/ }));
    fireEvent.click(within(card("run_bash")).getByTestId("change-revert"));
    await waitFor(() => expect(screen.getAllByTestId("rewind-conflict")).toHaveLength(3));
    for (const cf of screen.getAllByTestId("rewind-conflict")) {
      const keep = within(cf).getByTestId("rewind-keep-mine");
      expect(keep.textContent).toBe("Keep my current file");
      fireEvent.click(keep);
    }
    const banner = await screen.findByTestId("notice-banner");
    expect(banner.getAttribute("data-tone")).toBe("unchanged");
    expect(banner.textContent).toContain("Nothing was reverted");
    expect(banner.textContent).not.toMatch(/Reverted|restored/);
    expect(b.files["go.sum"]).toBe("a\nmine\n");
    expect(b.files["gen/new.go"]).toBe("package gen // mine\n");
  });

  it("a revert that restored files is a success banner", async () => {
    const b = await open();
    fireEvent.click(within(card("patch_file")).getByRole("button", { name: /Editing main.go/ }));
    fireEvent.click(within(card("patch_file")).getByTestId("change-revert"));
    const banner = await screen.findByTestId("notice-banner");
    expect(banner.getAttribute("data-tone")).toBe("done");
    expect(banner.textContent).toContain("1 file(s) restored");
    expect(b.files["main.go"]).toBe(before);
  });

  it("shows a failed revert in the error banner", async () => {
    const b = await open();
    b.restoreError = new Error("disk full");
    fireEvent.click(within(card("patch_file")).getByRole("button", { name: /Editing main.go/ }));
    fireEvent.click(within(card("patch_file")).getByTestId("change-revert"));
    expect((await screen.findByTestId("error-banner")).textContent).toContain("disk full");
  });
});

describe("rewind", () => {
  it("offers three choices, and restoring code and conversation opens the fork", async () => {
    const b = await open();
    const user = screen.getAllByTestId("message").find((m) => m.getAttribute("data-role") === "user")!;
    const rewind = within(user).getByTestId("rewind");
    expect(rewind.getAttribute("aria-label")).toBe("Rewind to before this message");
    fireEvent.click(rewind);
    const menu = await screen.findByTestId("rewind-menu");
    expect(within(menu).getByTestId("rewind-code").textContent).toContain("Restore code only");
    expect(within(menu).getByTestId("rewind-both").textContent).toContain("Restore code and conversation");
    expect(within(menu).getByTestId("rewind-conversation").textContent).toContain("Restore conversation only");
    fireEvent.click(within(menu).getByTestId("rewind-both"));
    await waitFor(() => expect(b.callsOf("rewind")).toEqual([[1, 1, "both", { resolutions: {} }]]));
    await waitFor(() => expect(b.callsOf("getSession")).toContainEqual([600, 0]));
    expect(await screen.findByText("Fork of session 1", { selector: "h1" })).toBeTruthy();
    expect(screen.queryByTestId("rewind-menu")).toBeNull();
    expect(b.files["main.go"]).toBe(before);
    expect(screen.getByTestId("notice-banner").textContent).toContain("new session");
  });

  it("restores code only in the same session", async () => {
    const b = await open();
    fireEvent.click(within(screen.getAllByTestId("message")[0]!).getByTestId("rewind"));
    fireEvent.click(await screen.findByTestId("rewind-code"));
    await waitFor(() => expect(b.callsOf("rewind")).toEqual([[1, 1, "code", { resolutions: {} }]]));
    await waitFor(() => expect(b.callsOf("getLedger")).toHaveLength(3));
    expect(b.callsOf("getSession")).toEqual([[1, 0]]);
    expect(b.files["go.sum"]).toBe("a\n");
  });
});

describe("a change a crash interrupted", () => {
  it("says on the card what the next start made of it", async () => {
    const b = backend();
    const t1 = b.details[1]!.toolCalls.find((c) => c.id === "t1")!;
    t1.change = { ...t1.change!, recovery: "undone on restart" };
    t1.output = "Interrupted by a crash; undone on restart. Pilot was stopped while it wrote this approved change.";
    t1.status = "error";
    await open(b);
    expect(within(card("patch_file")).getByTestId("change-summary").textContent).toBe("interrupted by a crash; undone on restart");
  });
});
