// The chat: a streamed answer, Stop in the middle of one, and a command the
// user approves, against the real backend and the scripted fake LLM.
import assert from "node:assert/strict";
import { appConsoleErrors, eventually, sel, send, startChat, waitRequests, waitState, waitTurnDone } from "./helpers.mjs";

/**
 * Records, from inside the page, every agent-state value and every length
 * of the last assistant message's text, as they change (MutationObserver:
 * nothing is missed between two polls from the test).
 */
async function recordChat(page) {
  await page.evaluate(() => {
    const rec = { states: [], lengths: [] };
    window.__chatRec = rec;
    const look = () => {
      const st = document.querySelector("[data-testid=agent-state]")?.getAttribute("data-state") ?? "";
      if (rec.states.at(-1) !== st) rec.states.push(st);
      const msgs = document.querySelectorAll('[data-testid=message][data-role=assistant]');
      const len = msgs.length ? (msgs[msgs.length - 1].textContent ?? "").length : 0;
      if (rec.lengths.at(-1) !== len) rec.lengths.push(len);
    };
    look();
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

const recorded = (page) => page.evaluate(() => window.__chatRec);

export const tests = [
  {
    name: "a message is sent and the answer streams in",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      // 300 words, one event every 5 ms: about 1.5 s of streaming.
      const { llm } = await startChat(ctx, {
        turns: [{ when: { lastUserContains: "tell me a story" }, text: "Once upon a time ", streamTokens: 300, fault: { delayMs: 5 } }],
      });
      await recordChat(page);
      await send(ctx, "tell me a story");

      await page.locator(sel.user, { hasText: "tell me a story" }).waitFor();
      await waitState(ctx, "streaming");
      await page.locator(sel.assistant).waitFor();
      await waitTurnDone(ctx);

      const text = await page.locator(sel.assistant).last().innerText();
      assert.match(text, /^Once upon a time/, "the scripted text, first words first");
      // 4 scripted words + 300 generated ones, every one of them on screen.
      const words = text.trim().split(/\s+/).length;
      assert.equal(words, 304, "every word rendered, none twice");

      const rec = await recorded(page);
      const iStream = rec.states.indexOf("streaming");
      assert.ok(iStream >= 0, `agent-state went through streaming: ${rec.states.join(" → ")}`);
      assert.equal(rec.states.at(-1), "idle", `agent-state ended idle: ${rec.states.join(" → ")}`);
      // The message grew in steps while streaming, not in one final render.
      const growing = rec.lengths.filter((n) => n > 0);
      assert.ok(growing.length >= 5, `the answer grew in at least 5 steps (saw ${growing.length}: ${growing.slice(0, 12).join(",")}…)`);
      for (let i = 1; i < growing.length; i++) assert.ok(growing[i] >= growing[i - 1], "the text only grows");

      const reqs = await waitRequests(ctx, llm, 1);
      assert.equal(reqs.length, 1, "one model call");
      assert.match(reqs[0].lastUserText, /tell me a story/);
      assert.deepEqual(await appConsoleErrors(ctx), []);
    },
  },

  {
    name: "Stop in the middle of a stream ends the turn and keeps the partial text",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      // 3,000 words at one every 20 ms: a minute, far longer than the test waits.
      const total = 3000;
      const { llm } = await startChat(ctx, {
        turns: [{ text: "Partial answer begins ", streamTokens: total, fault: { delayMs: 20 } }],
      });
      await send(ctx, "write a very long essay");

      const answer = page.locator(sel.assistant).last();
      await page.waitForFunction(
        (s) => (document.querySelector(s)?.textContent ?? "").split(/\s+/).length > 30,
        sel.assistant,
        { timeout: 30_000 },
      );
      await waitState(ctx, "streaming");
      await page.click(sel.cancel);
      await waitTurnDone(ctx);

      assert.equal(await page.locator(sel.state).getAttribute("data-state"), "idle");
      const kept = await answer.innerText();
      assert.match(kept, /^Partial answer begins/, "the partial text stays");
      const words = kept.split(/\s+/).length;
      assert.ok(words > 30 && words < total, `partial: ${words} of ${total + 3} words`);
      assert.equal(await answer.getAttribute("data-state"), "interrupted", "the message is marked as stopped");
      await page.locator(sel.send).waitFor({ state: "visible" });
      assert.equal(await page.locator(sel.cancel).count(), 0, "Stop is gone");
      // The stream was really abandoned: nothing new arrives after the turn ended.
      const after = (await answer.innerText()).length;
      await page.waitForTimeout(300); // a grace window to catch late deltas, not a wait for state
      assert.equal((await answer.innerText()).length, after, "no text arrives after Stop");
      assert.equal((await waitRequests(ctx, llm, 1)).length, 1, "no second model call");
    },
  },

  {
    name: "a command is approved, runs, and its output shows in the tool card",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const { llm, project } = await startChat(
        ctx,
        {
          turns: [
            { when: { lastUserContains: "count the lines" }, toolCalls: [{ name: "run_bash", input: { command: "wc -l < notes.txt && echo marker-$((6*7))", timeout_seconds: 20 } }] },
            { when: { hasToolResult: true }, text: "The file has three lines." },
          ],
        },
        { "notes.txt": "one\ntwo\nthree\n" },
      );
      await send(ctx, "count the lines of notes.txt");

      const approval = page.locator("[data-testid=bash-approval]");
      await approval.waitFor({ state: "visible", timeout: 30_000 });
      await waitState(ctx, "awaiting_approval");
      assert.match(await approval.locator("[data-testid=bash-command]").innerText(), /wc -l < notes\.txt && echo marker-\$\(\(6\*7\)\)/);
      assert.match(await approval.locator("[data-testid=bash-timeout]").innerText(), /20/);
      const cwd = (await approval.locator("[data-testid=bash-cwd]").innerText()).trim();
      assert.ok(cwd === project || cwd === "project folder" || cwd === ".", `working directory shown: ${cwd}`);
      const card = page.locator(`${sel.toolCall}[data-tool=run_bash]`);
      await page.locator(`${sel.toolCall}[data-tool=run_bash][data-status=awaiting_approval]`).waitFor({ state: "attached" });

      await approval.locator("[data-testid=bash-approve]").click();
      await page.locator(`${sel.toolCall}[data-tool=run_bash][data-status=done]`).waitFor({ timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "The file has three lines." }).waitFor();
      await waitTurnDone(ctx);
      await approval.waitFor({ state: "detached" });

      // The output is in the card (open it if it is collapsed).
      const out = card.locator("[data-testid=tool-output]");
      if ((await out.count()) === 0) await card.locator(".tool-head").click();
      await eventually(async () => {
        const shown = await out.innerText();
        assert.match(shown, /^\s*3\s*$/m, "wc's count");
        assert.match(shown, /marker-42/, "the shell really ran it");
      });

      // And the model got the same output back.
      const reqs = await waitRequests(ctx, llm, 2);
      const result = reqs[1].toolResults?.[0];
      assert.ok(result, "a tool result went back to the model");
      assert.match(result.content, /marker-42/);
      assert.equal(result.isError ?? false, false);
    },
  },
];
