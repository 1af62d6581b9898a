// Issue 26 in the real window: Settings › Setup lists what Pilot found of
// the user's setup for the project — hooks, skills, rules of settings
// files, MCP servers and commands — each with its file, scope and state
// (the project's hook, allow rule and server untrusted, the user's hook
// running, a shadowed and a broken skill, an ignored entry, a disabled
// server) and the tool names hooks see; "Review and trust…" brings back
// the one trust prompt, and after trusting, the page says they are in
// force. A custom agent that edits is listed with the sentence that its
// changes wait for review.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { check } from "./a11y-helpers.mjs";
import { openProject } from "./helpers.mjs";
import { docShot } from "./ledger-helpers.mjs";

const KINDS = ["hook", "skill", "agent", "rule", "mcp", "command"];

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const skill = (name, description) => `---\nname: ${name}\ndescription: ${description}\n---\nThe instructions.\n`;

export const tests = [
  {
    name: "Settings › Setup lists every kind with file, scope and state, the tool names hooks see, and trusts the project from there",
    manualStart: true,
    timeout: 120_000,
    async fn(ctx) {
      const { page } = ctx;
      const home = mkdtempSync(join(tmpdir(), "pilot-e2e-userhome-"));
      write(join(home, ".claude", "settings.json"), JSON.stringify({
        permissions: { allow: ["Bash(ls)"] },
        hooks: { PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: "npx prettier --write" }] }] },
      }));
      write(join(home, ".claude", "skills", "review", "SKILL.md"), skill("review", "Reviews a change before it is committed."));
      write(join(ctx.pilotHome, "mcp.json"), JSON.stringify({ mcpServers: { notes: { command: "notes-server", disabled: true } } }));
      const settings = {
        permissions: { allow: ["Bash(npm run test:*)", "WebSearch(site:example.com)"] },
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./scripts/guard.sh" }] }] },
      };
      const project = await ctx.projectDir({
        ".claude/settings.json": JSON.stringify(settings, null, 2),
        ".claude/skills/pdf/SKILL.md": skill("pdf", "Fills in PDF forms."),
        ".claude/skills/review/SKILL.md": skill("review", "The project's review."),
        ".claude/skills/broken/SKILL.md": "no front matter\n",
        ".claude/commands/deploy.md": "Deploy the app to staging.\n",
        ".claude/agents/fixer.md": "---\nname: fixer\ndescription: Fixes small bugs.\ntools: Read, Edit\n---\nFix the bug you are given.\n",
        ".mcp.json": JSON.stringify({ mcpServers: { db: { command: "db-server", args: ["--read-only"] } } }),
        "README.md": "# p\n",
      });
      await ctx.startApp({ env: { HOME: home, PILOT_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "sk-ant-e2e-unused", PILOT_PROJECT: project } });

      const trust = page.locator("[data-testid=mcp-trust]");
      await trust.waitFor({ state: "visible", timeout: 30_000 });
      await page.click("[data-testid=mcp-trust-later]");
      await trust.waitFor({ state: "detached" });
      await openProject(ctx, project);

      await page.click("[data-testid=settings-open]");
      const dialog = page.locator("[data-testid=settings-dialog]");
      await dialog.waitFor();
      await dialog.locator('[data-testid=settings-nav-item][data-section="setup"]').click();
      const setup = dialog.locator('[data-testid=settings-section][data-section="setup"] [data-testid=setup-page]');
      await setup.waitFor({ timeout: 30_000 });
      const item = (kind, state, text) => setup.locator(`[data-testid=setup-item][data-kind="${kind}"][data-state="${state}"]`, { hasText: text });
      const claudeFile = join(project, ".claude", "settings.json");
      const expect = [
        ["hook", "untrusted", "./scripts/guard.sh", claudeFile],
        ["hook", "active", "npx prettier --write", join(home, ".claude", "settings.json")],
        ["skill", "active", "pdf", join(project, ".claude", "skills", "pdf", "SKILL.md")],
        ["skill", "active", "review", join(home, ".claude", "skills", "review", "SKILL.md")],
        ["skill", "shadowed", "review", join(project, ".claude", "skills", "review", "SKILL.md")],
        ["skill", "broken", "broken", join(project, ".claude", "skills", "broken", "SKILL.md")],
        ["rule", "untrusted", "Bash(npm run test:*)", claudeFile],
        ["rule", "active", "Bash(ls)", join(home, ".claude", "settings.json")],
        ["rule", "ignored", "WebSearch", claudeFile],
        ["mcp", "untrusted", "db-server --read-only", join(project, ".mcp.json")],
        ["mcp", "disabled", "notes", join(ctx.pilotHome, "mcp.json")],
        ["command", "active", "/deploy", join(project, ".claude", "commands", "deploy.md")],
      ];
      for (const [kind, state, text, file] of expect) {
        const it = item(kind, state, text);
        assert.ok((await it.count()) >= 1, `no ${kind} ${state} item with ${text}`);
        assert.ok((await it.first().innerText()).includes(file), `the ${kind} ${text} names its file ${file}`);
      }
      for (const kind of KINDS) assert.ok((await setup.locator(`[data-testid=setup-item][data-kind="${kind}"]`).count()) > 0, `a ${kind} is listed`);
      assert.match(await setup.locator('[data-testid=setup-item][data-kind="agent"]').innerText(), /fixer[\s\S]*waits for your approval/);
      assert.match(await item("hook", "untrusted", "guard").innerText(), /not trusted[\s\S]*PreToolUse[\s\S]*\[Bash\][\s\S]*\(project\)[\s\S]*pilot trust/);
      assert.match(await item("skill", "shadowed", "review").innerText(), /has the same name \(review\) and wins/);
      assert.match(await item("rule", "ignored", "WebSearch").innerText(), /narrows WebSearch with a specifier/);

      await docShot(page, "setup-page.png");

      const names = setup.locator("[data-testid=setup-tool-names]");
      await names.locator("summary").click();
      assert.match(await names.innerText(), /run_bash\s+Bash/);
      assert.match(await names.innerText(), /patch_file\s+Edit/);
      const found = [];
      await check(page, "Settings › Setup", found);

      // Trust from the page: the one trust prompt, then the page reads again.
      await setup.locator("[data-testid=setup-trust]").click();
      await trust.waitFor({ state: "visible" });
      assert.match(await trust.innerText(), /\.\/scripts\/guard\.sh/);
      await trust.locator("[data-testid=mcp-trust-accept]").click();
      await trust.waitFor({ state: "detached" });
      await setup.locator('[data-testid=setup-item][data-state="untrusted"]').first().waitFor({ state: "detached", timeout: 30_000 });
      assert.equal(await item("hook", "active", "./scripts/guard.sh").count(), 1, "the project's hook runs once trusted");
      assert.equal(await item("mcp", "active", "db-server").count(), 1, "the project's server is trusted");
      assert.equal(await setup.locator("[data-testid=setup-trust]").count(), 0);
      assert.deepEqual(found, [], `accessibility problems:\n${found.join("\n")}`);
    },
  },
];
