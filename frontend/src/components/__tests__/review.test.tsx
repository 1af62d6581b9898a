import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import type { Approval, ChangeView } from "../../lib/wire.gen";

const approval: Approval = { id: "ap1", kind: "change", toolCallId: "t1", tool: "patch_file", paths: ["main.go"] };

const change: ChangeView = {
  approvalId: "ap1",
  tool: "patch_file",
  files: [
    {
      path: "main.go",
      isNew: false,
      emptied: false,
      hunks: [
        {
          index: 0,
          oldStart: 2,
          oldLines: 2,
          newStart: 2,
          newLines: 2,
          lines: [
            { kind: "context", text: "", oldNo: 2, newNo: 2 },
            { kind: "del", text: "func a() int { return 1 }", oldNo: 3 },
            { kind: "add", text: "func a() int { return 2 }", newNo: 3 },
          ],
        },
        {
          index: 1,
          oldStart: 5,
          oldLines: 1,
          newStart: 5,
          newLines: 1,
          lines: [
            { kind: "del", text: "func b() {}", oldNo: 5 },
            { kind: "add", text: "func b() { c() }", newNo: 5 },
          ],
        },
      ],
    },
  ],
};

const proposedText = "package main\n\nfunc a() int { return 2 }\n\nfunc b() { c() }\n";

it("says so when the proposed text cannot be fetched for editing, and keeps the review", async () => {
  await setup();
  fireEvent.click(screen.getByTestId("diff-edit"));
  expect(await screen.findByText(/Could not open the proposed text for editing: this change is no longer waiting/)).toBeTruthy();
  expect(screen.queryByTestId("diff-edit-text")).toBeNull();
  expect(screen.getAllByTestId("diff-hunk")).toHaveLength(2);
});

async function setup(c: ChangeView = change) {
  const b = new FakeBackend();
  b.details[1] = detail(1, { pending: [approval], state: "awaiting_approval" });
  b.changes.ap1 = c;
  renderApp(b);
  fireEvent.click(await screen.findByText("Session 1"));
  await screen.findByTestId("diff-view");
  return b;
}

