// Plan mode in the window: Shift+Tab into plan, a model that tries to write
// anyway is refused, the plan card, feedback for a second plan, approval
// into ask with the edit reviewed as a diff, the task list ticking off,
// and the list and the mode restored after a restart.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { docShot } from "./ledger-helpers.mjs";
import { eventually, modelRequests, openProject, sel, send, startChat, waitDiff, waitTurnDone, wideWindow } from "./helpers.mjs";

const plan = (text, steps) => ({ name: "present_plan", input: { plan: text, steps } });
const todos = (...items) => ({ name: "todo_write", input: { todos: items.map(([content, status]) => ({ content, status })) } });

const script = {
  turns: [
    // Plan mode: a read, and a write the loop must refuse.
    {
      when: { lastUserContains: "Plan the change" },
      toolCalls: [
        { name: "read_file", input: { path: "notes.txt" } },
        { name: "write_file", input: { path: "evil.txt", content: "written in plan mode" } },
      ],
    },
    { when: { toolResultContains: "plan mode" }, text: "Here is my plan.", toolCalls: [plan("## First plan\nMark the notes final.", ["Patch notes.txt"])] },
    { when: { lastUserContains: "Also say when" }, toolCalls: [plan("## Second plan\nMark the notes final and date them.", ["Patch notes.txt", "Check the result"])] },
    // The work, in ask mode: the list, then the edit for review.
    {
      when: { lastUserContains: "I approve this plan" },
      toolCalls: [
        todos(["Patch notes.txt", "in_progress"], ["Check the result", "pending"]),
        { name: "patch_file", input: { path: "notes.txt", old_text: "status: draft", new_text: "status: final (24 Nov)" } },
      ],
    },
    { when: { toolResultContains: "0 of 2 done" }, toolCalls: [todos(["Patch notes.txt", "done"], ["Check the result", "done"])] },
    { when: { toolResultContains: "2 of 2 done" }, text: "The notes are final." },
  ],
};

const cycleMode = async (page) => page.locator(sel.input).press("Shift+Tab");
const mode = (page) => page.locator("[data-testid=mode-select]").getAttribute("data-mode");
const todoStates = (page) =>
  page.locator("[data-testid=todo-item]").evaluateAll((els) => els.map((e) => `${e.querySelector(".todo-content")?.textContent}:${e.getAttribute("data-status")}`));

export const tests = [
  {
    name: "plan, feedback, approve into ask: the edit is reviewed and the task list ticks off, and both survive a restart",
    manualStart: true,
    timeout: 180_000,
    async fn(ctx) {
      const { page } = ctx;
      await wideWindow(page);
      const { llm, project, sessionId } = await startChat(ctx, script, { "notes.txt": "status: draft\n" });

      assert.equal(await mode(page), "ask");
      await cycleMode(page);
      await ctx.waitFor(async () => (await mode(page)) === "edits", { message: "Shift+Tab: edits" });
      await cycleMode(page);
      await ctx.waitFor(async () => (await mode(page)) === "plan", { message: "Shift+Tab: plan" });

      await send(ctx, "Plan the change: mark the notes final");
      const first = page.locator("[data-testid=plan-card]").first();
      await first.waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      assert.match(await first.innerText(), /First plan/);
      await page.locator(`${sel.toolCall}[data-tool=write_file][data-status=rejected]`).waitFor({ state: "attached" });
      assert.equal(existsSync(join(project, "evil.txt")), false, "a write in plan mode never reaches the disk");
      const offered = (await modelRequests(llm))[0].tools;
      assert.ok(offered.includes("present_plan") && !offered.includes("write_file") && !offered.includes("run_bash"), `plan mode offers ${offered}`);

      // Keep planning: the feedback is the next message, still in plan mode.
      await page.fill("[data-testid=plan-feedback]", "Also say when they became final");
      await page.click("[data-testid=plan-keep]");
      const cards = page.locator("[data-testid=plan-card]");
      await ctx.waitFor(async () => (await cards.count()) === 2, { message: "a second plan" });
      await waitTurnDone(ctx);
      await eventually(async () => {
        assert.equal(await cards.nth(0).getAttribute("data-state"), "answered");
        assert.equal(await mode(page), "plan");
      });
      const second = cards.nth(1);
      assert.match(await second.innerText(), /Second plan/);
      await second.scrollIntoViewIfNeeded();
      await docShot(page, "plan-card.png");

      // Approve into ask: the mode switches and the edit waits for review.
      await second.locator("[data-testid=plan-approve-mode]").selectOption("ask");
      await eventually(async () => assert.equal(await second.locator("[data-testid=plan-approve]").getAttribute("aria-label"), "Approve the plan and continue in ask mode"));
      await second.locator("[data-testid=plan-approve]").click();
      await ctx.waitFor(async () => (await mode(page)) === "ask", { message: "the mode switched to ask" });
      const view = await waitDiff(ctx, "notes.txt");
      assert.equal(readFileSync(join(project, "notes.txt"), "utf8"), "status: draft\n", "nothing written before the review");
      await page.locator("[data-testid=todo-list]").waitFor();
      await eventually(async () => assert.deepEqual(await todoStates(page), ["Patch notes.txt:in_progress", "Check the result:pending"]));
      await docShot(page, "plan-tasks.png");
      const work = await ctx.waitFor(async () => (await modelRequests(llm)).find((r) => /I approve this plan/.test(r.lastUserText ?? "")), {
        message: "the work turn at the fake LLM",
      });
      assert.match(work.lastUserText, /I approve this plan\. Carry it out now, in ask mode/);
      assert.match(work.lastUserText, /## Second plan[\s\S]*## Steps\n1\. Patch notes\.txt\n2\. Check the result/);

      await page.click("[data-testid=diff-approve-all]");
      await view.waitFor({ state: "detached", timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "The notes are final." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      assert.equal(readFileSync(join(project, "notes.txt"), "utf8"), "status: final (24 Nov)\n");
      await eventually(async () => {
        assert.deepEqual(await todoStates(page), ["Patch notes.txt:done", "Check the result:done"]);
        assert.equal(await second.getAttribute("data-state"), "answered");
      });

      // A new process: the session keeps its list and its mode.
      await ctx.restartApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project } });
      await openProject(ctx, project);
      const item = page.locator(`[data-testid=session-list] [data-testid=session-item][data-session-id="${sessionId}"]`);
      await item.waitFor({ state: "visible", timeout: 30_000 });
      await item.locator("button.list-button").click();
      await page.locator(sel.assistant, { hasText: "The notes are final." }).waitFor({ timeout: 30_000 });
      await page.locator("[data-testid=todo-list]").waitFor();
      await eventually(async () => {
        assert.deepEqual(await todoStates(page), ["Patch notes.txt:done", "Check the result:done"]);
        assert.equal(await mode(page), "ask");
        assert.equal(await page.locator("[data-testid=plan-card]").count(), 2);
      });
    },
  },
];
