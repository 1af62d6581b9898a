import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import type { ToolCall } from "../../lib/wire.gen";

const call = (over: Partial<ToolCall>): ToolCall => ({
  id: "t1",
  messageId: 2,
  name: "task",
  label: "→ Helper: find alpha",
  input: {},
  status: "done",
  output: "Alpha lives in alpha.txt.",
  isError: false,
  startedAt: 1,
  ...over,
});

const assistant = {
  id: 2,
  role: "assistant" as const,
  state: "complete" as const,
  createdAt: 2,
  blocks: [{ type: "tool_use" as const, id: "t1", name: "task", input: {} }],
};

describe("a helper's calls under its task card", () => {
  it("are nested and collapsed under the task, stored ones and live ones", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      messages: [assistant],
      toolCalls: [call({}), call({ id: "t1/1", parentId: "t1", name: "read_file", label: "→ Reading file: alpha.txt", output: "alpha-content" })],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const cards = await screen.findAllByTestId("tool-call");
    // One card in the transcript: the nested one is not beside it.
    expect(cards.map((c) => c.getAttribute("data-tool"))).toEqual(["task"]);
    const task = cards[0]!;
    expect(within(task).getByTestId("helper-status").getAttribute("data-calls")).toBe("1");
    expect(within(task).queryByTestId("helper-calls")).toBeNull(); // collapsed
    fireEvent.click(within(task).getAllByRole("button")[0]!);
    const nested = within(within(task).getByTestId("helper-calls")).getAllByTestId("tool-call");
    expect(nested.map((c) => [c.getAttribute("data-tool"), c.getAttribute("data-parent-id"), c.getAttribute("data-status")])).toEqual([["read_file", "t1", "done"]]);
    expect(within(nested[0]!).queryByTestId("tool-output")).toBeNull(); // nested cards start collapsed too
    expect(within(task).getAllByTestId("tool-output").at(-1)!.textContent).toBe("Alpha lives in alpha.txt.");

    act(() => b.emit("agent:tool", { sessionId: 1, seq: 1, call: call({ id: "t1/2", parentId: "t1", name: "grep", label: "→ Searching: alpha", status: "running", output: "" }) }));
    await waitFor(() => expect(within(task).getByTestId("helper-status").getAttribute("data-calls")).toBe("2"));
    expect(within(within(task).getByTestId("helper-calls")).getAllByTestId("tool-call").map((c) => c.getAttribute("data-status"))).toEqual(["done", "running"]);
    expect(screen.getAllByTestId("tool-call").filter((c) => !c.getAttribute("data-parent-id"))).toHaveLength(1);
  });
});

describe("a web page waiting for approval", () => {
  it("names the host and the URL, and can allow the host always", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      pending: [{ id: "w1", kind: "fetch", toolCallId: "f1", tool: "web_fetch", command: "Fetch https://go.dev/doc/", host: "go.dev", alwaysRules: ['allow web_fetch "go.dev"'] }],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("fetch-approval");
    expect(card.getAttribute("data-host")).toBe("go.dev");
    expect(within(card).getByTestId("fetch-url").textContent).toBe("https://go.dev/doc/");
    fireEvent.click(within(card).getByTestId("fetch-always"));
    fireEvent.click(within(card).getByTestId("fetch-approve"));
    await waitFor(() => expect(b.callsOf("decideCommand")).toEqual([["w1", { approve: true, feedback: "", alwaysAllow: true }]]));
  });
});
