// The window at 200% scaling (a 1280×820 window is a 640×410 CSS viewport):
// one view at a time under a view bar, the review brought forward when a
// change waits and the chat back after the decision, the sidebar as a
// drawer; the wide window's sidebar folding into a rail (remembered); and
// every control reachable with Tab, its focus visible, wide and narrow.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { appConsoleErrors, eventually, sel, send, startChat, waitRequests, waitTurnDone } from "./helpers.mjs";

const narrow = { width: 640, height: 410 };

/** The layout the window reports: data-layout, data-view, data-sidebar. */
const layoutOf = (page) =>
  page.locator(".app").evaluate((el) => ({ layout: el.dataset.layout, view: el.dataset.view, sidebar: el.dataset.sidebar }));

/** Waits until the element is visible and wholly inside the viewport. */
async function inViewport(page, selector, what) {
  const el = page.locator(selector).first();
  await eventually(async () => {
    assert.ok(await el.isVisible(), `${what} is visible`);
    const box = await el.boundingBox();
    const vp = page.viewportSize();
    assert.ok(box, `${what} has a box`);
    assert.ok(
      box.x >= 0 && box.y >= 0 && box.x + box.width <= vp.width + 0.5 && box.y + box.height <= vp.height + 0.5,
      `${what} inside the ${vp.width}×${vp.height} viewport: ${JSON.stringify(box)}`,
    );
  });
}

/** Nothing scrolls sideways: the page is no wider than the viewport. */
async function noSidewaysScroll(page) {
  const { sw, w } = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, w: window.innerWidth }));
  assert.ok(sw <= w, `page width ${sw} within the viewport ${w}`);
}

/**
 * Presses Tab until the focus comes back to where it started (at most 300
 * times) and returns, for each stop, its test id or label and whether a
 * focus ring shows (a box-shadow or an outline under :focus-visible, on the
 * control or on the prompt box around the bare text field).
 */
async function tabRound(page) {
  await page.evaluate(() => {
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  });
  const stops = [];
  for (let i = 0; i < 300; i++) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const ringOn = (e) => {
        const cs = getComputedStyle(e);
        return (cs.boxShadow && cs.boxShadow !== "none") || (cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) > 0);
      };
      // The ring is on the control, or on the box around a bare field (the prompt box).
      const wrapped = el.parentElement?.closest(".prompt-box");
      return {
        key: el.getAttribute("data-testid") || el.getAttribute("aria-label") || el.textContent?.trim().slice(0, 30) || el.tagName,
        ring: el.matches(":focus-visible") && (ringOn(el) || (wrapped !== null && wrapped !== undefined && ringOn(wrapped))),
        id: el.dataset.tabRound || (el.dataset.tabRound = String(Math.random())),
      };
    });
    if (!stop) continue;
    if (stops.length && stops[0].id === stop.id) break;
    stops.push(stop);
  }
  return stops;
}

/**
 * Every visible, enabled control that takes the focus (buttons, fields,
 * links, the selected tab of each tab list) by its label. With a modal
 * dialog open, only its own (the dialog keeps the focus in); of a radio
 * group, the checked one (arrow keys move within the group).
 */
const focusableControls = (page) =>
  page.evaluate(() =>
    [...(document.querySelector("[aria-modal=true]") ?? document).querySelectorAll("button, input, textarea, select, a[href], [tabindex]")]
      .filter((el) => {
        if (el.closest("[hidden], [inert]") || el.disabled || el.tabIndex < 0) return false;
        if (el.type === "radio" && !el.checked && document.querySelector(`input[type=radio][name="${el.name}"]:checked`)) return false;
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
      })
      .map((el) => el.getAttribute("data-testid") || el.getAttribute("aria-label") || el.textContent?.trim().slice(0, 30) || el.tagName),
  );

/**
 * Every control is reached in one round of Tab, each with its ring. Waited
 * for, round after round: after a change of layout the parts of the new
 * one may still be loading (they load when first shown) or moving in, and
 * a round taken then stops early.
 */
async function assertKeyboardReach(page, where) {
  await eventually(
    async () => {
      const stops = await tabRound(page);
      const reached = new Set(stops.map((s) => s.key));
      const missing = (await focusableControls(page)).filter((k) => !reached.has(k));
      assert.deepEqual(missing, [], `${where}: every control reached with Tab (stops: ${stops.map((s) => s.key).join(", ")})`);
      const noRing = stops.filter((s) => !s.ring).map((s) => s.key);
      assert.deepEqual(noRing, [], `${where}: a visible focus ring on every stop`);
      assert.ok(stops.length >= 5, `${where}: a real round of stops (${stops.length}: ${stops.map((s) => s.key).join(", ")})`);
    },
    { timeout: 30_000, interval: 250 },
  );
}

