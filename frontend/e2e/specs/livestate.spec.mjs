// Parallel sessions you can see: two sessions of one project run at once
// against the scripted fake LLM. The list shows both states live (one
// waiting for a change, the other streaming), the badge counts the change
// waiting and the tooltip names it; switching back finds the draft left
// there; the header's git state counts the change once it is applied.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eventually, openProject, scriptFile, sel, send, startSession, waitDiff, wideWindow } from "./helpers.mjs";

/** Beta's answer: 60 words streamed 120 ms apart, long enough to be seen streaming beside alpha's wait. */
const slow = Array.from({ length: 60 }, (_, i) => `word${i + 1}`).join(" ");

/** Alpha rewrites a 300-line file in six places far apart: six hunks, a review that scrolls. */
const before = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
const after = before.replace(/^line (10|60|110|160|210|260)$/gm, "line $1 changed");

const script = {
  turns: [
    { when: { toolResultContains: "line 299" }, toolCalls: [{ name: "write_file", input: { path: "long.txt", content: after } }] },
    { when: { hasToolResult: true }, text: "Alpha is done." },
    { when: { lastUserContains: "alpha" }, toolCalls: [{ name: "read_file", input: { path: "long.txt" } }] },
    { when: { lastUserContains: "beta" }, text: `${slow} Beta is done.`, fault: { delayMs: 120 } },
  ],
};

const item = (page, id) => page.locator(`[data-testid=session-item][data-session-id="${id}"]`);

async function stateOf(page, id) {
  return item(page, id).getAttribute("data-state");
}

export const tests = [
  {
    name: "two sessions run at once and the list shows both states live, each keeping its draft and its review",
    manualStart: true,
    timeout: 180_000,
    async fn(ctx) {
      const { page } = ctx;
      await wideWindow(page);
      const llm = await ctx.startFakeLLM(await scriptFile(ctx, script));
      const project = await ctx.projectDir({ "long.txt": before, "b.txt": "beta-file\n" }, { git: true });
      await ctx.startApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project } });
      await openProject(ctx, project);

      // The header: the project folder's branch, nothing uncommitted.
      const git = page.locator("[data-testid=git-status]");
      const alpha = await startSession(ctx);
      await git.waitFor({ state: "visible" });
      assert.equal(await git.getAttribute("data-repo"), "true");
      const branch = await git.getAttribute("data-branch");
      assert.ok(branch, "the header names the branch");
      const uncommitted = Number(await git.getAttribute("data-uncommitted"));

      // Alpha proposes a change and waits for the user, who scrolls down its review.
      await send(ctx, "alpha: write long.txt");
      await waitDiff(ctx, "long.txt");
      await eventually(async () => assert.equal(await stateOf(page, alpha), "waiting"));
      await page.fill(sel.input, "a draft left in alpha");
      // The user goes down to the fifth hunk (j) before leaving.
      const hunks = page.locator(sel.hunk);
      await eventually(async () => assert.equal(await hunks.count() > 0, true));
      for (let i = 0; i < 4; i++) await page.locator(sel.review).press("j");
      await page.locator(`${sel.hunk}.focused[data-hunk-index="4"]`).waitFor({ state: "visible" });

      // Beta starts while alpha waits; its prompt box is its own.
      const beta = await startSession(ctx);
      assert.notEqual(beta, alpha);
      assert.equal(await page.inputValue(sel.input), "", "beta's prompt box does not carry alpha's draft");
      await send(ctx, "beta: answer slowly");

      // Both live at once: beta streaming, alpha still waiting, with its badge and what it waits for.
      await eventually(async () => {
        assert.equal(await stateOf(page, beta), "streaming");
        assert.equal(await stateOf(page, alpha), "waiting");
      });
      const a = item(page, alpha);
      assert.equal(await a.locator("[data-testid=session-waiting]").innerText(), "1");
      assert.match((await a.locator("button").first().getAttribute("title")) ?? "", /^Waiting for you to review a change to long\.txt\.$/);
      assert.equal(await item(page, beta).locator("[data-testid=session-waiting]").count(), 0);
      assert.equal(await a.getAttribute("data-branch"), null, "a session in the project folder has no branch mark");

      // Beta finishes on its own while the user is in it; alpha keeps waiting.
      await page.locator(sel.assistant, { hasText: "Beta is done." }).waitFor({ timeout: 60_000 });
      await eventually(async () => assert.equal(await stateOf(page, beta), "idle"));
      assert.equal(await stateOf(page, alpha), "waiting");

      // Back in alpha: its draft and its review, where it was, are there; approving lets it finish.
      await a.locator("button").first().click();
      const view = await waitDiff(ctx, "long.txt");
      await eventually(async () => assert.equal(await page.inputValue(sel.input), "a draft left in alpha"));
      // The review is at the hunk the user was at, in view.
      await page.locator(`${sel.hunk}.focused[data-hunk-index="4"]`).waitFor({ state: "visible" });
      await eventually(async () => {
        const panel = await page.locator(".review-panel").boundingBox();
        const hunk = await page.locator(`${sel.hunk}[data-hunk-index="4"]`).boundingBox();
        assert.ok(panel && hunk && hunk.y < panel.y + panel.height && hunk.y + hunk.height > panel.y, "the fifth hunk is in the panel's view");
      });
      await page.click("[data-testid=diff-approve-all]");
      await view.waitFor({ state: "detached", timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "Alpha is done." }).waitFor({ timeout: 30_000 });
      await eventually(async () => {
        assert.equal(await stateOf(page, alpha), "idle");
        assert.equal(await a.locator("[data-testid=session-waiting]").count(), 0);
      });
      assert.equal(readFileSync(join(project, "long.txt"), "utf8"), after);

      // The header counts the changed file.
      await eventually(async () => assert.equal(Number(await git.getAttribute("data-uncommitted")), uncommitted + 1));
      assert.equal(await git.getAttribute("data-branch"), branch);
    },
  },
];
