// The window as a desktop app, on the dev build: `pilot DIR` opens DIR, and
// closing the window with turns in flight asks first; quitting keeps what
// was streamed and ends the commands' processes. (A second launch, the
// packages and notifications are proven on the production build by
// frontend/e2e/desktop-prod.sh.) A data folder Pilot cannot open is said,
// in the window, with Quit.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventually, openProject, scriptFile, sel, send, startSession, waitState } from "./helpers.mjs";

/** Whether pid runs (a zombie runs no more). */
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

export const tests = [
  {
    name: "pilot DIR opens the window on DIR",
    manualStart: true,
    async fn(ctx) {
      const dir = await ctx.projectDir({ "hello.txt": "hi\n", "src/app.go": "package main\n" });
      await ctx.startApp({ args: [dir], freshHome: true });
      const item = ctx.page.locator(`[data-testid=project-item][data-path="${dir}"]`);
      await item.locator("button[aria-current=true]").waitFor({ state: "attached", timeout: 30_000 });
      await ctx.page.click("[data-testid=tab-files]");
      await ctx.page.locator('[data-testid=file-tree] [data-testid=file-tree-item][data-path="hello.txt"]').waitFor({ state: "visible" });
      assert.equal(await ctx.page.locator("[data-testid=project-item]").count(), 1, "only DIR is known");
    },
  },
  {
    name: "closing with turns in flight asks; quitting keeps the stream and ends the commands",
    manualStart: true,
    timeout: 180_000,
    async fn(ctx) {
      const { page } = ctx;
      const pidFile = join(await ctx.projectDir({}), "pids");
      const command = `echo $$ > ${pidFile}; sleep 300 & echo $! >> ${pidFile}; echo started; wait`;
      const llm = await ctx.startFakeLLM(
        await scriptFile(ctx, {
          turns: [
            // Outside the sandbox: the pid file is outside the project, and the pids must be the host's.
            { when: { lastUserContains: "run" }, text: "Running it.", toolCalls: [{ name: "run_bash", input: { command, sandbox: false, reason: "writes its pids outside the project" } }] },
            { when: { lastUserContains: "talk" }, streamTokens: 4000, fault: { delayMs: 20 } },
          ],
        }),
      );
      const project = await ctx.projectDir({ "a.txt": "a\n" });
      await ctx.startApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project } });
      await openProject(ctx, project);

      const runId = await startSession(ctx);
      await send(ctx, "run the command");
      const approval = page.locator("[data-testid=bash-approval]");
      await approval.locator("[data-testid=bash-approve]").click();
      await page.locator(`${sel.toolCall}[data-tool=run_bash][data-status=running]`).waitFor({ state: "visible" });
      const pids = await ctx.waitFor(() => {
        try {
          const f = readFileSync(pidFile, "utf8").trim().split(/\s+/).map(Number);
          return f.length === 2 ? f : false;
        } catch {
          return false;
        }
      }, { message: "the command's pids" });

      const talkId = await startSession(ctx);
      await send(ctx, "talk to me");
      await waitState(ctx, "streaming");
      await ctx.waitFor(async () => ((await page.locator(sel.assistant).last().textContent()) ?? "").length > 200, { message: "some streamed text" });

      // The close button (or Ctrl+Q) asks Wails to quit: OnBeforeClose keeps the window.
      await page.evaluate(() => window.runtime.Quit());
      const dialog = page.locator("[data-testid=quit-confirm]");
      await dialog.waitFor({ state: "visible" });
      assert.match((await dialog.textContent()) ?? "", /2 turns are still running/);
      await page.click("[data-testid=quit-cancel]");
      await dialog.waitFor({ state: "detached" });
      assert.ok(alive(pids[0]) && alive(pids[1]), "keep working: the command still runs");

      await page.evaluate(() => window.runtime.Quit());
      await dialog.waitFor({ state: "visible" });
      const seen = ((await page.locator(sel.assistant).last().textContent()) ?? "").trim();
      await page.click("[data-testid=quit-now]");
      await ctx.waitFor(() => ctx.app.proc.exitCode !== null || !alive(ctx.app.proc.pid), { timeout: 30_000, message: "the app to exit" });
      for (const pid of pids) assert.ok(!alive(pid), `process ${pid} of the command is gone`);
      assert.match(ctx.pilotLog(), /quitting with work in flight, as confirmed/);

      // Start again on the same data: the streamed text is in the session.
      await ctx.startApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project } });
      await openProject(ctx, project);
      await page.click(`[data-testid=session-item][data-session-id="${talkId}"] button`);
      await page.locator(`[data-testid=session-item][data-session-id="${talkId}"] button[aria-current=true]`).waitFor();
      // Read once the session's messages have replaced the list's first screen.
      await eventually(async () => {
        const saved = ((await page.locator(sel.assistant).last().textContent()) ?? "").trim();
        assert.ok(saved.length >= seen.length && saved.startsWith(seen.slice(0, 200)), `saved text (${saved.length} chars) holds what was shown (${seen.length})`);
      });
      await page.click(`[data-testid=session-item][data-session-id="${runId}"] button`);
      await page.locator(`${sel.toolCall}[data-tool=run_bash][data-status=cancelled]`).waitFor({ state: "visible" });
    },
  },
  {
    name: "a data folder whose database is not one: the window says why and what to do, touches nothing, and quits",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const db = join(ctx.pilotHome, "pilot.db");
      const junk = "this is not an SQLite database\n".repeat(200);
      writeFileSync(db, junk);
      await ctx.startApp();
      const shown = page.locator("[data-testid=start-error]");
      await shown.waitFor({ state: "visible", timeout: 30_000 });
      const message = await page.locator("[data-testid=start-error-message]").innerText();
      assert.match(message, /^Pilot could not open its data under .*: opening the session database: .*file is not a database/);
      assert.match(message, /Close Pilot, then repair or move that folder, or start Pilot with another PILOT_HOME/);
      assert.equal(await page.locator(".app").count(), 0, "nothing else of the window is shown");
      await ctx.waitFor(() => /"service not opened".*file is not a database/.test(ctx.pilotLog()), { message: "the error in pilot.log" });
      assert.match(ctx.appOutput(), /pilot: Pilot could not open its data under/);
      assert.equal(readFileSync(db, "utf8"), junk, "the file is left as it was");
      await page.click("[data-testid=start-error-quit]");
      await ctx.waitFor(() => ctx.app.proc.exitCode !== null || !alive(ctx.app.proc.pid), { timeout: 30_000, message: "the app to exit" });
    },
  },
];
