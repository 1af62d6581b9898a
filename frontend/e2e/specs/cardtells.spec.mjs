// A sandboxed command's card tells all (issue 36): in edits mode a command
// makes a repository with a hook, an executable script and Claude Code's
// settings; its card lists every file it changed, those in the new .git
// folder too, with a mark on what can run code and "cannot be undone" on
// what the ledger did not keep; the card shows the same after a reload,
// the Changes view marks them, and the model was told in its result.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { eventually, modelRequests, sel, send, startChat, waitTurnDone } from "./helpers.mjs";
import { defaultWindow, openChanges } from "./ledger-helpers.mjs";

const plant =
  "mkdir sub && cd sub && git init -q && printf '#!/bin/sh\\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout; cd .. ; " +
  "printf x > run.sh; chmod +x run.sh; mkdir -p .claude && echo '{}' > .claude/settings.json && echo notes > notes.txt";

/** Every file the card of the run_bash call lists, as { path: [kind, runsCode, kept] }, once it lists `n`. */
async function cardFiles(page, n) {
  const card = page.locator(`${sel.toolCall}[data-tool=run_bash]`);
  const effects = card.locator("[data-testid=command-effects]");
  if ((await effects.count()) === 0) await card.locator(".tool-head").click();
  await effects.waitFor();
  const files = effects.locator("[data-testid=command-file]");
  let listed = {};
  await eventually(async () => {
    const rows = await files.evaluateAll((els) => els.map((e) => [e.getAttribute("data-path"), e.getAttribute("data-kind"), e.getAttribute("data-runs-code"), e.getAttribute("data-kept")]));
    listed = Object.fromEntries(rows.map(([p, ...rest]) => [p, rest]));
    assert.equal(rows.length, n, `the card lists ${n} files: ${JSON.stringify(rows)}`);
  });
  return { effects, listed };
}

export const tests = [
  {
    name: "a sandboxed command that plants a hook: its card lists every file with what can run code and what cannot be undone, after a reload too",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const script = {
        turns: [
          { toolCalls: [{ id: "plant", name: "run_bash", input: { command: plant } }] },
          { when: { hasToolResult: true }, text: "Set up." },
        ],
      };
      const { llm, project } = await startChat(ctx, script, { "README.md": "# notes\n" });
      await page.locator("[data-testid=mode-select]").selectOption("edits");
      await page.locator('[data-testid=mode-select][data-mode="edits"]').waitFor();
      await send(ctx, "Set the project up");
      await page.locator(sel.assistant, { hasText: "Set up." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      assert.ok(existsSync(join(project, "sub", ".git", "hooks", "post-checkout")), "the command made the hook");

      // git init's own files are listed too (HEAD, config, description, the
      // samples, info/exclude): count them from the disk.
      const want = {
        "sub/.git": ["created", "true", "false"],
        "sub/.git/hooks/post-checkout": ["created", "true", "false"],
        "sub/.git/config": ["created", "true", "false"],
        "sub/.git/HEAD": ["created", "false", "false"],
        "run.sh": ["created", "true", "true"],
        ".claude/settings.json": ["created", "true", "true"],
        "notes.txt": ["created", "false", "true"],
      };
      const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
      const n = walk(join(project, "sub", ".git")).length + 1 + 3; // its files, the folder, run.sh, settings.json, notes.txt
      const check = async () => {
        const { effects, listed } = await cardFiles(page, n);
        for (const [p, w] of Object.entries(want)) assert.deepEqual(listed[p], w, `${p} on the card`);
        const hook = effects.locator('[data-testid=effect-file][data-path="sub/.git/hooks/post-checkout"]');
        assert.equal((await hook.locator("[data-testid=runs-code]").innerText()).trim(), "can run code: a git hook");
        assert.match(await hook.locator("[data-testid=not-kept]").innerText(), /in a git folder: not kept; cannot be undone/);
        const script = effects.locator('[data-testid=effect-file][data-path="run.sh"]');
        assert.equal((await script.locator("[data-testid=runs-code]").innerText()).trim(), "can run code: executable");
        assert.equal(await script.locator("[data-testid=not-kept]").count(), 0);
        // What can run code comes first, not below a scroll of git's files.
        const order = await effects.locator("[data-testid=effect-file]").evaluateAll((els) => els.map((e) => e.getAttribute("data-runs-code")));
        assert.deepEqual(order, [...order].sort().reverse(), `files that can run code first: ${order}`);
      };
      await check();

      // The model read one sentence naming what can run code.
      const told = (await modelRequests(llm)).flatMap((r) => r.toolResults ?? []).find((r) => r.toolUseId === "plant")?.content ?? "";
      assert.match(told, /This command changed files that can run code: /);
      assert.match(told, /sub\/\.git\/hooks\/post-checkout \(a git hook; not kept, cannot be undone\)/);
      assert.match(told, /run\.sh \(executable\)/);
      assert.doesNotMatch(told, /notes\.txt|HEAD/);

      // After a reload the stored card says the same.
      await page.reload();
      const item = page.locator("[data-testid=session-item] button").first();
      await item.waitFor({ state: "visible", timeout: 30_000 });
      await item.click();
      await page.locator(`${sel.toolCall}[data-tool=run_bash]`).waitFor({ timeout: 30_000 });
      await check();

      // The Changes view marks them.
      const view = await openChanges(ctx);
      const row = (p) => view.locator(`[data-testid=changes-file][data-path="${p}"]`);
      await row("sub/.git/hooks/post-checkout").waitFor();
      assert.equal(await row("sub/.git/hooks/post-checkout").getAttribute("data-runs-code"), "true");
      assert.equal(await row("sub/.git/hooks/post-checkout").getAttribute("data-kept"), "false");
      assert.equal(await row("run.sh").getAttribute("data-runs-code"), "true");
      assert.equal(await row("run.sh").getAttribute("data-kept"), "true");
      assert.equal(await row("notes.txt").getAttribute("data-runs-code"), "false");
    },
  },
];
