// Hooks of the settings files in the real window: a PreToolUse hook that
// blocks a command, and a PostToolUse hook after a write, each shown on its
// tool card with its event, command, decision and time, and what it printed
// opened from there.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sel, send, startChat, waitTurnDone } from "./helpers.mjs";
import { defaultWindow, docShot } from "./ledger-helpers.mjs";

export const tests = [
  {
    name: "a hook's run shows on its tool card: a blocked command and a hook after a write",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      // The user's own hooks (PILOT_HOME/settings.json): no trust needed.
      const bin = join(ctx.pilotHome, "hook-bin");
      mkdirSync(bin, { recursive: true });
      const guard = join(bin, "no-rm.sh");
      writeFileSync(guard, '#!/bin/sh\ngrep -q \'"command":"rm \' && { echo "No rm in this project: move files to .trash instead." >&2; exit 2; }\nexit 0\n');
      const fmt = join(bin, "format.sh");
      writeFileSync(fmt, '#!/bin/sh\ncat >/dev/null\necho "formatted notes.md"\n');
      chmodSync(guard, 0o755);
      chmodSync(fmt, 0o755);
      writeFileSync(
        join(ctx.pilotHome, "settings.json"),
        JSON.stringify({
          hooks: {
            PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: guard }] }],
            PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: fmt }] }],
          },
        }),
      );
      const script = {
        turns: [
          {
            text: "I'll write the notes, then clear the build folder.",
            toolCalls: [
              { id: "w", name: "write_file", input: { path: "notes.md", content: "# Notes\n" } },
              { id: "rm", name: "run_bash", input: { command: "rm -rf build" } },
            ],
          },
          { when: { hasToolResult: true }, text: "The notes are written; the hook kept build/ as it is." },
        ],
      };
      const { project } = await startChat(ctx, script, { "build/out.txt": "keep\n" });
      await page.locator("[data-testid=mode-select]").selectOption("edits");
      await page.locator('[data-testid=mode-select][data-mode="edits"]').waitFor();
      await send(ctx, "Write the notes and clear the build folder");
      await page.locator(sel.assistant, { hasText: "the hook kept build/" }).waitFor({ timeout: 60_000 });
      await waitTurnDone(ctx);

      const write = page.locator(`${sel.toolCall}[data-tool=write_file]`);
      const post = write.locator('[data-testid=hook-run][data-event="PostToolUse"]');
      await post.waitFor();
      assert.equal(await post.getAttribute("data-decision"), "none");
      assert.equal(await post.getAttribute("data-hook"), fmt);
      assert.match((await post.getAttribute("data-ms")) ?? "", /^\d+$/);

      const bash = page.locator(`${sel.toolCall}[data-tool=run_bash]`);
      await page.locator(`${sel.toolCall}[data-tool=run_bash][data-status="rejected"]`).waitFor();
      assert.equal(await bash.getAttribute("data-refused-by"), "hook");
      const pre = bash.locator('[data-testid=hook-run][data-event="PreToolUse"]');
      assert.equal(await pre.getAttribute("data-decision"), "deny");
      assert.equal(await pre.getAttribute("data-hook"), guard);
      assert.match(await pre.innerText(), /blocked/);
      await pre.locator("button").click();
      assert.match(await pre.locator("[data-testid=hook-output]").innerText(), /No rm in this project/);
      assert.ok(existsSync(join(project, "build/out.txt")), "the blocked command did not run");
      await docShot(page, "hooks-card.png");
    },
  },
];
