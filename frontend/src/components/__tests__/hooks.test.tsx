import { describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import type { HookRun, ToolCall } from "../../lib/wire.gen";
import { hookName } from "../chat/HookRuns";

const guard: HookRun = {
  event: "PreToolUse",
  hook: "/home/me/.claude/hooks/guard.sh",
  file: "/home/me/.claude/settings.json",
  decision: "deny",
  ms: 12,
  exitCode: 2,
  message: "No rm here: use the trash command instead.",
  stderr: "No rm here: use the trash command instead.\n",
};
const slow: HookRun = { event: "PreToolUse", hook: "sleep 600", file: "/p/.claude/settings.json", decision: "error", ms: 1003, exitCode: -1, timedOut: true, message: "did not finish within 1s" };
const fmt: HookRun = { event: "PostToolUse", hook: "prettier --write", file: "/s.json", decision: "none", ms: 40, exitCode: 0, stdout: "formatted\n" };

const call = (id: string, c: Partial<ToolCall>): ToolCall => ({
  id,
  messageId: 2,
  name: "run_bash",
  label: "→ Running bash: rm -rf build",
  input: {},
  status: "done",
  output: "",
  isError: false,
  startedAt: 1,
  ...c,
});

// Before: a tool card showed nothing of the hooks that ran for it (there
// were none), so a blocking or failing hook would have been invisible.
describe("hook runs on a tool card", () => {
  it("shows each run with its event, hook, decision and time, and what it printed on demand", async () => {
    const calls = [
      call("blocked", { status: "rejected", refusedBy: "hook", refusedRule: guard.hook, isError: true, output: "Not run: a PreToolUse hook blocked this call.", hooks: [guard] }),
      call("written", { name: "write_file", label: "→ Writing file: a.txt", hooks: [slow, fmt] }),
    ];
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      messages: [{ id: 2, role: "assistant", state: "complete", createdAt: 2, blocks: calls.map((c) => ({ type: "tool_use" as const, id: c.id, name: c.name, input: {} })) }],
      toolCalls: calls,
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const cards = await screen.findAllByTestId("tool-call");
    const first = within(cards[0]!).getAllByTestId("hook-run");
    expect(first.map((r) => [r.dataset.event, r.dataset.decision, r.dataset.hook, r.dataset.ms])).toEqual([["PreToolUse", "deny", guard.hook, "12"]]);
    expect(within(cards[0]!).getByTestId("tool-refusal").textContent).toBe("blocked by hook …/guard.sh");
    expect(first[0]!.textContent).toContain("blocked");
    fireEvent.click(within(first[0]!).getByRole("button"));
    expect(within(first[0]!).getByTestId("hook-output").textContent).toContain("No rm here: use the trash command instead.");

    const second = within(cards[1]!).getAllByTestId("hook-run");
    expect(second.map((r) => [r.dataset.event, r.dataset.decision])).toEqual([
      ["PreToolUse", "error"],
      ["PostToolUse", "none"],
    ]);
    expect(second[0]!.textContent).toContain("timed out");
    expect(second[0]!.textContent).toContain("1,003 ms");
    fireEvent.click(within(second[1]!).getByRole("button"));
    expect(within(second[1]!).getByTestId("hook-output").textContent).toContain("formatted");
  });

  it("names a hook by its command's last path parts", () => {
    expect(hookName("/home/me/.claude/hooks/guard.sh")).toBe("…/guard.sh");
    expect(hookName("node /usr/lib/x/block.js --strict extra words")).toBe("node …/block.js --strict");
    expect(hookName("echo ok")).toBe("echo ok");
  });
});
