// Issue 28's smaller things, in the real window at 1280x820: the sidebar
// counts the first turn's tokens as the status bar does, the prompt's
// placeholder is not cut, a command's approval has no diff-layout switch,
// the user's message actions sit under the bubble, and a task left "in
// progress" when the turn ended is shown stopped.
import assert from "node:assert/strict";
import { eventually, sel, send, startChat, waitTurnDone } from "./helpers.mjs";
import { defaultWindow } from "./ledger-helpers.mjs";

const todos = (...items) => ({ name: "todo_write", input: { todos: items.map(([content, status]) => ({ content, status })) } });

export const tests = [
  {
    name: "at 1280x820 the first turn's tokens, the placeholder, the command card, the message actions and a stopped task read right",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const usage = { inputTokens: 10_000, outputTokens: 1_000, cacheReadTokens: 0, cacheWriteTokens: 0 };
      const { sessionId } = await startChat(ctx, {
        turns: [
          { when: { lastUserContains: "check" }, usage, toolCalls: [todos(["Run the check", "in_progress"], ["Report", "pending"]), { name: "run_bash", input: { command: "echo checked" } }] },
          { when: { hasToolResult: true }, usage, text: "Checked; I stop here." },
        ],
      });

      // The placeholder fits the box at this width: one line of its font.
      const fits = await page.locator(sel.input).evaluate((t) => {
        const s = getComputedStyle(t);
        const c = document.createElement("canvas").getContext("2d");
        c.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
        return { text: c.measureText(t.placeholder).width, box: t.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) };
      });
      assert.ok(fits.text <= fits.box, `the placeholder (${fits.text} px) fits the box (${fits.box} px)`);

      await send(ctx, "check it");
      const approval = page.locator("[data-testid=bash-approval]");
      await approval.waitFor({ timeout: 30_000 });
      assert.equal(await page.locator(".layout-toggle").count(), 0, "no diff-layout switch over a command");
      // During the first turn the sidebar and the status bar say the same count.
      await page.locator("[data-testid=usage]", { hasText: "11k tokens" }).waitFor({ timeout: 30_000 });
      const item = page.locator(`[data-testid=session-item][data-session-id="${sessionId}"] .item-sub`);
      // The list's line comes from its own reload: wait for it.
      await eventually(async () => assert.match(await item.innerText(), /11k tok/));
      await approval.locator("[data-testid=bash-approve]").click();
      await page.locator(sel.assistant, { hasText: "I stop here." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);

      // The turn is over: the task it left in progress reads stopped, not bold.
      const task = page.locator("[data-testid=todo-item]").first();
      await eventually(async () => {
        assert.equal(await task.getAttribute("data-stopped"), "true");
        assert.match(await task.innerText(), /stopped when the turn ended/);
        assert.ok(Number(await task.evaluate((e) => getComputedStyle(e).fontWeight)) < 600, "not bold");
      });

      // The user's message actions are under the bubble, not over its corner.
      const user = page.locator(sel.user).first();
      await user.hover();
      await eventually(async () => {
        const bubble = await user.locator(".message-body").boundingBox();
        const actions = await user.locator(".message-actions").boundingBox();
        assert.ok(bubble && actions && actions.y >= bubble.y + bubble.height, `actions ${JSON.stringify(actions)} below the bubble ${JSON.stringify(bubble)}`);
      });
    },
  },
];
