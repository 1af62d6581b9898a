import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend, summary } from "../../test/fakeBackend";
import type { Message, SessionDetail, ToolCall } from "../../lib/wire.gen";

const planInput = { plan: "## Goal\nRename **the** package.", steps: ["Patch main.go", "Run go build"] };
const planned: SessionDetail["messages"] = [
  { id: 1, role: "user", blocks: [{ type: "text", text: "Plan a rename" }], state: "complete", createdAt: 1 },
  { id: 2, role: "assistant", blocks: [{ type: "tool_use", id: "p1", name: "present_plan", input: planInput }], state: "complete", createdAt: 2 },
  { id: 3, role: "user", blocks: [{ type: "tool_result", toolUseId: "p1", text: "shown" }], state: "complete", createdAt: 3 },
];
const planCall: ToolCall = { id: "p1", messageId: 2, name: "present_plan", label: "→ Presenting the plan (2 steps)", input: planInput, status: "done", output: "shown", isError: false, startedAt: 2 };

async function open(b: FakeBackend) {
  renderApp(b);
  fireEvent.click(await screen.findByText("Session 1"));
  await screen.findByTestId("chat-input");
  await waitFor(() => expect(b.callsOf("getSession")).toHaveLength(1));
  await act(async () => {});
}

function inPlan(over: Partial<SessionDetail> = {}): FakeBackend {
  const b = new FakeBackend();
  b.sessions = [summary(1, { approvalMode: "plan" })];
  b.details[1] = detail(1, { session: b.sessions[0]!, messages: planned, toolCalls: [planCall], ...over });
  return b;
}

