// Background jobs in the real window: a scripted model starts a job that
// prints a line every 50 ms with run_bash background: true; the Jobs panel
// shows its output live, the quit question names it, and Stop ends it with
// no process of it left; the panel passes the accessibility check.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { sel, send, startChat, waitTurnDone } from "./helpers.mjs";
import { check } from "./a11y-helpers.mjs";
import { defaultWindow, docShot } from "./ledger-helpers.mjs";

/** The processes whose command line holds marker ("pid: cmdline"). */
function processesWith(marker) {
  const found = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, "utf8").replaceAll("\0", " ");
      if (cmd.includes(marker)) found.push(`${d}: ${cmd}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The highest "tick N" the job's output view shows. */
async function lastTick(page) {
  const lines = await page.locator("[data-testid=job-output] .job-line").allTextContents();
  return Math.max(0, ...lines.map((l) => Number(/^tick (\d+)$/.exec(l)?.[1] ?? 0)));
}

export const tests = [
  {
    name: "a background job's output shows live in the Jobs panel, the quit question names it, and Stop ends its whole group",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const marker = `jobtick-${process.pid}-${Date.now()}`;
      const command = `ticker=${marker}; i=0; while :; do i=$((i+1)); echo "tick $i"; sleep 0.05; done`;
      const script = {
        turns: [
          { text: "I'll start the ticker in the background.", toolCalls: [{ id: "tick", name: "run_bash", input: { command, background: true } }] },
          { when: { hasToolResult: true }, text: "The ticker runs as job 1." },
        ],
      };
      await startChat(ctx, script, { "README.md": "# ticker\n" });
      await page.locator("[data-testid=mode-select]").selectOption("edits");
      await page.locator('[data-testid=mode-select][data-mode="edits"]').waitFor();
      await send(ctx, "Start the ticker in the background");

      // Where the sandbox is missing the command asks first.
      const card = page.locator(`${sel.toolCall}[data-tool=run_bash]`);
      const link = card.locator("[data-testid=job-link]");
      const approve = page.locator("[data-testid=bash-approve]");
      await link.or(approve).first().waitFor({ timeout: 30_000 });
      if ((await link.count()) === 0) await approve.click();
      await link.waitFor({ timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "The ticker runs as job 1." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);

      // The tab counts one running job; the card's link opens it on the job.
      const open = page.locator("[data-testid=jobs-open]");
      await open.locator(".count", { hasText: "1" }).waitFor();
      await link.click();
      const item = page.locator('[data-testid=job-item][data-job-id="1"]');
      await page.locator('[data-testid=job-item][data-job-id="1"][data-state="running"]').waitFor();
      assert.match(await item.innerText(), new RegExp(marker));
      await page.locator("[data-testid=job-output] .job-line", { hasText: /^tick \d+$/ }).first().waitFor({ timeout: 30_000 });
      // Live: the shown ticks go on rising without reopening anything.
      const first = await lastTick(page);
      await ctx.waitFor(async () => (await lastTick(page)) >= first + 60, { timeout: 30_000, message: `ticks past ${first + 60} on screen` });
      await docShot(page, "jobs-panel.png");
      // The panel passes the window's accessibility check while the output streams.
      const found = [];
      await check(page, "Jobs panel", found);
      assert.deepEqual(found, []);

      // Scrolled up, the view stays where it is while lines come; back at the end, it follows them again.
      const out = page.locator("[data-testid=job-output]");
      const rows = async () => Number(await out.getAttribute("data-rows"));
      await out.hover();
      await page.mouse.wheel(0, -400);
      await ctx.waitFor(async () => (await out.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop)) > 300, { message: "the output scrolled up" });
      const place = await out.evaluate((el) => el.scrollTop);
      const rowsThen = await rows();
      await ctx.waitFor(async () => (await rows()) >= rowsThen + 40, { timeout: 30_000, message: "40 more lines" });
      assert.equal(await out.evaluate((el) => el.scrollTop), place, "the view stayed where the user scrolled to");
      assert.ok((await lastTick(page)) < (await rows()) - 30, "the newest lines are not drawn while the user reads above them");
      await page.mouse.wheel(0, 1_000_000);
      await ctx.waitFor(async () => (await lastTick(page)) >= (await rows()) - 2, { timeout: 30_000, message: "the view follows the end again" });
      const tickAtEnd = await lastTick(page);
      await ctx.waitFor(async () => (await lastTick(page)) >= tickAtEnd + 10, { timeout: 30_000, message: "new lines drawn at the end" });

      // Closing the window names the running job.
      await page.evaluate(() => window.runtime.Quit());
      const question = page.locator("[data-testid=quit-confirm]");
      await question.waitFor({ state: "visible" });
      const named = await question.locator("[data-testid=quit-jobs]").innerText();
      assert.match(named, /^Quitting stops 1 running job: /);
      assert.ok(named.includes(marker), `the question names the job's command: ${named}`);
      await page.click("[data-testid=quit-cancel]");
      await question.waitFor({ state: "detached" });
      assert.ok(processesWith(marker).length > 0, "keep working: the job still runs");

      // Stop ends it: the item says stopped, and no process of it is left.
      await item.locator("[data-testid=job-stop]").click();
      await page.locator('[data-testid=job-item][data-job-id="1"][data-state="stopped"]').waitFor({ timeout: 30_000 });
      assert.equal(await page.locator("[data-testid=job-stop]").count(), 0, "no Stop on a stopped job");
      await ctx.waitFor(() => processesWith(marker).length === 0, { timeout: 15_000, message: `no process of the job left: ${processesWith(marker).join("; ")}` });
      assert.equal(await open.locator(".count").count(), 0, "nothing runs: the tab counts none");
      // The output stays readable after the job ended.
      assert.ok((await lastTick(page)) >= first + 60);
    },
  },
];
