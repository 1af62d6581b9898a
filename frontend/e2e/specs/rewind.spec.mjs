// Rewinding a session: the project tree back byte for byte, a file changed
// outside Pilot meanwhile (keep my current file / use the version from
// before the message, shown as a highlighted diff, 400 lines too, at
// 1280×820 and at 200% scaling), a rewind where every file is kept, the
// ledger after a restart of the app, and rewinding code and conversation.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { approveChange, approveCommand, changedFiles, defaultWindow, docShot, openChanges, rewindTo, treePicture, waitRestoreClosed } from "./ledger-helpers.mjs";
import { domTexts, eventually, openProject, sel, send, startChat, waitTurnDone } from "./helpers.mjs";

const narrow = { width: 640, height: 410 };

/** Nothing scrolls sideways. */
async function noSidewaysScroll(page) {
  const { sw, w } = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, w: window.innerWidth }));
  assert.ok(sw <= w, `page width ${sw} within the viewport ${w}`);
}

/**
 * A 400-line file Pilot edited in one place, then the user edited by hand
 * in 40 places (every tenth line). Returns the project and the texts.
 */
async function longConflictSession(ctx) {
  const original = Array.from({ length: 400 }, (_, i) => `const value${i + 1} = compute(${i + 1});`).join("\n") + "\n";
  const script = {
    turns: [
      { toolCalls: [{ name: "read_file", input: { path: "values.ts" } }] },
      { when: { hasToolResult: true }, toolCalls: [{ name: "patch_file", input: { path: "values.ts", old_text: "const value200 = compute(200);", new_text: "const value200 = compute(200) * 2;" } }] },
      { when: { hasToolResult: true }, text: "Doubled value200." },
    ],
  };
  const { project } = await startChat(ctx, script, { "values.ts": original });
  await send(ctx, "double value200");
  await approveChange(ctx, "values.ts");
  await turnEnds(ctx, "Doubled value200.");
  const byHand = read(project, "values.ts")
    .split("\n")
    .map((l, i) => ((i + 1) % 10 === 5 ? l.replace(/compute\((\d+)\)/, "computeByHand($1, { cached: true })") : l))
    .join("\n");
  writeFileSync(join(project, "values.ts"), byHand);
  return { project, original, byHand };
}

/** The rewind's conflict of values.ts, checked as a highlighted, folded, virtualised diff. */
async function longConflictShown(ctx) {
  const { page } = ctx;
  await rewindTo(ctx, "double value200", "code");
  const conflict = page.locator('[data-testid=rewind-conflict][data-path="values.ts"]');
  await conflict.waitFor({ state: "visible", timeout: 30_000 });
  await conflict.locator("td.code.del mark.intra").first().waitFor();
  // 41 lines differ (40 by hand, 1 by Pilot); near ones share a hunk.
  const legend = await conflict.locator(".conflict-legend").innerText();
  assert.match(legend, /− 41 lines only in yours/);
  const places = Number(/(\d+) places differ; unchanged lines are folded/.exec(legend)?.[1]);
  assert.ok(places >= 30, `the places that differ, each a hunk: ${legend}`);
  // The hunks near the view are drawn once their heights are measured: wait for that to hold.
  await eventually(async () => {
    const hunks = await conflict.locator("[data-testid=readonly-hunk]").count();
    assert.ok(hunks >= 2 && hunks < places, `only the hunks near the view are drawn (${hunks} of ${places})`);
    const rows = await conflict.locator("tr").count();
    assert.ok(rows < 400, `the 400 lines are not all drawn (${rows} rows)`);
  });
  // Read-only hunks (content-visibility: auto): their DOM text, see domTexts.
  assert.match(await conflict.locator("td.code.del mark.intra").first().textContent(), /ByHand/, "the characters that differ are marked");
  return conflict;
}

const read = (project, rel) => readFileSync(join(project, rel), "utf8");

/** Waits for the assistant's closing text, then for the turn to end. */
async function turnEnds(ctx, text) {
  await ctx.page.locator(sel.assistant, { hasText: text }).waitFor({ timeout: 30_000 });
  await waitTurnDone(ctx);
}