describe("diff review", () => {
  it("renders hunks side by side (golden)", async () => {
    await setup();
    const view = screen.getByTestId("diff-view");
    expect(view.getAttribute("data-path")).toBe("main.go");
    expect(screen.getAllByTestId("diff-hunk").map((h) => h.getAttribute("data-hunk-index"))).toEqual(["0", "1"]);
    expect(view.outerHTML).toMatchSnapshot();
  });

  it("renders the unified view (golden)", async () => {
    await setup();
    fireEvent.click(screen.getByRole("radio", { name: "Unified" }));
    expect(screen.getByTestId("diff-view").querySelector("table")?.className).toContain("unified");
    expect(screen.getAllByTestId("diff-hunk")[1]!.outerHTML).toMatchSnapshot();
  });

  it("shows a new file as all added", async () => {
    await setup({
      approvalId: "ap1",
      tool: "write_file",
      files: [{ path: "new.ts", isNew: true, emptied: false, hunks: [{ index: 0, oldStart: 0, oldLines: 0, newStart: 1, newLines: 2, lines: [{ kind: "add", text: "a", newNo: 1 }, { kind: "add", text: "b", newNo: 2 }] }] }],
    });
    expect(screen.getByText("new file")).toBeTruthy();
    const hunk = screen.getByTestId("diff-hunk");
    expect(hunk.querySelectorAll("td.code.add")).toHaveLength(2);
    expect(hunk.querySelectorAll("td.code.del")).toHaveLength(0);
  });

  it("submits per-hunk decisions with feedback once every hunk is decided", async () => {
    const b = await setup();
    fireEvent.change(screen.getByTestId("reject-feedback"), { target: { value: "keep b as it was" } });
    const [h0, h1] = screen.getAllByTestId("diff-hunk");
    fireEvent.click(within(h0!).getByTestId("hunk-approve"));
    expect(h0!.getAttribute("data-decision")).toBe("approved");
    expect(b.callsOf("decideChange")).toHaveLength(0);
    fireEvent.click(within(h1!).getByTestId("hunk-reject"));
    await waitFor(() => expect(b.callsOf("decideChange")).toHaveLength(1));
    expect(b.callsOf("decideChange")[0]).toEqual([
      "ap1",
      { files: [{ path: "main.go", hunks: [true, false] }], feedback: "keep b as it was", alwaysAllow: false },
    ]);
  });

  it("approves all at once", async () => {
    const b = await setup();
    fireEvent.click(screen.getByTestId("diff-approve-all"));
    await waitFor(() => expect(b.callsOf("decideChange")).toHaveLength(1));
    expect(b.callsOf("decideChange")[0]![1]).toEqual({ files: [{ path: "main.go", hunks: [true, true] }], feedback: "", alwaysAllow: false });
  });

  it("rejects all with feedback", async () => {
    const b = await setup();
    fireEvent.change(screen.getByTestId("reject-feedback"), { target: { value: "use a map instead" } });
    fireEvent.click(screen.getByTestId("diff-reject-all"));
    await waitFor(() => expect(b.callsOf("decideChange")).toHaveLength(1));
    expect(b.callsOf("decideChange")[0]![1]).toEqual({ files: [{ path: "main.go", hunks: [false, false] }], feedback: "use a map instead", alwaysAllow: false });
  });

  it("approves an edited version, starting from the proposed text fetched for it", async () => {
    const b = await setup();
    b.proposed["ap1:main.go"] = proposedText;
    fireEvent.click(screen.getByTestId("diff-edit"));
    const editor = (await screen.findByTestId("diff-edit-text")) as HTMLTextAreaElement;
    expect(b.callsOf("proposedText")).toEqual([["ap1", "main.go"]]);
    expect(editor.value).toBe(proposedText);
    fireEvent.change(editor, { target: { value: "package main\n// mine\n" } });
    fireEvent.click(screen.getByTestId("diff-edit-approve"));
    await waitFor(() => expect(b.callsOf("decideChange")).toHaveLength(1));
    expect(b.callsOf("decideChange")[0]![1]).toEqual({
      files: [{ path: "main.go", hunks: [true, true], editedText: "package main\n// mine\n" }],
      feedback: "",
      alwaysAllow: false,
    });
  });

  it("decides from the keyboard: n, then y (moves on by itself)", async () => {
    const b = await setup();
    const card = screen.getByTestId("change-review");
    card.focus();
    fireEvent.keyDown(card, { key: "n" });
    expect(screen.getAllByTestId("diff-hunk")[0]!.getAttribute("data-decision")).toBe("rejected");
    fireEvent.keyDown(card, { key: "y" });
    await waitFor(() => expect(b.callsOf("decideChange")).toHaveLength(1));
    expect(b.callsOf("decideChange")[0]![1]).toMatchObject({ files: [{ path: "main.go", hunks: [false, true] }] });
  });

  it("leaves the panel when the approval is done", async () => {
    const b = await setup();
    act(() => b.emit("agent:approval_done", { sessionId: 1, seq: 1, approvalId: "ap1", outcome: "approved" }));
    await waitFor(() => expect(screen.queryByTestId("diff-view")).toBeNull());
  });

  it("asks about a command with cwd and timeout, and can always allow it", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, { pending: [{ id: "c1", kind: "command", toolCallId: "t2", tool: "run_bash", command: "go test ./...", cwd: "/home/u/proj", timeoutSeconds: 120, alwaysRules: ['allow run_bash "go test ./..."'] }] });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("bash-approval");
    expect(card.textContent).toContain("go test ./...");
    expect(card.textContent).toContain("/home/u/proj");
    expect(card.textContent).toContain("120 s");
    fireEvent.click(within(card).getByTestId("bash-always"));
    fireEvent.click(within(card).getByTestId("bash-approve"));
    await waitFor(() => expect(b.callsOf("decideCommand")).toEqual([["c1", { approve: true, feedback: "", alwaysAllow: true }]]));
  });

  it("does not offer always allow for a command no rule can allow, and says why", async () => {
    const b = new FakeBackend();
    const why = '"Always allow" is not offered: no rule can allow this command, so it is asked every time.';
    b.details[1] = detail(1, { pending: [{ id: "c2", kind: "command", toolCallId: "t3", tool: "run_bash", command: "cat $(ls)", noAlways: why }] });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("bash-approval");
    expect(within(card).queryByTestId("bash-always")).toBeNull();
    expect(within(card).getByTestId("bash-no-always").textContent).toBe(why);
    fireEvent.click(within(card).getByTestId("bash-approve"));
    await waitFor(() => expect(b.callsOf("decideCommand")).toEqual([["c2", { approve: true, feedback: "", alwaysAllow: false }]]));
  });

  it("chooses the card by the approval's kind, not by its tool name", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      pending: [
        { id: "f1", kind: "fetch", toolCallId: "t4", tool: "web_fetch", command: "Fetch https://go.dev/", host: "go.dev" },
        { id: "b2", kind: "budget", toolCallId: "", tool: "web_fetch", command: "Continue past the session budget?" },
        { id: "m2", kind: "mcp", toolCallId: "t5", tool: "mcp__s__t", command: "MCP s: t {}", server: "s", mcpTool: "t", arguments: "{}" },
      ],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    expect((await screen.findByTestId("fetch-approval")).getAttribute("data-approval-id")).toBe("f1");
    expect(screen.getByTestId("budget-approval").getAttribute("data-approval-id")).toBe("b2");
    expect(screen.getByTestId("bash-approval").getAttribute("data-kind")).toBe("mcp");
  });

  it("asks whether a turn may go past the budget, and stopping tells the model why", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, { pending: [{ id: "b1", kind: "budget", toolCallId: "", tool: "", command: "Continue past the session budget ($1.00) for another budget's worth?" }] });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("budget-approval");
    expect(card.textContent).toContain("$1.00");
    expect(screen.queryByTestId("bash-approval")).toBeNull();
    fireEvent.click(within(card).getByTestId("budget-stop"));
    await waitFor(() =>
      expect(b.callsOf("decideCommand")).toEqual([["b1", { approve: false, feedback: "The user stopped the turn at the session budget.", alwaysAllow: false }]]),
    );
  });
});
