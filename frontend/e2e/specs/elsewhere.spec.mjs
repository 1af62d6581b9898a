// A session another Pilot process runs, in the real window: a `pilot -p` on
// the window's PILOT_HOME shows in the session list as running in that
// process (its pid), its streamed answer shows in the open transcript as
// that process commits it, and once the process is killed with SIGKILL the
// list shows the session stopped.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { openProject, scriptFile, sel } from "./helpers.mjs";

export const tests = [
  {
    name: "a pilot -p run shows live in the window's list and transcript, and stopped after kill -9",
    manualStart: true,
    timeout: 120_000,
    async fn(ctx) {
      const { page } = ctx;
      const llm = await ctx.startFakeLLM(await scriptFile(ctx, { turns: [{ streamTokens: 6000, fault: { delayMs: 10 } }] }));
      const project = await ctx.projectDir({ "a.txt": "a\n" });
      await ctx.startApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project } });
      await openProject(ctx, project);

      const env = { PATH: process.env.PATH, HOME: ctx.pilotHome, PILOT_HOME: ctx.pilotHome, PILOT_PROVIDER: "anthropic", ...llm.env };
      const other = spawn(join(ctx.repoRoot, "build/bin/pilot-dev"), ["-p", "talk to me", "--project", project], { env, stdio: ["ignore", "pipe", "pipe"] });
      other.stdout.resume();
      other.stderr.resume();
      let id = null;
      try {
        const item = page.locator(`[data-testid=session-item][data-elsewhere="${other.pid}"]`);
        await item.waitFor({ state: "visible", timeout: 30_000 });
        id = await item.getAttribute("data-session-id");
        await ctx.waitFor(async () => (await item.getAttribute("data-state")) === "streaming", { message: "the run listed as streaming" });
        assert.match((await item.locator("button.list-button").getAttribute("title")) ?? "", new RegExp(`another Pilot process \\(pid ${other.pid}\\)`));

        await item.locator("button.list-button").click();
        const answer = page.locator(sel.assistant).last();
        const length = async () => ((await answer.textContent().catch(() => "")) ?? "").length;
        await ctx.waitFor(async () => (await length()) > 0, { timeout: 30_000, message: "the other process's answer in the transcript" });
        const first = await length();
        await ctx.waitFor(async () => (await length()) > first, { timeout: 30_000, message: "more of it as it lands" });
      } finally {
        other.kill("SIGKILL");
      }
      const stopped = page.locator(`[data-testid=session-item][data-session-id="${id}"]`);
      await ctx.waitFor(async () => (await stopped.getAttribute("data-elsewhere")) === null && (await stopped.getAttribute("data-state")) === "idle", { timeout: 15_000, message: "the session listed stopped after kill -9" });
    },
  },
];
