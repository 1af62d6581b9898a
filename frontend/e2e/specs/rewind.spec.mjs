// Rewinding a session: the project tree back byte for byte, a file changed
// outside Pilot meanwhile (keep mine / take the checkpoint), the ledger after
// a restart of the app, and rewinding code and conversation (a fork).
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { approveChange, approveCommand, changedFiles, defaultWindow, docShot, openChanges, rewindTo, treePicture, waitRestoreClosed } from "./ledger-helpers.mjs";
import { openProject, sel, send, startChat, waitTurnDone } from "./helpers.mjs";

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
  const versions = conflict.locator(".version");
  assert.match(await versions.nth(0).innerText(), /Yours, on disk[\s\S]*mine, typed by hand/);
  const checkpoint = await versions.nth(1).innerText();
  assert.match(checkpoint, /Checkpoint[\s\S]*alpha\nbeta/);
  assert.doesNotMatch(checkpoint, /by pilot|mine/, "the checkpoint is the file from before the message");
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
      await docShot(page, "ledger-rewind-conflict.png");

      await conflict.locator("[data-testid=rewind-keep-mine]").click();
      await waitRestoreClosed(ctx);
      assert.equal(read(project, "a.txt"), "alpha by pilot\nbeta\nmine, typed by hand\n", "the user's version stays");
      await ctx.waitFor(() => !existsSync(join(project, "b.txt")), { timeout: 10_000, message: "b.txt removed" });
    },
  },

  {
    name: "a file edited outside Pilot: Take the checkpoint restores the version from before the message",
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
