// The session's model picker with the real backend: the server's models
// with their facts (a guess said as one), in a 640 px window too, and a
// model chosen there is the model of the session's next request, and of
// that session only.
import assert from "node:assert/strict";
import { eventually, sel, send, startChat, startSession, waitRequests, waitTurnDone } from "./helpers.mjs";

const picker = "[data-testid=model-picker]";
const option = (id) => `[data-testid=model-option][data-model="${id}"]`;

export const tests = [
  {
    name: "a model chosen in the picker is the model of the session's next request",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const { llm } = await startChat(ctx, {
        models: ["claude-haiku-4-5", "claude-sonnet-4-5", "e2e-local-model"],
        turns: [{ text: "First answer." }, { text: "Second answer." }, { text: "Third answer." }],
      });
      await send(ctx, "first");
      await waitTurnDone(ctx);
      const [first] = await waitRequests(ctx, llm, 1);
      const before = first.model;
      assert.notEqual(before, "claude-haiku-4-5");
      assert.equal(await page.locator(picker).getAttribute("data-model"), before);

      // At 200% scaling (640 CSS px) the list fits the window.
      await page.setViewportSize({ width: 640, height: 410 });
      await page.locator(".app[data-layout=narrow]").waitFor();
      // Opened from the keyboard: Enter on the focused button.
      await page.focus(picker);
      await page.keyboard.press("Enter");
      await page.locator(option("claude-haiku-4-5")).waitFor();
      assert.equal(await page.locator(option("claude-haiku-4-5")).getAttribute("data-window"), "200000");
      assert.match(await page.locator(option("e2e-local-model")).innerText(), /32k window, guessed/);
      assert.equal(await page.locator(option(before)).getAttribute("data-current"), "true");
      const box = await page.locator("[data-testid=model-list]").boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 640, `the list fits 640 px: ${JSON.stringify(box)}`);

      // The search field has the focus; Enter chooses the first match, and the focus goes back to the prompt.
      await page.keyboard.type("haiku");
      await page.keyboard.press("Enter");
      await page.locator(`${picker}[data-model="claude-haiku-4-5"]`).waitFor();
      await eventually(async () => assert.match(await page.locator("[data-testid=status-model]").innerText(), /claude-haiku-4-5/));
      await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "chat-input");

      await page.setViewportSize({ width: 1280, height: 800 });
      await page.locator(".app[data-layout=wide]").waitFor();
      await send(ctx, "second");
      await waitTurnDone(ctx);
      const reqs = await waitRequests(ctx, llm, 2);
      assert.equal(reqs[1].model, "claude-haiku-4-5", "the next request uses the chosen model");

      // Another session keeps the configured model.
      await startSession(ctx);
      assert.equal(await page.locator(picker).getAttribute("data-model"), before);
      await send(ctx, "third");
      await page.locator(sel.assistant, { hasText: "Third answer." }).waitFor();
      const all = await waitRequests(ctx, llm, 3);
      assert.equal(all[2].model, before, "a new session's request uses the configured model");
    },
  },
];
