import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import type { Approval, ElicitField, ToolCall } from "../../lib/wire.gen";
import { contentOf, initialValues, problems } from "../../lib/elicitation";

// The form of the test server's "ask" tool (backend/internal/mcptest), as
// backend/mcp.Form reads it: required fields first, then by name.
const fields: ElicitField[] = [
  { name: "name", title: "Your name", description: "As people call you.", type: "string", required: true, minLength: 1, maxLength: 50 },
  { name: "email", title: "Email", type: "string", required: true, format: "email" },
  { name: "age", title: "Age", type: "integer", minimum: 0, maximum: 150, default: 30 },
  { name: "color", title: "Colour", type: "string", options: [{ value: "red", title: "Red" }, { value: "blue", title: "Blue" }], default: "blue" },
  { name: "subscribe", title: "Subscribe", type: "boolean", default: false },
  { name: "tags", title: "Tags", type: "multi", options: [{ value: "a" }, { value: "b" }, { value: "c" }] },
];

const message = 'Who are you? <a href="https://example.com/">click me</a> [or me](https://example.com/)';

const call: ToolCall = { id: "c1", messageId: 2, name: "mcp__t__ask", label: "→ MCP t: ask {}", input: {}, status: "awaiting_approval", output: "", isError: false, startedAt: 1 };
const form: Approval = { id: "e1", kind: "elicitation", toolCallId: "c1", tool: "mcp__t__ask", server: "t", elicitation: { server: "t", message, fields } };

function withForm(b: FakeBackend) {
  b.details[1] = detail(1, {
    state: "awaiting_approval",
    pending: [form],
    messages: [{ id: 2, role: "assistant", state: "complete", createdAt: 2, blocks: [{ type: "tool_use", id: "c1", name: "mcp__t__ask", input: {} }] }],
    toolCalls: [call],
  });
}

describe("an MCP server's form", () => {
  it("starts from the defaults, says what is wrong in words, and sends only what fits", () => {
    const v = initialValues(fields);
    expect(v).toEqual({ name: "", email: "", age: "30", color: "blue", subscribe: false, tags: [] });
    expect(problems(fields, v)).toEqual({ name: "is required.", email: "is required." });
    const filled = { ...v, name: "Ada", email: "ada", age: "1.5", tags: ["a"] };
    expect(problems(fields, filled)).toEqual({ email: "must be an email address, like name@example.com.", age: "must be a whole number." });
    const ok = { ...filled, email: "ada@example.com", age: "40" };
    expect(problems(fields, ok)).toEqual({});
    expect(contentOf(fields, ok)).toEqual({ name: "Ada", email: "ada@example.com", age: 40, color: "blue", subscribe: false, tags: ["a"] });
  });

  it("shows on the call's card with the server's name and its message as text, and submits the values", async () => {
    const b = new FakeBackend();
    withForm(b);
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("tool-call");
    const f = within(card).getByTestId("elicitation-form");
    expect(within(f).getByTestId("elicitation-server").textContent).toBe("t");
    const shown = within(f).getByTestId("elicitation-message");
    expect(shown.textContent).toBe(message);
    expect(shown.querySelector("a")).toBeNull();
    expect(within(f).getAllByTestId("elicitation-field").map((x) => x.getAttribute("data-name"))).toEqual(["name", "email", "age", "color", "subscribe", "tags"]);
    expect(within(f).getByText("As people call you.")).toBeTruthy();
    expect((within(f).getByLabelText(/Age/) as HTMLInputElement).value).toBe("30");

    fireEvent.click(within(f).getByTestId("elicitation-submit"));
    expect(within(f).getAllByTestId("elicitation-problem").map((p) => p.textContent)).toEqual(["Your name is required.", "Email is required."]);
    expect(b.callsOf("decideElicitation")).toEqual([]);

    fireEvent.change(within(f).getByLabelText(/Your name/), { target: { value: "Ada" } });
    fireEvent.change(within(f).getByLabelText(/Email/), { target: { value: "ada@example.com" } });
    fireEvent.click(within(f).getByLabelText("b"));
    fireEvent.click(within(f).getByTestId("elicitation-submit"));
    await waitFor(() =>
      expect(b.callsOf("decideElicitation")).toEqual([["e1", { action: "accept", content: { name: "Ada", email: "ada@example.com", age: 30, color: "blue", subscribe: false, tags: ["b"] } }]]),
    );
  });

  it("says what Go refused, and declines", async () => {
    const b = new FakeBackend();
    withForm(b);
    b.elicitationRefusal = "not sent: «Email» must be an email address, like name@example.com.";
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const f = await screen.findByTestId("elicitation-form");
    fireEvent.change(within(f).getByLabelText(/Your name/), { target: { value: "Ada" } });
    fireEvent.change(within(f).getByLabelText(/Email/), { target: { value: "a@b.c" } });
    fireEvent.click(within(f).getByTestId("elicitation-submit"));
    expect((await within(f).findByTestId("elicitation-refused")).textContent).toContain("«Email» must be an email address");
    b.elicitationRefusal = null;
    fireEvent.click(within(f).getByTestId("elicitation-decline"));
    await waitFor(() => expect(b.callsOf("decideElicitation").at(-1)).toEqual(["e1", { action: "decline" }]));
  });

  it("keeps what was asked and answered on the card", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      messages: [{ id: 2, role: "assistant", state: "complete", createdAt: 2, blocks: [{ type: "tool_use", id: "c1", name: "mcp__t__ask", input: {} }] }],
      toolCalls: [{ ...call, status: "done", elicitations: [{ server: "t", message, fields, action: "accept", content: { name: "Ada" } }, { server: "t", message, fields, action: "decline" }] }],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const records = await screen.findAllByTestId("elicitation-record");
    expect(records.map((r) => r.getAttribute("data-action"))).toEqual(["accept", "decline"]);
    expect(records[0]!.textContent).toContain('{"name":"Ada"}');
    expect(records[1]!.textContent).toContain("declined by you");
    expect(screen.queryByTestId("elicitation-form")).toBeNull();
  });
});
