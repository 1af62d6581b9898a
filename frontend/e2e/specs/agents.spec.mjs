// A custom agent of the project (.claude/agents/fixer.md, tools Read and
// Write) in the real window: the model hands it a task with subagent_type;
// its write waits for the user's review as a card nested under the task
// card, nothing is on disk until it is approved, and then it lands.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eventually, sel, send, startChat, waitDiff, waitTurnDone } from "./helpers.mjs";
import { defaultWindow, docShot } from "./ledger-helpers.mjs";

export const tests = [
  {
    name: "an editing custom agent's change waits for review, nested under its task card",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const script = {
        turns: [
          {
            when: { lastUserContains: "Fix the greeting" },
            toolCalls: [{ id: "t1", name: "task", input: { description: "fix the greeting", prompt: "AGENT-FIX: greeting.txt says helo; write it as hello.", subagent_type: "fixer" } }],
          },
          { when: { lastUserContains: "AGENT-FIX" }, toolCalls: [{ id: "w1", name: "write_file", input: { path: "greeting.txt", content: "hello\n" } }] },
          { when: { toolResultContains: "FIXER-DONE" }, text: "The fixer corrected the greeting." },
          { when: { toolResultContains: "greeting.txt" }, text: "FIXER-DONE: greeting.txt now says hello." },
        ],
      };
      const files = {
        ".claude/agents/fixer.md": "---\nname: fixer\ndescription: Fixes typos in text files.\ntools: Read, Write\n---\nYou fix typos. Change only what is wrong.\n",
      };
      const { project } = await startChat(ctx, script, files);
      await send(ctx, "Fix the greeting with the fixer agent");

      // The change waits for review; the agent's write is a card under the task card.
      await waitDiff(ctx, "greeting.txt");
      assert.equal(existsSync(join(project, "greeting.txt")), false, "nothing lands before the review");
      const task = page.locator(`${sel.toolCall}[data-tool=task]`);
      assert.match(await task.locator(".tool-label").first().innerText(), /Agent fixer: fix the greeting/);
      if ((await task.locator("[data-testid=helper-calls]").count()) === 0) await task.locator(".tool-head").first().click();
      const nested = task.locator('[data-testid=helper-calls] [data-testid=tool-call][data-tool=write_file]');
      await nested.waitFor();
      assert.equal(await nested.getAttribute("data-parent-id"), "t1");
      await eventually(async () => assert.equal(await nested.getAttribute("data-status"), "awaiting_approval"));
      await docShot(page, "custom-agent.png");

      await page.click("[data-testid=diff-approve-all]");
      await page.locator(sel.assistant, { hasText: "The fixer corrected the greeting." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      assert.equal(readFileSync(join(project, "greeting.txt"), "utf8"), "hello\n");
      await eventually(async () => assert.equal(await nested.getAttribute("data-status"), "done"));
    },
  },
];
