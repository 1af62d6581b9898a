// Session history: a session survives a restart of the app with every
// message and tool card, and search finds a session by a tool's output.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { eventually, openProject, sel, send, startChat, startSession, waitTurnDone } from "./helpers.mjs";

/** What the transcript shows: every message (role, text) and every tool card (tool, status, label, output). */
async function transcriptSnapshot(page) {
  // Open every collapsed tool card so its output is part of the snapshot.
  const heads = page.locator(`${sel.toolCall} .tool-head[aria-expanded=false]`);
  for (let n = await heads.count(); n > 0; n = await heads.count()) await heads.first().click();
  return page.evaluate(() => ({
    messages: [...document.querySelectorAll("[data-testid=message]")].map((m) => ({
      role: m.getAttribute("data-role"),
      text: [...m.querySelectorAll(".markdown, .user-text")].map((e) => e.textContent.trim()).join("\n"),
    })),
    tools: [...document.querySelectorAll("[data-testid=tool-call]")].map((c) => ({
      tool: c.getAttribute("data-tool"),
      status: c.getAttribute("data-status"),
      label: c.querySelector(".tool-label")?.textContent ?? "",
      output: c.querySelector("[data-testid=tool-output]")?.textContent ?? "",
    })),
  }));
}

export const tests = [
  {
    name: "after a restart the session is in the list and reopens with every message and tool card",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const script = {
        turns: [
          { when: { lastUserContains: "look at the notes" }, text: "Let me read them. ", toolCalls: [{ name: "read_file", input: { path: "notes.md" } }] },
          { when: { toolResultContains: "buy milk" }, text: "The notes say to buy milk. ", toolCalls: [{ name: "list_files", input: {} }] },
          { when: { hasToolResult: true }, text: "There are two files." },
          { when: { lastUserContains: "thanks" }, text: "You are welcome." },
        ],
      };
      const { llm, project, sessionId } = await startChat(ctx, script, { "notes.md": "- buy milk\n- call Bob\n", "todo.txt": "nothing\n" });
      await send(ctx, "look at the notes");
      await page.locator(sel.assistant, { hasText: "There are two files." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      await send(ctx, "thanks");
      await page.locator(sel.assistant, { hasText: "You are welcome." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);

      // Taken once the opened cards show their output.
      const before = await eventually(async () => {
        const snap = await transcriptSnapshot(page);
        assert.deepEqual(
          snap.messages.map((m) => m.role),
          ["user", "assistant", "assistant", "assistant", "user", "assistant"],
          `messages before restart: ${JSON.stringify(snap.messages)}`,
        );
        assert.deepEqual(snap.tools.map((t) => [t.tool, t.status]), [["read_file", "done"], ["list_files", "done"]]);
        assert.match(snap.tools[0].output, /buy milk/);
        return snap;
      });

      // The model names the session after its first turn, in the background
      // (the fake LLM's titles start "About"): the title is read once it is
      // that name, the one stored, not the first line shown until then.
      const title = page.locator(`[data-testid=session-item][data-session-id="${sessionId}"] .item-title`, { hasText: /^About / });
      await title.waitFor({ timeout: 30_000 });
      const titleBefore = await title.innerText();

      // Same PILOT_HOME, same environment: a new process.
      const oldPid = ctx.app.proc.pid;
      await ctx.restartApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project } });
      assert.notEqual(ctx.app.proc.pid, oldPid, "a new app process");
      await openProject(ctx, project);

      const item = page.locator(`[data-testid=session-list] [data-testid=session-item][data-session-id="${sessionId}"]`);
      await item.waitFor({ state: "visible", timeout: 30_000 });
      assert.equal(await item.locator(".item-title").innerText(), titleBefore, "listed under the same title");
      await item.locator("button.list-button").click();
      await item.locator("button[aria-current=true]").waitFor();
      await page.locator(sel.assistant, { hasText: "You are welcome." }).waitFor({ timeout: 30_000 });

      await eventually(async () => assert.deepEqual(await transcriptSnapshot(page), before, "the reopened session shows the same messages and tool cards"));
    },
  },

  {
    name: "search finds a session by a word only a tool output holds, and the hit opens it",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      // A word nobody typed: it is only in the file the model reads.
      const word = `zx${randomBytes(5).toString("hex").replace(/\d/g, (d) => "ghijklmnop"[d])}`;
      const script = {
        turns: [
          { when: { lastUserContains: "open the secret file" }, toolCalls: [{ name: "read_file", input: { path: "vault.txt" } }] },
          { when: { hasToolResult: true }, text: "I read the file." },
          { when: { lastUserContains: "something else" }, text: "Sure, something else." },
        ],
      };
      const { sessionId: sessionA } = await startChat(ctx, script, { "vault.txt": `the password is ${word}\n` });
      await send(ctx, "open the secret file");
      await page.locator(`${sel.toolCall}[data-tool=read_file][data-status=done]`).waitFor({ timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "I read the file." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);

      // A second session is open while searching, so opening A is the hit's doing.
      const sessionB = await startSession(ctx);
      assert.notEqual(sessionB, sessionA);
      await send(ctx, "something else");
      await page.locator(sel.assistant, { hasText: "Sure, something else." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      assert.equal(await page.locator(sel.toolCall).count(), 0, "session B has no tool output");

      await page.fill("[data-testid=session-search]", word);
      const hits = page.locator("[data-testid=search-results] [data-testid=search-hit]");
      await hits.first().waitFor({ state: "visible", timeout: 30_000 });
      const ids = await hits.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-session-id"))));
      assert.deepEqual([...new Set(ids)], [sessionA], "only session A matches");
      const hit = hits.first();
      assert.match(await hit.innerText(), /tool output/i, `the hit is in a tool output: ${await hit.innerText()}`);
      assert.match((await hit.locator(".snippet").innerHTML()).toLowerCase(), new RegExp(`<mark>${word}</mark>|${word}`), "snippet shows the word");

      await hit.locator("button").click();
      await page.locator(sel.user, { hasText: "open the secret file" }).waitFor({ timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "I read the file." }).waitFor();
      assert.equal(await page.locator(sel.user, { hasText: "something else" }).count(), 0, "session B is no longer shown");
      // Clearing the search brings the list back, with A as the open session.
      await page.press("[data-testid=session-search]", "Escape");
      await page.locator(`[data-testid=session-item][data-session-id="${sessionA}"] button[aria-current=true]`).waitFor();
      // The word really is in A's read_file output.
      const card = page.locator(`${sel.toolCall}[data-tool=read_file]`);
      await card.locator(".tool-head").click();
      await eventually(async () => assert.ok((await card.locator("[data-testid=tool-output]").innerText()).includes(word)));
    },
  },
];
