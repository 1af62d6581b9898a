// Helpers (the task tool) and web_fetch in the real window: two helpers'
// calls nested and collapsed under their task cards, still there after a
// restart; a page fetched from a host a project rule allows (loopback,
// added in Settings), found by searching the session.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { eventually, openProject, sel, send, startChat, waitTurnDone } from "./helpers.mjs";

/** The cards of the task calls and, for each, the nested cards' [tool, status]. */
async function helperCards(page) {
  const tasks = page.locator(`${sel.toolCall}[data-tool=task]`);
  await tasks.first().waitFor();
  const out = [];
  for (const task of await tasks.all()) {
    if ((await task.locator("[data-testid=helper-calls]").count()) === 0) await task.locator(".tool-head").first().click();
    const nested = task.locator("[data-testid=helper-calls] [data-testid=tool-call]");
    await nested.first().waitFor();
    out.push({
      label: (await task.locator(".tool-label").first().innerText()).trim(),
      calls: await nested.evaluateAll((els) => els.map((e) => [e.getAttribute("data-tool"), e.getAttribute("data-status"), e.getAttribute("data-parent-id")])),
      collapsed: (await task.locator("[data-testid=helper-calls] [data-testid=tool-output]").count()) === 0,
    });
  }
  return out;
}

export const tests = [
  {
    name: "two helpers' calls are nested and collapsed under their task cards, and still there after a restart",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const script = {
        turns: [
          { when: { lastUserContains: "HELPER-ALPHA" }, toolCalls: [{ id: "ha", name: "read_file", input: { path: "alpha.txt" } }] },
          { when: { lastUserContains: "HELPER-BETA" }, toolCalls: [{ id: "hb", name: "glob", input: { pattern: "beta*" } }] },
          { when: { toolResultContains: "alpha-content" }, text: "Alpha is in alpha.txt." },
          { when: { toolResultContains: "beta.txt" }, text: "Beta is beta.txt." },
          { when: { toolResultContains: "Alpha is in" }, text: "Both helpers found their files." },
          {
            when: { lastUserContains: "Survey the project" },
            toolCalls: [
              { id: "t1", name: "task", input: { description: "find alpha", prompt: "HELPER-ALPHA: where is alpha?" } },
              { id: "t2", name: "task", input: { description: "find beta", prompt: "HELPER-BETA: where is beta?" } },
            ],
          },
        ],
      };
      const { llm, project, sessionId } = await startChat(ctx, script, { "alpha.txt": "alpha-content\n", "beta.txt": "beta\n" });
      await send(ctx, "Survey the project");
      await page.locator(sel.assistant, { hasText: "Both helpers found their files." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);

      // Only the task cards sit in the transcript; each starts collapsed.
      const top = await page.locator(`${sel.toolCall}:not([data-parent-id])`).evaluateAll((els) => els.map((e) => e.getAttribute("data-tool")));
      assert.deepEqual(top, ["task", "task"]);
      assert.equal(await page.locator("[data-testid=helper-calls]").count(), 0, "task cards start collapsed");
      const want = [
        { label: "→ Helper: find alpha", calls: [["read_file", "done", "t1"]], collapsed: true },
        { label: "→ Helper: find beta", calls: [["glob", "done", "t2"]], collapsed: true },
      ];
      await eventually(async () => assert.deepEqual(await helperCards(page), want));
      const before = want;
      await eventually(async () => assert.match(await page.locator(`${sel.toolCall}[data-tool=task]`).first().locator("[data-testid=helper-status]").innerText(), /1 call/));

      await ctx.restartApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project } });
      await openProject(ctx, project);
      const item = page.locator(`[data-testid=session-list] [data-testid=session-item][data-session-id="${sessionId}"]`);
      await item.locator("button.list-button").click();
      await item.locator("button[aria-current=true]").waitFor();
      await page.locator(sel.assistant, { hasText: "Both helpers found their files." }).waitFor({ timeout: 30_000 });
      await eventually(async () => assert.deepEqual(await helperCards(page), before, "the reopened session shows the same nested cards"));
    },
  },
  {
    name: "web_fetch reads a local page once a project rule allows its host, and the page is found by search",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const web = createServer((req, res) => {
        res.writeHead(200, { "Content-Type": "text/html" });
        res.end("<html><head><title>Quokka notes</title></head><body><h1>Quokkas</h1><p>The quokka smiles on Rottnest island.</p></body></html>");
      });
      await new Promise((ok) => web.listen(0, "127.0.0.1", ok));
      try {
        const url = `http://127.0.0.1:${web.address().port}/quokka`;
        const script = {
          turns: [
            { when: { lastUserContains: "Read the page" }, toolCalls: [{ id: "f1", name: "web_fetch", input: { url } }], repeat: true },
            { when: { toolResultContains: "private, loopback or link-local" }, text: "The host is not allowed.", repeat: true },
            { when: { toolResultContains: "Rottnest" }, text: "Quokkas smile.", repeat: true },
          ],
        };
        await startChat(ctx, script);
        // Without a rule, loopback is refused and nothing is asked.
        await send(ctx, "Read the page");
        await page.locator(sel.assistant, { hasText: "The host is not allowed." }).waitFor({ timeout: 30_000 });
        await waitTurnDone(ctx);
        assert.equal(await page.locator("[data-testid=fetch-approval]").count(), 0);
        await page.locator(`${sel.toolCall}[data-tool=web_fetch][data-status=rejected]`).waitFor();

        // A rule for the host, added in Settings.
        await page.click("[data-testid=settings-open]");
        const rules = page.locator("[data-testid=settings-rules]");
        await rules.locator("input[aria-label=Tool]").fill("web_fetch");
        await rules.locator("input[aria-label=Pattern]").fill("127.0.0.1");
        await rules.locator("button", { hasText: "Add rule" }).click();
        await rules.locator("[data-testid=rule-item]", { hasText: "127.0.0.1" }).waitFor();
        // Rules are saved as they are added; the dialog is left with Cancel.
        await page.locator("[data-testid=settings-dialog] .modal-actions button", { hasText: "Cancel" }).click();
        await page.locator("[data-testid=settings-dialog]").waitFor({ state: "detached" });

        await send(ctx, "Read the page again");
        await page.locator(sel.assistant, { hasText: "Quokkas smile." }).waitFor({ timeout: 30_000 });
        await waitTurnDone(ctx);
        const card = page.locator(`${sel.toolCall}[data-tool=web_fetch][data-status=done]`);
        await card.locator(".tool-head").click();
        await eventually(async () => assert.match(await card.locator("[data-testid=tool-output]").innerText(), /# Quokkas[\s\S]*Rottnest island/));

        await page.fill("[data-testid=session-search]", "rottnest");
        await page.locator("[data-testid=search-hit]").first().waitFor({ timeout: 30_000 });
      } finally {
        web.close();
      }
    },
  },
];
