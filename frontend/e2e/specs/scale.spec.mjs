// The window at scale, what could break when it renders less: a long
// streamed answer arrives whole and renders as it does when opened later; a
// search hit deep in a 2,000-message (virtualised) session is scrolled to;
// the keyboard reaches every hunk of a 200-hunk review. Timings are in
// bench-scale.mjs and bench-stream.mjs, not here.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bigEdit, bigEditScript, importLongSession, longAnswer } from "../lib/scaleData.mjs";
import { eventually, openProject, sel, send, startChat, waitState, waitTurnDone } from "./helpers.mjs";

/** Searches for word, opens its hit in the session titled title, and waits for the message in view, highlighted. */
async function openHit(page, title, word) {
  await page.fill("[data-testid=session-search]", word);
  // A hit of this search (the list of the last one may still be shown).
  const hit = page.locator("[data-testid=search-results] [data-testid=search-hit]", { hasText: title }).filter({ hasText: word }).first();
  await hit.waitFor();
  await hit.locator("button").click();
  await page.waitForFunction(
    (word) => {
      const t = document.querySelector("[data-testid=transcript]");
      const re = new RegExp(`\\b${word}\\b`);
      const m = [...document.querySelectorAll("[data-testid=message].hit")].find((e) => re.test(e.textContent));
      if (!t || !m) return false;
      const a = t.getBoundingClientRect();
      const b = m.getBoundingClientRect();
      return b.bottom > a.top && b.top < a.bottom;
    },
    word,
    { timeout: 30_000 },
  );
}

/** The rendered Markdown of the last assistant message: its HTML and its text without whitespace. */
async function lastAnswer(page) {
  return page.locator(sel.assistant).last().locator(".markdown").evaluate((el) => ({ html: el.innerHTML, text: el.textContent.replace(/\s+/g, "") }));
}

