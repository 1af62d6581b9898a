// Permission rules in the real window: Settings lists rules that cannot
// match flagged with their sentence and refuses a bad rule with its
// sentence (nothing stored); a compound command waiting for approval shows
// the rules "always allow" will add, one per part, and they let the same
// command run next time without asking.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { eventually, sel, send, startChat, waitState, waitTurnDone } from "./helpers.mjs";
import { defaultWindow, docShot } from "./ledger-helpers.mjs";

/** Runs `pilot-dev rules ARGS` on the test's PILOT_HOME; returns stdout. */
function pilotRules(ctx, ...args) {
  return execFileSync(join(ctx.repoRoot, "build/bin/pilot-dev"), ["rules", ...args], {
    env: { PATH: process.env.PATH, HOME: ctx.pilotHome, PILOT_HOME: ctx.pilotHome },
    encoding: "utf8",
  });
}

function storedRules(ctx, project) {
  return pilotRules(ctx, "list", "--project", project, "--json")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

export const tests = [
  {
    name: "Settings flags stored rules that cannot match and refuses a bad rule with its sentence",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const { project } = await startChat(ctx, { turns: [{ text: "Hello." }] }, { "main.go": "package main\n" }, { newSession: false });
      // A valid rule through the CLI, then two that older versions let in,
      // put into the database as they stored them.
      pilotRules(ctx, "add", "allow", "run_bash", "go test *", "--project", project);
      execFileSync("sqlite3", [
        join(ctx.pilotHome, "pilot.db"),
        `INSERT INTO permission_rules (project_id, tool, pattern, effect, created_at)
           SELECT project_id, 'run_bash', 'rm [x', 'deny', created_at FROM permission_rules LIMIT 1;
         INSERT INTO permission_rules (project_id, tool, pattern, effect, created_at)
           SELECT project_id, 'bash', 'git push *', 'deny', created_at FROM permission_rules LIMIT 1;`,
      ]);

      await defaultWindow(page);
      await page.click("[data-testid=settings-open]");
      const rules = page.locator("[data-testid=settings-rules]");
      const items = rules.locator("[data-testid=rule-item]");
      await items.nth(2).waitFor();
      assert.deepEqual(await items.evaluateAll((els) => els.map((e) => e.getAttribute("data-invalid"))), ["false", "true", "true"]);
      const [, badPattern, badTool] = await items.all();
      assert.match(await badPattern.innerText(), /never matches/);
      assert.match(await badPattern.locator("[data-testid=rule-problem]").innerText(), /The pattern "rm \[x" of the rule cannot be read/);
      assert.match(await badTool.locator("[data-testid=rule-problem]").innerText(), /the tool "bash", which does not exist: write run_bash instead/);
      assert.equal(await badPattern.getByRole("button", { name: "Remove rule run_bash rm [x" }).count(), 1, "a flagged rule keeps its delete button");

      // Adding deny run_bash "rm [x" is refused with its sentence; the form keeps it.
      const tool = rules.locator("input[aria-label=Tool]");
      const pattern = rules.locator("input[aria-label=Pattern]");
      await tool.fill("run_bash");
      await pattern.fill("rm [x");
      await rules.locator("select[aria-label=Effect]").selectOption("deny");
      await rules.locator("button", { hasText: "Add rule" }).click();
      const error = rules.locator("[data-testid=rule-error]");
      await error.waitFor();
      assert.match(await error.innerText(), /^The pattern "rm \[x" of the rule cannot be read/);
      assert.equal(await pattern.inputValue(), "rm [x");
      assert.equal(await tool.inputValue(), "run_bash");
      assert.equal(await items.count(), 3);
      assert.equal(storedRules(ctx, project).length, 3, "nothing was stored");
      await error.scrollIntoViewIfNeeded();
      await docShot(page, "rules-settings.png");

      // The CLI flags the same rules.
      const listed = storedRules(ctx, project);
      assert.deepEqual(
        listed.map((r) => [r.tool, r.pattern, r.invalid]),
        [
          ["run_bash", "go test *", false],
          ["run_bash", "rm [x", true],
          ["bash", "git push *", true],
        ],
      );

      // Deleting a flagged rule from Settings removes it.
      await badTool.getByRole("button", { name: "Remove rule bash git push *" }).click();
      await ctx.waitFor(async () => (await items.count()) === 2, { message: "the flagged rule is removed" });
      assert.equal(storedRules(ctx, project).length, 2);
    },
  },

  {
    name: "a compound command's card shows the rules always allow adds, and they let it run next time",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const command = "wc -l notes.txt && grep -n TODO notes.txt";
      const { project } = await startChat(
        ctx,
        {
          turns: [
            { when: { hasToolResult: true }, text: "Counted and searched.", repeat: true },
            { when: { lastUserContains: "count and search" }, toolCalls: [{ name: "run_bash", input: { command } }], repeat: true },
          ],
        },
        { "notes.txt": "one\nTODO: two\n" },
      );
      await defaultWindow(page);
      await send(ctx, "count and search the notes");
      const card = page.locator("[data-testid=bash-approval]");
      await card.waitFor({ state: "visible", timeout: 30_000 });
      await waitState(ctx, "awaiting_approval");
      const shown = card.locator("[data-testid=always-rules]");
      const want = ['allow run_bash "wc -l notes.txt"', 'allow run_bash "grep -n TODO notes.txt"'];
      await eventually(async () => assert.deepEqual(await shown.locator("[data-testid=always-rule]").allInnerTexts(), want));
      assert.match(await shown.innerText(), /^Always allow adds these 2 rules:/);
      await docShot(page, "rules-always-allow.png");

      await card.locator("[data-testid=bash-always]").check();
      await card.locator("[data-testid=bash-approve]").click();
      await page.locator(sel.assistant, { hasText: "Counted and searched." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      assert.deepEqual(
        storedRules(ctx, project).map((r) => `${r.effect} ${r.tool} ${JSON.stringify(r.pattern)}`),
        want,
      );

      // The same command again runs without asking.
      await send(ctx, "count and search the notes again");
      await ctx.waitFor(async () => (await page.locator(`${sel.toolCall}[data-tool=run_bash][data-status=done]`).count()) === 2, {
        message: "the second run finished",
        timeout: 30_000,
      });
      await waitTurnDone(ctx);
      assert.equal(await card.count(), 0, "not asked again");
    },
  },
];
