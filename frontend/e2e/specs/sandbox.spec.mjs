// The OS sandbox of commands in the real window: in edits mode a sandboxed
// command runs with no card waiting, a blocked write says why on its card,
// a new host asks on the command's card, and Settings shows the sandbox's
// state.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sel, send, startChat, waitTurnDone } from "./helpers.mjs";
import { defaultWindow, docShot } from "./ledger-helpers.mjs";

export const tests = [
  {
    name: "edits mode: a sandboxed command runs without a card waiting, a blocked write and a refused host say why on their cards, Settings shows the sandbox ready",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const outside = `../outside-${process.pid}-${Date.now()}.txt`;
      const script = {
        turns: [
          {
            text: "I'll build the notes, then try the two things you asked about.",
            toolCalls: [
              { id: "inside", name: "run_bash", input: { command: "echo made in the sandbox > made.txt && wc -c made.txt" } },
              { id: "outside", name: "run_bash", input: { command: `echo x > ${outside}` } },
              { id: "net", name: "run_bash", input: { command: "curl -sS http://downloads.example.org/tool.tgz -o tool.tgz" } },
            ],
          },
          { when: { hasToolResult: true }, text: "Done: made.txt is written; the write outside the project and the download were blocked." },
        ],
      };
      const { project } = await startChat(ctx, script, { "README.md": "# notes\n" });
      await page.locator("[data-testid=mode-select]").selectOption("edits");
      await page.locator('[data-testid=mode-select][data-mode="edits"]').waitFor();
      await send(ctx, "Make the notes, then write next to the project and fetch the tool");

      // The first two commands ran without asking; the third asks for its host.
      const ask = page.locator("[data-testid=network-approval]");
      await ask.waitFor({ state: "visible", timeout: 30_000 });
      assert.equal(await page.locator("[data-testid=bash-approval]").count(), 0, "no command waited for a yes");
      assert.equal(await ask.getAttribute("data-host"), "downloads.example.org");
      assert.match(await ask.locator("[data-testid=network-command]").innerText(), /curl -sS http:\/\/downloads\.example\.org/);
      assert.equal(readFileSync(join(project, "made.txt"), "utf8"), "made in the sandbox\n");

      const inside = page.locator(`${sel.toolCall}[data-tool=run_bash]`).nth(0);
      const blockedWrite = page.locator(`${sel.toolCall}[data-tool=run_bash]`).nth(1);
      await inside.locator('[data-sandboxed="true"], [data-testid=sandbox-badge]').first().waitFor();
      assert.equal(await inside.locator("[data-testid=sandbox-block]").count(), 0, "nothing was blocked for the write inside");
      const why = blockedWrite.locator("[data-testid=sandbox-block]").first();
      await why.waitFor({ timeout: 30_000 });
      assert.match(await why.innerText(), /sandbox/i);
      assert.match(await why.innerText(), /outside-/);
      assert.ok(!existsSync(join(dirname(project), outside.slice(3))), "nothing was written outside the project");
      await docShot(page, "sandbox-network-ask.png");

      await ask.locator("[data-testid=network-reject]").click();
      await page.locator(sel.assistant, { hasText: "Done: made.txt is written" }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      const net = page.locator(`${sel.toolCall}[data-tool=run_bash]`).nth(2);
      const refused = net.locator("[data-testid=sandbox-block]").first();
      await refused.waitFor({ timeout: 30_000 });
      assert.match(await refused.innerText(), /downloads\.example\.org/);
      assert.ok(!existsSync(join(project, "tool.tgz")) || readFileSync(join(project, "tool.tgz"), "utf8").includes("refused"), "nothing was downloaded");
      await docShot(page, "sandbox-cards.png");

      await page.click("[data-testid=settings-open]");
      // The state is checked when Settings opens: wait for the answer.
      await page.locator('[data-testid=sandbox-state][data-state="ready"]').waitFor({ timeout: 30_000 });
      await page.locator('[data-testid=settings-nav-item][data-section="sandbox"]').click();
      await docShot(page, "sandbox-settings.png");
    },
  },
];
