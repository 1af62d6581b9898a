import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";

const badPattern = 'The pattern "rm [x" of the rule cannot be read, as a [ or { in it is not closed: close it, or escape it with a backslash (\\[ or \\{).';

async function openSettings(b: FakeBackend) {
  renderApp(b);
  fireEvent.click(await screen.findByTestId("settings-open"));
  return screen.findByTestId("settings-rules");
}

describe("permission rules in Settings", () => {
  it("flags a stored rule that cannot match, with its sentence and its delete button", async () => {
    const b = new FakeBackend();
    b.rules = [
      { id: 1, tool: "run_bash", pattern: "go test *", effect: "allow", invalid: "" },
      { id: 2, tool: "run_bash", pattern: "rm [x", effect: "deny", invalid: badPattern },
    ];
    const rules = await openSettings(b);
    const items = await within(rules).findAllByTestId("rule-item");
    expect(items.map((i) => i.getAttribute("data-invalid"))).toEqual(["false", "true"]);
    expect(within(items[0]!).queryByTestId("rule-problem")).toBeNull();
    // Flagged in words, not only by colour.
    expect(items[1]!.textContent).toContain("never matches");
    expect(within(items[1]!).getByTestId("rule-problem").textContent).toContain(badPattern);
    fireEvent.click(within(items[1]!).getByRole("button", { name: "Remove rule run_bash rm [x" }));
    await waitFor(() => expect(b.callsOf("deleteRule")).toEqual([[1, 2]]));
    await waitFor(() => expect(within(rules).getAllByTestId("rule-item")).toHaveLength(1));
  });

  it("refuses a bad rule with the backend's sentence inline and keeps what was typed", async () => {
    const b = new FakeBackend();
    b.refuseRule = (_tool, pattern) => (pattern === "rm [x" ? badPattern : null);
    const rules = await openSettings(b);
    const tool = within(rules).getByLabelText("Tool") as HTMLInputElement;
    const pattern = within(rules).getByLabelText("Pattern") as HTMLInputElement;
    const effect = within(rules).getByLabelText("Effect") as HTMLSelectElement;
    fireEvent.change(tool, { target: { value: "run_bash" } });
    fireEvent.change(pattern, { target: { value: "rm [x" } });
    fireEvent.change(effect, { target: { value: "deny" } });
    fireEvent.click(within(rules).getByRole("button", { name: "Add rule" }));
    const error = await within(rules).findByTestId("rule-error");
    expect(error.textContent).toBe(badPattern);
    expect(error.getAttribute("role")).toBe("alert");
    expect(b.callsOf("addRule")).toEqual([[1, "run_bash", "rm [x", "deny"]]);
    expect(within(rules).queryAllByTestId("rule-item")).toHaveLength(0);
    expect([tool.value, pattern.value, effect.value]).toEqual(["run_bash", "rm [x", "deny"]);
    expect(pattern.getAttribute("aria-invalid")).toBe("true");
    // No banner: the sentence belongs to the form.
    expect(screen.queryByTestId("error-banner")).toBeNull();

    // Corrected, it is added and the message goes.
    fireEvent.change(pattern, { target: { value: "rm \\[x" } });
    expect(within(rules).queryByTestId("rule-error")).toBeNull();
    fireEvent.keyDown(pattern, { key: "Enter" });
    const item = await within(rules).findByTestId("rule-item");
    expect(item.getAttribute("data-invalid")).toBe("false");
    expect(item.textContent).toContain("rm \\[x");
    expect(pattern.value).toBe("");
  });
});

describe("always allow on an approval card", () => {
  it("shows the rules a compound command's always allow adds", async () => {
    const b = new FakeBackend();
    const rules = ['allow run_bash "go build ./..."', 'allow run_bash "go test ./..."'];
    b.details[1] = detail(1, {
      pending: [{ id: "c1", kind: "command", toolCallId: "t1", tool: "run_bash", command: "go build ./... && go test ./...", alwaysRules: rules }],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("bash-approval");
    const shown = within(card).getByTestId("always-rules");
    expect(shown.textContent).toBe(`Always allow adds these 2 rules:${rules.join("")}`);
    expect(within(card).getAllByTestId("always-rule").map((r) => r.textContent)).toEqual(rules);
    fireEvent.click(within(card).getByTestId("bash-always"));
    fireEvent.click(within(card).getByTestId("bash-approve"));
    await waitFor(() => expect(b.callsOf("decideCommand")).toEqual([["c1", { approve: true, feedback: "", alwaysAllow: true }]]));
  });

  it("does not offer always allow when there is no rule to add", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      pending: [
        { id: "c1", kind: "command", toolCallId: "t1", tool: "run_bash", command: 'eval "$X"' },
        { id: "w1", kind: "fetch", toolCallId: "t2", tool: "web_fetch", command: "Fetch https://go.dev/", host: "go.dev", alwaysRules: [] },
      ],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("bash-approval");
    expect(within(card).queryByTestId("bash-always")).toBeNull();
    expect(within(card).queryByTestId("always-rules")).toBeNull();
    fireEvent.click(within(card).getByTestId("bash-approve"));
    await waitFor(() => expect(b.callsOf("decideCommand")[0]).toEqual(["c1", { approve: true, feedback: "", alwaysAllow: false }]));
    const fetch = await screen.findByTestId("fetch-approval");
    expect(within(fetch).queryByTestId("fetch-always")).toBeNull();
  });

  it("shows the host rule a web fetch's always allow adds", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      pending: [{ id: "w1", kind: "fetch", toolCallId: "t2", tool: "web_fetch", command: "Fetch https://go.dev/", host: "go.dev", alwaysRules: ['allow web_fetch "go.dev"'] }],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const fetch = await screen.findByTestId("fetch-approval");
    expect(within(fetch).getByTestId("always-rules").textContent).toBe('Always allow adds this rule:allow web_fetch "go.dev"');
    expect(within(fetch).getByTestId("fetch-always")).toBeTruthy();
  });
});