describe("plan mode", () => {
  it("shows the session's mode and cycles ask → edits → plan with Shift+Tab in the prompt box", async () => {
    const b = new FakeBackend();
    await open(b);
    const select = screen.getByTestId("mode-select");
    expect(select.getAttribute("data-mode")).toBe("ask");
    const input = screen.getByTestId("chat-input");
    for (const want of ["edits", "plan", "ask"]) {
      fireEvent.keyDown(input, { key: "Tab", shiftKey: true });
      await waitFor(() => expect(screen.getByTestId("mode-select").getAttribute("data-mode")).toBe(want));
    }
    fireEvent.change(select, { target: { value: "none" } });
    await waitFor(() => expect(screen.getByTestId("mode-select").getAttribute("data-mode")).toBe("none"));
    expect(b.callsOf("setSessionMode")).toEqual([[1, "edits"], [1, "plan"], [1, "ask"], [1, "none"]]);
  });

  it("says when the mode could not be changed, and keeps showing the mode in force", async () => {
    const b = new FakeBackend();
    b.setModeError = "session 1: not found";
    await open(b);
    fireEvent.keyDown(screen.getByTestId("chat-input"), { key: "Tab", shiftKey: true });
    await waitFor(() => expect(screen.getAllByTestId("error-banner").some((e) => e.getAttribute("data-kind") === "app")).toBe(true));
    const banner = screen.getAllByTestId("error-banner").find((e) => e.getAttribute("data-kind") === "app")!;
    expect(banner.textContent).toContain("Could not change the mode: session 1: not found");
    expect(screen.getByTestId("mode-select").getAttribute("data-mode")).toBe("ask");
  });

  it("shows a presented plan and approves it, as written, into the chosen mode", async () => {
    const b = inPlan();
    await open(b);
    const card = screen.getByTestId("plan-card");
    expect(card.getAttribute("data-state")).toBe("open");
    expect(card.querySelector("strong")?.textContent).toBe("the");
    expect(screen.getByTestId("plan-steps").textContent).toBe("Patch main.goRun go build");
    expect(screen.queryByTestId("tool-call")).toBeNull();
    fireEvent.change(screen.getByTestId("plan-approve-mode"), { target: { value: "edits" } });
    expect(screen.getByTestId("plan-approve").getAttribute("aria-label")).toBe("Approve the plan and continue in edits mode");
    fireEvent.click(screen.getByTestId("plan-approve"));
    await waitFor(() => expect(screen.getByTestId("mode-select").getAttribute("data-mode")).toBe("edits"));
    expect(b.callsOf("approvePlan")).toEqual([[1, "edits", "## Goal\nRename **the** package.\n\n## Steps\n1. Patch main.go\n2. Run go build"]]);
    // Once the session left plan mode the card is only the plan.
    expect(screen.queryByTestId("plan-approve")).toBeNull();
  });

  it("approves the plan as the user edited it", async () => {
    const b = inPlan();
    await open(b);
    fireEvent.click(screen.getByTestId("plan-edit-toggle"));
    fireEvent.change(screen.getByTestId("plan-edit"), { target: { value: "Only patch main.go." } });
    fireEvent.click(screen.getByTestId("plan-approve"));
    await waitFor(() => expect(b.callsOf("approvePlan")).toEqual([[1, "ask", "Only patch main.go."]]));
  });

  it("keeps planning with the user's feedback, in plan mode", async () => {
    const b = inPlan();
    await open(b);
    const keep = screen.getByTestId("plan-keep") as HTMLButtonElement;
    expect(keep.disabled).toBe(true);
    fireEvent.change(screen.getByTestId("plan-feedback"), { target: { value: "Also rename the tests" } });
    fireEvent.click(keep);
    await waitFor(() => expect(b.callsOf("sendMessage")).toEqual([[1, "Also rename the tests", []]]));
    expect(b.callsOf("setSessionMode")).toEqual([]);
  });

  it("says why a plan was not approved, and stays in plan mode", async () => {
    const b = inPlan();
    b.approvePlanError = "A turn is already running in this session; wait for it to finish or stop it first.";
    await open(b);
    fireEvent.click(screen.getByTestId("plan-approve"));
    const banner = await screen.findByTestId("error-banner");
    expect(banner.textContent).toContain("The plan was not approved: A turn is already running");
    expect(screen.getByTestId("mode-select").getAttribute("data-mode")).toBe("plan");
    expect(screen.getByTestId("plan-approve")).toBeTruthy();
    expect(b.callsOf("reportError")).toHaveLength(1);
  });

  it("offers no decision on a plan the user already answered", async () => {
    const later: Message = { id: 4, role: "user", blocks: [{ type: "text", text: "Shorter, please" }], state: "complete", createdAt: 4 };
    const b = inPlan({ messages: [...planned, later] });
    await open(b);
    expect(screen.getByTestId("plan-card").getAttribute("data-state")).toBe("answered");
    expect(screen.queryByTestId("plan-approve")).toBeNull();
  });
});

describe("task list", () => {
  it("shows the stored list and follows agent:todos live", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, { todos: [{ content: "Read the lexer", status: "in_progress" }, { content: "Fix the bug", status: "pending" }] });
    await open(b);
    const statuses = () => screen.getAllByTestId("todo-item").map((i) => `${i.textContent?.split(" (")[0]}:${i.getAttribute("data-status")}`);
    // Stored with the turn over: the task the agent was on is shown stopped.
    expect(statuses()).toEqual(["◌Read the lexer:in_progress", "○Fix the bug:pending"]);
    expect(screen.getByTestId("todo-list").textContent).toContain("Tasks 0/2");
    act(() => b.emit("agent:state", { sessionId: 1, seq: 1, state: "streaming" }));
    act(() => b.emit("agent:todos", { sessionId: 1, seq: 2, todos: [{ content: "Read the lexer", status: "done" }, { content: "Fix the bug", status: "in_progress" }] }));
    await waitFor(() => expect(statuses()).toEqual(["✓Read the lexer:done", "◐Fix the bug:in_progress"]));
    expect(screen.getByTestId("todo-list").textContent).toContain("Tasks 1/2");
  });

  it("is not shown without tasks", async () => {
    await open(new FakeBackend());
    expect(screen.queryByTestId("todo-list")).toBeNull();
  });
});