/**
 * A session of one message that patches a.txt and creates b.txt; then a.txt
 * is written "outside Pilot". Returns the project.
 */
async function conflictSession(ctx) {
  const script = {
    turns: [
      { toolCalls: [{ name: "read_file", input: { path: "a.txt" } }] },
      { when: { hasToolResult: true }, toolCalls: [{ name: "patch_file", input: { path: "a.txt", old_text: "alpha", new_text: "alpha by pilot" } }] },
      { when: { hasToolResult: true }, toolCalls: [{ name: "write_file", input: { path: "b.txt", content: "made by pilot\n" } }] },
      { when: { hasToolResult: true }, text: "Both written." },
    ],
  };
  const { project } = await startChat(ctx, script, { "a.txt": "alpha\nbeta\n" });
  await send(ctx, "change a and make b");
  await approveChange(ctx, "a.txt");
  await approveChange(ctx, "b.txt");
  await turnEnds(ctx, "Both written.");
  assert.equal(read(project, "a.txt"), "alpha by pilot\nbeta\n");
  // The user edits a.txt in their editor.
  writeFileSync(join(project, "a.txt"), "alpha by pilot\nbeta\nmine, typed by hand\n");
  return project;
}

/** Rewinds to the first message (code) and checks the conflict dialog before any choice. */
async function conflictShown(ctx, project) {
  const { page } = ctx;
  await rewindTo(ctx, "change a and make b", "code");
  const conflict = page.locator('[data-testid=rewind-conflict][data-path="a.txt"]');
  await conflict.waitFor({ state: "visible", timeout: 30_000 });
  assert.equal(await page.locator("[data-testid=rewind-conflict]").count(), 1, "only a.txt was changed outside Pilot");
  // The two versions as a highlighted diff: the user's file on the left, the one from before the message on the right.
  await conflict.locator("[data-testid=conflict-diff] td.code.del").first().waitFor();
  const dels = (await domTexts(conflict.locator("td.code.del"))).join("\n");
  const adds = (await domTexts(conflict.locator("td.code.add"))).join("\n");
  assert.match(dels, /alpha by pilot/);
  assert.match(dels, /mine, typed by hand/);
  assert.match(adds, /^\+?\s*alpha$/m, "the version from before the message");
  assert.doesNotMatch(adds, /by pilot|mine/, "the earlier version is the file from before the message");
  assert.match(await conflict.innerText(), /Yours, on disk now[\s\S]*Before this message/);
  assert.equal(await conflict.locator("[data-testid=rewind-keep-mine]").innerText(), "Keep my current file");
  assert.equal(await conflict.locator("[data-testid=rewind-take-checkpoint]").innerText(), "Use the version from before this message");
  assert.doesNotMatch(await page.locator("[data-testid=restore-conflicts]").innerText(), /checkpoint/i, "no ledger jargon");
  // Nothing written while the user decides.
  assert.equal(read(project, "a.txt"), "alpha by pilot\nbeta\nmine, typed by hand\n");
  assert.equal(read(project, "b.txt"), "made by pilot\n", "no file is restored until every conflict is decided");
  return conflict;
}

