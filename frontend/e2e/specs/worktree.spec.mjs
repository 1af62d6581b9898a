// A session in a new git worktree, from the window: "+ Worktree" asks for a
// name, the session opens and its tools read the worktree (the committed
// file), not the user's folder (an uncommitted edit); a folder outside git
// gets the sentence that says to run git init.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventually, openProject, sel, send, startChat, waitTurnDone } from "./helpers.mjs";

function git(dir, ...args) {
  return execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.org", ...args], { cwd: dir, encoding: "utf8" });
}

async function newWorktreeSession(page, name) {
  await page.click("[data-testid=session-new-worktree]");
  await page.fill("[data-testid=worktree-name]", name);
  await page.click("[data-testid=worktree-create]");
}

export const tests = [
  {
    name: "a new worktree session works in its worktree on pilot/NAME; the user's folder is untouched",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const script = {
        turns: [
          { when: { lastUserContains: "read the notes" }, toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] },
          { when: { toolResultContains: "committed text" }, text: "The notes hold the committed text." },
          { when: { hasToolResult: true }, text: "The notes hold something else." },
        ],
      };
      const { project } = await startChat(ctx, script, { "notes.txt": "committed text\n" }, { newSession: false });
      git(project, "init", "-q");
      git(project, "add", "-A");
      git(project, "commit", "-q", "-m", "start");
      writeFileSync(join(project, "notes.txt"), "the user's uncommitted edit\n");

      await newWorktreeSession(page, "spike");
      await page.locator("[data-testid=worktree-dialog]").waitFor({ state: "detached" });
      await page.locator(sel.input).waitFor({ state: "visible" });
      await send(ctx, "read the notes");
      await page.locator(sel.assistant, { hasText: "The notes hold the committed text." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);

      const worktrees = git(project, "worktree", "list", "--porcelain");
      const line = worktrees.split("\n").find((l) => l.startsWith("worktree ") && l.endsWith("/spike"));
      assert.ok(line, `git worktree list has no spike worktree:\n${worktrees}`);
      assert.match(worktrees, /branch refs\/heads\/pilot\/spike/);
      const wt = line.slice("worktree ".length);
      assert.ok(existsSync(join(wt, "notes.txt")));
      assert.equal(readFileSync(join(project, "notes.txt"), "utf8"), "the user's uncommitted edit\n");
      assert.equal(git(project, "status", "--porcelain").trim(), "M notes.txt");
    },
  },
  {
    name: "a folder outside git: the dialog says to run git init and keeps the name",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const { project } = await startChat(ctx, { turns: [] }, { "a.txt": "a\n" }, { newSession: false });
      await openProject(ctx, project);
      await newWorktreeSession(page, "nope");
      const error = page.locator("[data-testid=worktree-error]");
      await error.waitFor({ state: "visible", timeout: 15_000 });
      await eventually(async () => assert.match(await error.textContent(), /git init/));
      assert.equal(await page.inputValue("[data-testid=worktree-name]"), "nope");
    },
  },
];
