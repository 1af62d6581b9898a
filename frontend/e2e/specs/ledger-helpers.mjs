// Shared steps of the change-ledger specs (ledger.spec.mjs, rewind.spec.mjs):
// deciding the agent's proposals one by one, the Changes view, the rewind
// menu, and a byte-for-byte picture of a project folder.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sel, waitState } from "./helpers.mjs";

/** The window size of the app as shipped (wails.json); no wideWindow. */
export async function defaultWindow(page) {
  await page.setViewportSize({ width: 1280, height: 820 });
}

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/**
 * Saves a page screenshot as docs/screenshots/NAME when
 * PILOT_E2E_SCREENSHOTS=docs (so an ordinary run never rewrites the
 * committed pictures).
 */
export async function docShot(page, name) {
  if (process.env.PILOT_E2E_SCREENSHOTS !== "docs") return;
  const path = join(repoRoot, "docs", "screenshots", name);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path });
}

/**
 * Waits for the next file change waiting for review (of `path`), approves
 * every hunk, and waits until its review is gone (decided). Tool cards are
 * not waited on: while a big change waits, the review may have the whole
 * window and the chat is not rendered.
 */
export async function approveChange(ctx, path) {
  const { page } = ctx;
  await waitState(ctx, "awaiting_approval");
  const review = page.locator(`${sel.review}[data-phase=deciding]`, { has: page.locator(`${sel.diffView}[data-path="${path}"]`) }).first();
  await review.waitFor({ state: "visible", timeout: 30_000 });
  const id = await review.getAttribute("data-approval-id");
  await review.locator("[data-testid=diff-approve-all]").click();
  await page.locator(`${sel.review}[data-approval-id="${id}"]`).waitFor({ state: "detached", timeout: 30_000 });
}

/** Waits for the next command waiting for approval, checks it is `command`, approves it, and waits until its approval is gone. */
export async function approveCommand(ctx, command) {
  const { page } = ctx;
  const card = page.locator("[data-testid=bash-approval]").first();
  await card.waitFor({ state: "visible", timeout: 30_000 });
  // The card shows the command after a "$ " prompt.
  assert.equal((await card.locator("[data-testid=bash-command]").innerText()).trim().replace(/^\$ /, ""), command);
  const id = await card.getAttribute("data-approval-id");
  await card.locator("[data-testid=bash-approve]").click();
  await page.locator(`[data-testid=bash-approval][data-approval-id="${id}"]`).waitFor({ state: "detached", timeout: 30_000 });
}

/** Opens the Changes view (the list of files) and waits until it is loaded. */
export async function openChanges(ctx) {
  const { page } = ctx;
  await page.click("[data-testid=changes-open]");
  const view = page.locator("[data-testid=changes-view]");
  await view.waitFor({ state: "visible" });
  // Back to the list if one file's history is open.
  const back = view.locator("[data-testid=changes-detail] .preview-head button").first();
  if (await back.isVisible().catch(() => false)) await back.click();
  await page.locator("[data-testid=changes-view][data-status=ready]").waitFor();
  return view;
}

/** The Changes view's files as { path: kind }, once it lists `n` of them. */
export async function changedFiles(ctx, n) {
  const { page } = ctx;
  const items = page.locator("[data-testid=changes-view] [data-testid=changes-file]");
  await ctx.waitFor(async () => (await items.count()) === n, { message: `${n} file(s) in the Changes view` });
  const list = await items.evaluateAll((els) => els.map((e) => [e.getAttribute("data-path"), e.getAttribute("data-kind")]));
  return Object.fromEntries(list);
}

/** Opens the rewind menu on the user message holding `text` and picks `mode` (code, both, conversation). */
export async function rewindTo(ctx, text, mode) {
  const { page } = ctx;
  const msg = page.locator(sel.user, { hasText: text });
  await msg.hover();
  await msg.locator("[data-testid=rewind]").click();
  await page.locator(`[data-testid=rewind-${mode}]`).click();
}

/** Waits until no restore dialog (rewind menu, conflicts) is open. */
export async function waitRestoreClosed(ctx) {
  const { page } = ctx;
  await page.locator("[data-testid=rewind-menu]").waitFor({ state: "detached", timeout: 30_000 });
  await page.locator("[data-testid=restore-conflicts]").waitFor({ state: "detached", timeout: 30_000 });
}

/**
 * Every entry under dir (not following symlinks) as a sorted list of lines:
 * folders with their mode, files with mode and content hash, symlinks with
 * their target. Two equal pictures mean byte-identical trees.
 */
export function treePicture(dir) {
  const out = [];
  const walk = (rel) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const abs = join(dir, r);
      const st = lstatSync(abs);
      const mode = (st.mode & 0o7777).toString(8);
      if (st.isSymbolicLink()) out.push(`link ${r} -> ${readlinkSync(abs)}`);
      else if (st.isDirectory()) {
        out.push(`dir  ${r} ${mode}`);
        walk(r);
      } else out.push(`file ${r} ${mode} ${createHash("sha256").update(readFileSync(abs)).digest("hex")}`);
    }
  };
  walk("");
  return out;
}