export const tests = [
  {
    name: "rewinding to the first message puts the project tree back byte for byte (content, modes, folders, symlinks)",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const command = "rm del.txt link.txt && chmod 755 mode.txt && chmod 600 script.sh";
      const script = {
        turns: [
          { toolCalls: [{ name: "read_file", input: { path: "src/a.txt" } }] },
          { when: { hasToolResult: true }, toolCalls: [{ name: "patch_file", input: { path: "src/a.txt", old_text: "two", new_text: "TWO" } }] },
          { when: { hasToolResult: true }, toolCalls: [{ name: "write_file", input: { path: "new/deep/made.txt", content: "fresh\n" } }] },
          { when: { hasToolResult: true }, toolCalls: [{ name: "run_bash", input: { command } }] },
          { when: { hasToolResult: true }, text: "Session work finished." },
        ],
      };
      const files = {
        "src/a.txt": "one\ntwo\nthree\n",
        "del.txt": "to be deleted\n",
        "mode.txt": "mode changes\n",
        "script.sh": "#!/bin/sh\necho hi\n",
        "target.txt": "a link points here\n",
        "bin.dat": "\u0000\u0001\u0002binary\u00ff",
      };
      const { project } = await startChat(ctx, script, files);
      chmodSync(join(project, "script.sh"), 0o755);
      chmodSync(join(project, "mode.txt"), 0o644);
      symlinkSync("target.txt", join(project, "link.txt"));
      const before = treePicture(project);

      await send(ctx, "do the session work");
      await approveChange(ctx, "src/a.txt");
      await approveChange(ctx, "new/deep/made.txt");
      await approveCommand(ctx, command);
      await turnEnds(ctx, "Session work finished.");
      const during = treePicture(project);
      assert.notDeepEqual(during, before);
      assert.ok(!existsSync(join(project, "link.txt")) && !existsSync(join(project, "del.txt")));
      assert.ok(during.some((l) => l.startsWith("file mode.txt 755")), "the command chmodded mode.txt");

      await openChanges(ctx);
      const changed = await changedFiles(ctx, 6);
      assert.deepEqual(changed, {
        "src/a.txt": "modified",
        "new/deep/made.txt": "created",
        "del.txt": "deleted",
        "link.txt": "deleted",
        "mode.txt": "modified",
        "script.sh": "modified",
      });

      await rewindTo(ctx, "do the session work", "code");
      await waitRestoreClosed(ctx);
      assert.deepEqual(treePicture(project), before, "byte-identical tree after the rewind");
    },
  },

  {
    name: "a file created in a folder that was empty: rewinding removes the file and keeps the folder",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const script = {
        turns: [
          { toolCalls: [{ name: "write_file", input: { path: "empty/note.txt", content: "in a folder that was empty\n" } }] },
          { when: { hasToolResult: true }, toolCalls: [{ name: "write_file", input: { path: "fresh/dir/made.txt", content: "in new folders\n" } }] },
          { when: { hasToolResult: true }, text: "Notes written." },
        ],
      };
      const { project } = await startChat(ctx, script, { "keep.txt": "keep\n" });
      mkdirSync(join(project, "empty"));
      const before = treePicture(project);
      await send(ctx, "write the notes");
      await approveChange(ctx, "empty/note.txt");
      await approveChange(ctx, "fresh/dir/made.txt");
      await turnEnds(ctx, "Notes written.");
      assert.equal(read(project, "empty/note.txt"), "in a folder that was empty\n");

      await rewindTo(ctx, "write the notes", "code");
      await waitRestoreClosed(ctx);
      await ctx.waitFor(() => !existsSync(join(project, "fresh")), { timeout: 10_000, message: "the folders the session made are removed" });
      assert.deepEqual(treePicture(project), before, "the empty folder the project had is still there");
    },
  },

  {
    name: "a file edited outside Pilot: rewind shows the conflict, writes nothing until asked, and Keep mine keeps it",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const project = await conflictSession(ctx);
      const conflict = await conflictShown(ctx, project);

      await conflict.locator("[data-testid=rewind-keep-mine]").click();
      await waitRestoreClosed(ctx);
      assert.equal(read(project, "a.txt"), "alpha by pilot\nbeta\nmine, typed by hand\n", "the user's version stays");
      await ctx.waitFor(() => !existsSync(join(project, "b.txt")), { timeout: 10_000, message: "b.txt removed" });
    },
  },

  {
    name: "a file edited outside Pilot: Use the version from before this message restores it",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const project = await conflictSession(ctx);
      const conflict = await conflictShown(ctx, project);
      await conflict.locator("[data-testid=rewind-take-checkpoint]").click();
      await waitRestoreClosed(ctx);
      await ctx.waitFor(() => !existsSync(join(project, "b.txt")), { timeout: 10_000, message: "b.txt removed" });
      assert.equal(read(project, "a.txt"), "alpha\nbeta\n", "the checkpoint's version");
    },
  },

  {
    name: "1280×820: a 400-line file edited in 40 places shows as a highlighted diff; using the earlier version restores it",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const { project, original, byHand } = await longConflictSession(ctx);
      const conflict = await longConflictShown(ctx);
      // The layout is chosen by measuring the room (two sides of 80 characters): wait for it.
      await eventually(async () => assert.equal(await conflict.locator("[data-testid=conflict-diff]").getAttribute("data-layout"), "split", "side by side in the default window"));
      await docShot(page, "ledger-rewind-conflict.png");
      // The last place is reached by scrolling the diff; the hunks near it are drawn then.
      const scroller = conflict.locator(".conflict-hunks");
      await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await conflict.locator("td.code.del", { hasText: "computeByHand(395" }).waitFor();
      assert.equal(read(project, "values.ts"), byHand, "nothing written while the user decides");

      await conflict.locator("[data-testid=rewind-take-checkpoint]").click();
      await waitRestoreClosed(ctx);
      // The dialog closes when the restore starts; its notice says it ended.
      const banner = page.locator("[data-testid=notice-banner]");
      await banner.waitFor({ timeout: 30_000 });
      assert.equal(read(project, "values.ts"), original, "the version from before the message");
      assert.equal(await banner.getAttribute("data-tone"), "done");
      assert.match(await banner.innerText(), /1 file restored/);
    },
  },

  {
    name: "200% scaling (640×410): the 400-line conflict is a unified highlighted diff that fits the window; keeping every file says nothing changed",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const { project, byHand } = await longConflictSession(ctx);
      await page.setViewportSize(narrow);
      await page.locator(".app[data-layout=narrow]").waitFor();
      await page.click("[data-testid=view-chat]");
      const conflict = await longConflictShown(ctx);
      await eventually(async () => assert.equal(await conflict.locator("[data-testid=conflict-diff]").getAttribute("data-layout"), "unified", "one column at 640 px"));
      await noSidewaysScroll(page);
      const keep = conflict.locator("[data-testid=rewind-keep-mine]");
      await keep.scrollIntoViewIfNeeded();
      const box = await keep.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= narrow.width, `Keep my current file is in the window: ${JSON.stringify(box)}`);
      await docShot(page, "scaled-narrow-rewind-conflict.png");

      await keep.click();
      await waitRestoreClosed(ctx);
      const banner = page.locator("[data-testid=notice-banner]");
      await banner.waitFor({ timeout: 30_000 });
      assert.equal(read(project, "values.ts"), byHand, "the user's file stays");
      assert.equal(await banner.getAttribute("data-tone"), "unchanged", "not a success banner");
      assert.match(await banner.innerText(), /Nothing was rewound: you kept your own version of values\.ts, so no file changed\./);
      assert.doesNotMatch(await banner.innerText(), /Rewound/);
    },
  },

  {
    name: "after a restart the session's Changes view is still there and rewind still works",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const command = "printf 'from the command\\n' > c.txt";
      const script = {
        turns: [
          { toolCalls: [{ name: "read_file", input: { path: "a.txt" } }] },
          { when: { hasToolResult: true }, toolCalls: [{ name: "patch_file", input: { path: "a.txt", old_text: "old", new_text: "new" } }] },
          { when: { hasToolResult: true }, toolCalls: [{ name: "run_bash", input: { command } }] },
          { when: { hasToolResult: true }, text: "Changed and ran." },
        ],
      };
      const { llm, project, sessionId } = await startChat(ctx, script, { "a.txt": "old text\n" });
      const before = treePicture(project);
      await send(ctx, "change it and run");
      await approveChange(ctx, "a.txt");
      await approveCommand(ctx, command);
      await turnEnds(ctx, "Changed and ran.");
      assert.equal(read(project, "c.txt"), "from the command\n");

      await ctx.restartApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project } });
      await defaultWindow(page);
      await openProject(ctx, project);
      const item = page.locator(`[data-testid=session-list] [data-testid=session-item][data-session-id="${sessionId}"]`);
      await item.waitFor({ state: "visible", timeout: 30_000 });
      await item.locator("button.list-button").click();
      await item.locator("button[aria-current=true]").waitFor();
      await page.locator(sel.user, { hasText: "change it and run" }).waitFor({ timeout: 30_000 });

      await openChanges(ctx);
      assert.deepEqual(await changedFiles(ctx, 2), { "a.txt": "modified", "c.txt": "created" });
      await page.click('[data-testid=changes-file][data-path="a.txt"]');
      const detail = page.locator('[data-testid=changes-detail][data-path="a.txt"]');
      await detail.locator("[data-testid=file-diff] td.code.add", { hasText: "new text" }).first().waitFor();
      assert.equal(await detail.locator("[data-testid=changes-step]").count(), 1);

      await rewindTo(ctx, "change it and run", "code");
      await waitRestoreClosed(ctx);
      await ctx.waitFor(() => !existsSync(join(project, "c.txt")), { timeout: 10_000, message: "c.txt removed" });
      assert.deepEqual(treePicture(project), before);
    },
  },

  {
    name: "rewinding code and conversation forks the session, keeps the old one browsable, and restores the files",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const script = {
        turns: [
          { when: { lastUserContains: "first edit" }, toolCalls: [{ name: "read_file", input: { path: "a.txt" } }] },
          { when: { hasToolResult: true }, toolCalls: [{ name: "patch_file", input: { path: "a.txt", old_text: "one", new_text: "ONE" } }] },
          { when: { hasToolResult: true }, text: "First done." },
          { when: { lastUserContains: "second edit" }, toolCalls: [{ name: "patch_file", input: { path: "a.txt", old_text: "two", new_text: "TWO" } }] },
          { when: { hasToolResult: true }, toolCalls: [{ name: "write_file", input: { path: "new.txt", content: "second\n" } }] },
          { when: { hasToolResult: true }, text: "Second done." },
        ],
      };
      const { project, sessionId } = await startChat(ctx, script, { "a.txt": "one\ntwo\n" });
      await send(ctx, "first edit please");
      await approveChange(ctx, "a.txt");
      await turnEnds(ctx, "First done.");
      await send(ctx, "second edit please");
      await approveChange(ctx, "a.txt");
      await approveChange(ctx, "new.txt");
      await turnEnds(ctx, "Second done.");
      assert.equal(read(project, "a.txt"), "ONE\nTWO\n");

      await rewindTo(ctx, "second edit please", "both");
      await waitRestoreClosed(ctx);
      // The fork is open: a new session, listed, with the conversation before the second message.
      const fork = Number(
        await (
          await page.waitForFunction((old) => {
            const active = document.querySelector('[data-testid=session-item] button[aria-current="true"]');
            const id = active?.closest("[data-testid=session-item]")?.getAttribute("data-session-id");
            return id && Number(id) !== old ? id : null;
          }, sessionId)
        ).jsonValue(),
      );
      assert.notEqual(fork, sessionId);
      await page.locator(sel.assistant, { hasText: "First done." }).waitFor();
      assert.equal(await page.locator(sel.user, { hasText: "second edit please" }).count(), 0, "the fork ends before the second message");
      assert.equal(read(project, "a.txt"), "ONE\ntwo\n", "the second message's edit is undone, the first kept");
      assert.ok(!existsSync(join(project, "new.txt")), "new.txt removed");

      // The old branch is still in the list and opens with everything.
      const old = page.locator(`[data-testid=session-item][data-session-id="${sessionId}"]`);
      assert.equal(await old.count(), 1, "the old session is still listed");
      await old.locator("button.list-button").click();
      await old.locator("button[aria-current=true]").waitFor();
      await page.locator(sel.assistant, { hasText: "Second done." }).waitFor({ timeout: 30_000 });
      await page.locator(sel.user, { hasText: "second edit please" }).waitFor();
      assert.equal(await page.locator(`${sel.toolCall}[data-tool=write_file]`).count(), 1, "its cards are there");
    },
  },
];