export const tests = [
  {
    name: "a long answer streamed word by word is complete, and renders as it does when the session is opened again",
    manualStart: true,
    timeout: 180_000,
    async fn(ctx) {
      const { page } = ctx;
      const answer = longAnswer();
      const { sessionId } = await startChat(ctx, { turns: [{ text: answer.md }] });
      await send(ctx, "write it all");
      await page.locator(`${sel.assistant}[data-state=complete]`).waitFor({ timeout: 120_000 });
      await waitTurnDone(ctx, 120_000);
      const streamed = await lastAnswer(page);
      assert.equal(streamed.text, answer.plain, "every word arrived, in order");
      // The view followed the answer to its end: text that grew between the
      // transcript's scroll to the end and its scroll event is not the user
      // scrolling up.
      // (The follow's last scroll can land a frame after the last render: waited for.)
      await eventually(async () => {
        const end = await page.locator("[data-testid=transcript]").evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
        assert.ok(end < 48, `the transcript is at its end after streaming (${end} px above it)`);
        assert.equal(await page.locator(".jump-latest").count(), 0, "no “↓ Latest” button after following the stream");
      });
      // Scrolled up by the user, the view stays put and offers the way back.
      await page.locator("[data-testid=transcript]").hover();
      await page.mouse.wheel(0, -600);
      await page.locator(".jump-latest").waitFor();
      await page.locator(".jump-latest").click();
      await page.waitForFunction(() => {
        const el = document.querySelector("[data-testid=transcript]");
        return el.scrollHeight - el.scrollTop - el.clientHeight < 48 && !document.querySelector(".jump-latest");
      });
      assert.ok((await page.locator(`${sel.assistant} [data-testid=md-long]`).count()) >= 2, "the long paragraphs were rendered in segments");

      // Opened again, the message is rendered from its stored text at once.
      await page.reload({ waitUntil: "load" });
      const item = page.locator(`[data-testid=session-item][data-session-id="${sessionId}"] button.list-button`);
      await item.click();
      await page.locator(`${sel.assistant}[data-state=complete]`).waitFor();
      const reopened = await lastAnswer(page);
      assert.equal(reopened.text, answer.plain);
      assert.equal(reopened.html, streamed.html, "the streamed rendering is the rendering of the whole text");
    },
  },
  {
    name: "search hits deep in a 2,000-message session (the 495th message, the first) are scrolled to and highlighted",
    manualStart: true,
    timeout: 180_000,
    async fn(ctx) {
      const { page } = ctx;
      const project = await ctx.projectDir({ "README.md": "# big\n" });
      const binary = join(ctx.repoRoot, "build/bin/pilot-dev");
      const titles = await importLongSession({ repoRoot: ctx.repoRoot, binary, home: ctx.pilotHome, project, tmp: project });
      // A key (never used) so that the window shows sessions, not the first-run screen.
      await ctx.startApp({ env: { PILOT_PROJECT: project, PILOT_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "e2e-fake-key" } });
      await openProject(ctx, project);

      // handler123 is in the 493rd to 496th messages of 2,000 (search matches
      // prefixes, and no handler1230 exists): far above the end the session
      // opens at, so the session opens with the messages from it on.
      await openHit(page, titles.long, "handler123");
      // handler0 is in the first four messages: the open session reads back
      // to it before scrolling there.
      await openHit(page, titles.long, "handler0");
      const rendered = await page.locator(sel.message).count();
      assert.ok(rendered < 100, `the transcript is virtualised (${rendered} messages in the DOM)`);
    },
  },
  {
    name: "the keyboard reaches every hunk of a 200-hunk review of a 20,000-line file, and exactly the approved hunks are written",
    manualStart: true,
    timeout: 240_000,
    async fn(ctx) {
      const { page } = ctx;
      const edit = bigEdit();
      const { project } = await startChat(ctx, bigEditScript(edit), { [edit.path]: edit.original });
      await send(ctx, "update the table");
      await waitState(ctx, "awaiting_approval", 60_000);
      const review = page.locator(sel.review);
      await review.waitFor({ timeout: 60_000 });
      await page.locator(`${sel.review}[data-phase=deciding]`).waitFor({ timeout: 60_000 });
      await review.focus();
      // y approves, n rejects; every third hunk is rejected.
      const approve = (i) => i % 3 !== 1;
      let most = 0;
      for (let i = 0; i < edit.hunks; i++) {
        await page.locator(`${sel.hunk}.focused[data-hunk-index="${i}"]`).waitFor({ state: "attached", timeout: 10_000 });
        if (i % 20 === 0) {
          // The focused hunk is wholly in the review's view, and only the hunks near it are in the DOM.
          await page.waitForFunction(
            (i) => {
              const h = document.querySelector(`[data-testid=diff-hunk].focused[data-hunk-index="${i}"]`);
              let s = h?.parentElement;
              while (s && !/auto|scroll/.test(getComputedStyle(s).overflowY)) s = s.parentElement;
              if (!h || !s) return false;
              const a = s.getBoundingClientRect();
              const b = h.getBoundingClientRect();
              return b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
            },
            i,
            { timeout: 10_000 },
          );
          most = Math.max(most, await page.locator(sel.hunk).count());
        }
        await page.keyboard.press(approve(i) ? "y" : "n");
        if (i < edit.hunks - 1) {
          await page.locator(`${sel.hunk}[data-hunk-index="${i}"][data-decision=${approve(i) ? "approved" : "rejected"}]`).waitFor({ state: "attached" });
        }
      }
      assert.ok(most < 40, `the review is virtualised (at most ${most} of ${edit.hunks} hunks in the DOM)`);
      await page.locator(`${sel.assistant}`, { hasText: "The table is updated." }).waitFor({ timeout: 60_000 });
      await waitTurnDone(ctx, 60_000);

      // The file holds the proposed line of each approved hunk and the original line of each rejected one.
      const before = edit.original.split("\n");
      const after = edit.proposed.split("\n");
      let hunk = 0;
      const expected = before.map((line, j) => (line === after[j] ? line : approve(hunk++) ? after[j] : line)).join("\n");
      assert.equal(hunk, edit.hunks, "one changed line per hunk");
      const written = readFileSync(join(project, edit.path), "utf8");
      assert.notEqual(written, edit.proposed);
      assert.equal(written, expected, "exactly the approved hunks were applied");
    },
  },
];