const editScript = {
  turns: [
    { toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] },
    { when: { hasToolResult: true }, toolCalls: [{ name: "patch_file", input: { path: "notes.txt", old_text: "two", new_text: "TWO" } }] },
    { when: { hasToolResult: true }, text: "Changed the second line." },
    { text: "Fine." },
  ],
};

export const tests = [
  {
    name: "at 200% scaling one view shows at a time: the review comes forward for a change and the chat returns after it",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const { project } = await startChat(ctx, editScript, { "notes.txt": "one\ntwo\nthree\n" });
      await page.setViewportSize(narrow);
      await page.locator(".app[data-layout=narrow]").waitFor();

      assert.deepEqual(await layoutOf(page), { layout: "narrow", view: "chat", sidebar: "hidden" });
      assert.equal(await page.locator("[data-testid=session-list]").count(), 0, "the session list is in the closed drawer");
      assert.equal(await page.locator("[data-testid=view-chat]").getAttribute("aria-selected"), "true");
      await inViewport(page, sel.input, "the prompt");
      await inViewport(page, sel.send, "Send");
      await inViewport(page, "[data-testid=agent-state]", "the agent state");
      await inViewport(page, "[data-testid=settings-open]", "Settings");
      await noSidewaysScroll(page);

      await send(ctx, "capitalise two");
      const view = page.locator(`${sel.diffView}[data-path="notes.txt"]`);
      await view.waitFor({ state: "visible", timeout: 30_000 });
      await eventually(async () => {
        assert.equal((await layoutOf(page)).view, "panel", "the review came forward");
        assert.equal(await page.locator("[data-testid=view-review]").getAttribute("aria-selected"), "true");
        assert.match(await page.locator("[data-testid=view-review]").innerText(), /Review\s*1/, "the tab counts the waiting change");
        assert.equal(await page.locator(".review-panel").getAttribute("data-layout"), "unified", "narrow: the unified diff");
      });
      // Once the review has come forward (above), the chat is behind it.
      assert.equal(await page.locator(sel.input).isVisible(), false, "the chat is behind it");
      await page.screenshot({ path: join(ctx.artifactsDir, "narrow-review.png") });
      // The prompt the user sent from went out of view: the review has the focus, so its keys work.
      await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "change-review", null, { timeout: 5000 });
      await noSidewaysScroll(page);

      // The chat is one tab away and keeps the conversation; then back to the review.
      await page.click("[data-testid=view-chat]");
      await page.locator(`${sel.toolCall}[data-tool=patch_file][data-status=awaiting_approval]`).waitFor();
      await page.click("[data-testid=view-review]");
      await page.locator("[data-testid=diff-approve-all]").scrollIntoViewIfNeeded();
      await inViewport(page, "[data-testid=diff-approve-all]", "Approve all");
      await page.click("[data-testid=diff-approve-all]");

      await page.locator(sel.assistant, { hasText: "Changed the second line." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      await eventually(async () => assert.equal((await layoutOf(page)).view, "chat", "back to the chat once nothing waits"));
      await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "chat-input", null, { timeout: 5000 });
      await page.screenshot({ path: join(ctx.artifactsDir, "narrow-chat.png") });
      assert.equal(readFileSync(join(project, "notes.txt"), "utf8"), "one\nTWO\nthree\n");

      // Files are a tab too, with the changed file marked.
      await page.click("[data-testid=view-files]");
      await page.locator("[data-testid=file-tree] [data-testid=file-tree-item][data-path='notes.txt'][data-changed=true]").waitFor({ timeout: 10_000 });
      await noSidewaysScroll(page);

      // Settings is taller than the window: it scrolls under its buttons, which stay in view.
      await page.click("[data-testid=settings-open]");
      await inViewport(page, "[data-testid=settings-save]", "Save in Settings");
      assert.ok(await page.locator(".modal").evaluate((m) => m.scrollHeight > m.clientHeight), "the dialog scrolls");
      assert.deepEqual(await appConsoleErrors(ctx), []);
    },
  },

  {
    name: "at 200% scaling the sessions are a drawer: Esc and the backdrop close it, opening a session closes it",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const { llm, sessionId: first } = await startChat(ctx, { turns: [{ text: "First answer." }, { text: "Second answer." }] });
      await send(ctx, "hello there");
      await page.locator(sel.assistant, { hasText: "First answer." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      await page.setViewportSize(narrow);
      await page.locator(".app[data-layout=narrow]").waitFor();

      const toggle = page.locator("[data-testid=sidebar-toggle]");
      assert.equal(await toggle.getAttribute("aria-expanded"), "false");
      await toggle.click();
      await page.locator("[data-testid=session-list]").waitFor({ state: "visible" });
      await eventually(async () => {
        assert.equal((await layoutOf(page)).sidebar, "drawer");
        assert.equal(await toggle.getAttribute("aria-expanded"), "true");
      });
      await inViewport(page, "#sidebar", "the drawer");
      await inViewport(page, "[data-testid=session-new]", "New session");
      await page.screenshot({ path: join(ctx.artifactsDir, "narrow-drawer.png") });
      // The focus moves into the drawer.
      await page.waitForFunction(() => document.querySelector("#sidebar")?.contains(document.activeElement), null, { timeout: 5000 });

      await page.keyboard.press("Escape");
      await page.locator("[data-testid=session-list]").waitFor({ state: "detached" });
      // The focus goes back to the toggle.
      await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "sidebar-toggle", null, { timeout: 5000 });

      // Ctrl+B opens it; the backdrop closes it.
      await page.keyboard.press("Control+b");
      await page.locator("[data-testid=session-list]").waitFor({ state: "visible" });
      await page.mouse.click(620, 200);
      await page.locator("[data-testid=session-list]").waitFor({ state: "detached" });

      // A new session from the drawer: it closes and the chat is empty and ready.
      await toggle.click();
      await page.click("[data-testid=session-new]");
      await page.locator("[data-testid=session-list]").waitFor({ state: "detached" });
      await eventually(async () => assert.equal(await page.locator(sel.message).count(), 0, "the new session is empty"));
      await send(ctx, "second session");
      await page.locator(sel.assistant, { hasText: "Second answer." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);

      // Back to the first one through the drawer.
      await toggle.click();
      await page.click(`[data-testid=session-item][data-session-id="${first}"] button`);
      await page.locator("[data-testid=session-list]").waitFor({ state: "detached" });
      await page.locator(sel.assistant, { hasText: "First answer." }).waitFor();
      assert.equal(await page.locator(sel.message, { hasText: "Second answer." }).count(), 0);
      assert.equal((await waitRequests(ctx, llm, 2)).length, 2);

      // Wide again: three columns, the drawer gone.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.locator(".app[data-layout=wide]").waitFor();
      assert.equal(await page.locator("[data-testid=view-chat]").count(), 0, "no view bar");
      for (const s of ["[data-testid=session-list]", sel.input, "[data-testid=tab-review]"]) await page.locator(s).waitFor({ state: "visible" });
    },
  },

  {
    name: "the wide window's sidebar folds into a rail with Ctrl+B and stays folded after a reload",
    async fn(ctx) {
      const { page } = ctx;
      await page.locator("[data-testid=sidebar-toggle]").waitFor();
      assert.equal((await layoutOf(page)).sidebar, "shown");
      // The chat's element is replaced while the app loads (placeholder, then the session), so measure until one is there.
      const chatWidth = () => ctx.waitFor(async () => (await page.locator("#chat").boundingBox())?.width, { message: "the chat's width" });
      const chatBefore = await chatWidth();
      await page.keyboard.press("Control+b");
      await page.locator(".app[data-sidebar=rail]").waitFor();
      // The chat gets the room (waited for: the columns may animate).
      await ctx.waitFor(async () => (await chatWidth()) > chatBefore + 150, { message: `the chat growing from ${chatBefore} px by the sidebar's room` });
      await page.reload();
      await page.locator(".app[data-sidebar=rail]").waitFor();
      await page.click("[data-testid=sidebar-toggle]");
      await page.locator(".app[data-sidebar=shown]").waitFor();
      await page.reload();
      await page.locator(".app[data-sidebar=shown]").waitFor();
    },
  },

  {
    name: "every control is reached with Tab and shows its focus, wide and at 200% scaling",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await startChat(ctx, editScript, { "notes.txt": "one\ntwo\nthree\n" });
      await send(ctx, "capitalise two");
      await page.locator(`${sel.diffView}[data-path="notes.txt"]`).waitFor({ state: "visible", timeout: 30_000 });
      await assertKeyboardReach(page, "wide, reviewing a change");
      await page.setViewportSize(narrow);
      await page.locator(".app[data-layout=narrow]").waitFor();
      await page.locator(`${sel.diffView}[data-path="notes.txt"]`).waitFor({ state: "visible", timeout: 30_000 });
      await assertKeyboardReach(page, "narrow, reviewing a change");
      await page.locator("[data-testid=change-review]").focus();
      await page.keyboard.press("a");
      await page.locator(sel.assistant, { hasText: "Changed the second line." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      await assertKeyboardReach(page, "narrow, chat");
      await page.click("[data-testid=view-files]");
      await assertKeyboardReach(page, "narrow, files");
      await page.click("[data-testid=sidebar-toggle]");
      await page.locator("[data-testid=session-list]").waitFor();
      await assertKeyboardReach(page, "narrow, drawer");
      await page.keyboard.press("Escape");
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.locator(".app[data-layout=wide]").waitFor();
      await assertKeyboardReach(page, "wide, chat");
      await page.click("[data-testid=settings-open]");
      await page.locator("[data-testid=settings-save]").waitFor();
      await assertKeyboardReach(page, "wide, Settings");
    },
  },
];
