// Issue 26 in the real window: a project's .claude/settings.json with an
// allow rule, a deny rule and a hook asks for trust in the same prompt as
// .mcp.json (one section per kind, the exact rule and hook command shown);
// Settings › Permission rules lists the file's rules beside Pilot's own,
// with the allow rule not applied until trusted, the user's own
// ~/.claude/settings.json rule applied, and an entry Pilot cannot map
// ignored with its reason. After "Trust", the allow rule applies.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { check } from "./a11y-helpers.mjs";
import { openProject } from "./helpers.mjs";
import { docShot } from "./ledger-helpers.mjs";

async function rulesOf(page) {
  await page.click("[data-testid=settings-open]");
  const dialog = page.locator("[data-testid=settings-dialog]");
  await dialog.waitFor();
  await dialog.locator('[data-testid=settings-nav-item][data-section="approvals"]').click();
  const list = dialog.locator("[data-testid=imported-rules]");
  await list.waitFor({ timeout: 30_000 });
  return { dialog, list };
}

export const tests = [
  {
    name: "the trust prompt shows a settings file's allow rules and hooks; Settings lists the imported rules; trusting applies them",
    manualStart: true,
    timeout: 120_000,
    async fn(ctx) {
      const { page } = ctx;
      const home = mkdtempSync(join(tmpdir(), "pilot-e2e-userhome-"));
      mkdirSync(join(home, ".claude"), { recursive: true });
      writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm -rf:*)"] } }));
      const settings = {
        permissions: { allow: ["Bash(npm run test:*)", "WebSearch(site:example.com)"], deny: ["Read(./secrets/**)"] },
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./scripts/guard.sh" }] }] },
      };
      const project = await ctx.projectDir({ ".claude/settings.json": JSON.stringify(settings, null, 2), "README.md": "# p\n" });
      await ctx.startApp({ env: { HOME: home, PILOT_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "sk-ant-e2e-unused", PILOT_PROJECT: project } });

      const trust = page.locator("[data-testid=mcp-trust]");
      await trust.waitFor({ state: "visible", timeout: 30_000 });
      const rules = trust.locator('[data-testid=trust-section][data-kind="rules"]');
      const hooks = trust.locator('[data-testid=trust-section][data-kind="hooks"]');
      assert.match(await rules.innerText(), /Bash\(npm run test:\*\) → allow run_bash "npm run test", allow run_bash "npm run test \*"/);
      assert.match(await hooks.innerText(), /PreToolUse \[Bash\]: \.\/scripts\/guard\.sh/);
      assert.equal(await trust.locator("[data-testid=mcp-trust-server]").count(), 0, "no .mcp.json: no servers shown");
      const found = [];
      await check(page, "the trust prompt with settings files", found);
      await docShot(page, "trust-prompt.png");
      await page.click("[data-testid=mcp-trust-later]");
      await trust.waitFor({ state: "detached" });
      await openProject(ctx, project);

      let { dialog, list } = await rulesOf(page);
      const claudeFile = join(project, ".claude", "settings.json");
      const allow = list.locator(`[data-testid=rule-item][data-file="${claudeFile}"][data-applies="false"]`);
      assert.equal(await allow.count(), 2, "the two rules of the untrusted allow entry are listed, not applied");
      assert.match(await allow.first().innerText(), /not applied/);
      assert.ok((await list.locator(`[data-testid=rule-item][data-file="${claudeFile}"][data-applies="true"]`).count()) >= 4, "the deny entry applies at once (read_file, list_files, glob, grep)");
      assert.equal(await list.locator(`[data-testid=rule-item][data-file="${join(home, ".claude", "settings.json")}"][data-applies="true"]`).count(), 2, "the user's own deny rule applies");
      const ignored = list.locator('[data-testid=rule-item][data-invalid="true"]');
      assert.match(await ignored.innerText(), /WebSearch\(site:example\.com\)[\s\S]*narrows WebSearch with a specifier/);
      await check(page, "Settings with imported rules", found);
      await dialog.locator(".modal-actions button", { hasText: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });

      // Trust now: the prompt comes back on focus, accept it.
      await page.evaluate(() => window.dispatchEvent(new Event("pilot:mcp-trust")));
      await trust.waitFor({ state: "visible" });
      await trust.locator("[data-testid=mcp-trust-accept]").click();
      await trust.waitFor({ state: "detached" });
      ({ dialog, list } = await rulesOf(page));
      await list.locator(`[data-testid=rule-item][data-file="${claudeFile}"][data-applies="false"]`).waitFor({ state: "detached" });
      assert.equal(await list.locator(`[data-testid=rule-item][data-file="${claudeFile}"][data-applies="true"]`).count(), 6, "after trust every rule of the file applies");
      assert.deepEqual(found, [], `accessibility problems:\n${found.join("\n")}`);
    },
  },
];
