// The whole window passes an accessibility check (issue 28): axe-core,
// injected into the real window at 1280x820, at 200% scaling and in the
// dark theme, finds no serious or critical violation on the main screens
// (a new session, a change waiting for review, a command waiting for
// approval, a chat with tool cards, the Changes view, and Settings section
// by section), and every control shows where the keyboard focus is. Every button has a name and text has AA
// contrast: axe's button-name and color-contrast rules, among the others.
import assert from "node:assert/strict";
import { check } from "./a11y-helpers.mjs";
import { sel, send, startChat, waitState, waitTurnDone } from "./helpers.mjs";
import { defaultWindow } from "./ledger-helpers.mjs";

/** Opens the main screens one after another and checks each; narrow: at 200% scaling (640x410 CSS px). */
async function walk(ctx, narrow, dark = false) {
  const { page, context } = ctx;
  await defaultWindow(page);
  if (dark) await page.emulateMedia({ colorScheme: "dark" });
  const found = [];
  await startChat(
    ctx,
    {
      turns: [
        { when: { lastUserContains: "tidy" }, text: "I will read the notes first.", toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] },
        { when: { toolResultContains: "status: draft" }, toolCalls: [{ name: "patch_file", input: { path: "notes.txt", old_text: "status: draft", new_text: "status: done" } }] },
        { when: { toolResultContains: "notes.txt" }, toolCalls: [{ name: "run_bash", input: { command: "echo checked" } }] },
        { when: { hasToolResult: true }, text: "The notes say **done** now." },
      ],
    },
    { "notes.txt": "status: draft\n" },
  );
  if (narrow) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setDeviceMetricsOverride", { width: 640, height: 410, deviceScaleFactor: 2, mobile: false });
    await page.locator(".app[data-layout=narrow]").waitFor();
  }
  if (dark) assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), "rgb(24, 25, 28)", "the dark theme is on");
  await check(page, "new session", found);

  await send(ctx, "tidy the notes");
  await page.locator(`${sel.review}[data-phase=deciding]`).waitFor({ timeout: 30_000 });
  await check(page, "a change waiting for review", found);
  await page.click("[data-testid=diff-approve-all]");

  await page.locator("[data-testid=bash-approval]").waitFor({ timeout: 30_000 });
  await check(page, "a command waiting for approval", found);
  await page.click("[data-testid=bash-approve]");
  if (narrow) await page.click("[data-testid=view-chat]");
  await page.locator(sel.assistant, { hasText: "done now" }).waitFor({ timeout: 30_000 });
  await waitTurnDone(ctx);
  await waitState(ctx, "idle");
  await check(page, "a chat with tool cards", found);

  await page.click(narrow ? "[data-testid=view-changes]" : "[data-testid=changes-open]");
  await page.locator("[data-testid=changes-view]").waitFor();
  await check(page, "the Changes view", found);

  await page.click("[data-testid=settings-open]");
  const dialog = page.locator("[data-testid=settings-dialog]");
  await dialog.waitFor();
  for (const item of await dialog.locator("[data-testid=settings-nav-item]").all()) {
    const id = await item.getAttribute("data-section");
    await item.click();
    await dialog.locator(`[data-testid=settings-nav-item][data-section="${id}"][aria-current=location]`).waitFor();
    await check(page, `Settings › ${id}`, found);
  }
  assert.deepEqual(found, [], `accessibility problems:\n${found.join("\n")}`);
}

export const tests = [
  {
    name: "at 1280x820 the main screens have no serious accessibility violation, and focus shows everywhere",
    manualStart: true,
    timeout: 180_000,
    fn: (ctx) => walk(ctx, false),
  },
  {
    name: "at 200% scaling (640x410) the main screens have no serious accessibility violation, and focus shows everywhere",
    manualStart: true,
    timeout: 180_000,
    fn: (ctx) => walk(ctx, true),
  },
  {
    name: "in the dark theme at 1280x820 the main screens have no serious accessibility violation, and focus shows everywhere",
    manualStart: true,
    timeout: 180_000,
    fn: (ctx) => walk(ctx, false, true),
  },
];
