// The file tree, the @ picker and the header's git state follow the open
// session's folder: a worktree session shows its worktree (a file only
// the worktree has, its branch pilot/NAME and its uncommitted count), a
// folder session the project folder.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventually, sel, startChat, startSession } from "./helpers.mjs";

function git(dir, ...args) {
  return execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.org", "-c", "init.defaultBranch=main", ...args], { cwd: dir, encoding: "utf8" });
}

const treePaths = (page) => page.locator("[data-testid=file-tree] [data-testid=file-tree-item]").evaluateAll((els) => els.map((e) => e.getAttribute("data-path")));

export const tests = [
  {
    name: "a worktree session's tree, @ picker and git badge show its worktree; a folder session's the project folder",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const { project } = await startChat(ctx, { turns: [{ text: "Hello." }] }, { "a.txt": "a\n" }, { newSession: false });
      git(project, "init", "-q");
      git(project, "add", "-A");
      git(project, "commit", "-q", "-m", "start");

      await page.click("[data-testid=session-new-worktree]");
      await page.fill("[data-testid=worktree-name]", "tree");
      await page.click("[data-testid=worktree-create]");
      await page.locator("[data-testid=worktree-dialog]").waitFor({ state: "detached" });
      const wtItem = page.locator('[data-testid=session-item][data-branch="pilot/tree"]');
      await wtItem.locator("button[aria-current=true]").waitFor({ timeout: 30_000 });
      const worktree = git(project, "worktree", "list", "--porcelain")
        .split("\n")
        .find((l) => l.startsWith("worktree ") && l.endsWith("/tree"))
        ?.slice("worktree ".length);
      assert.ok(worktree, "the worktree is listed");
      writeFileSync(join(worktree, "only-here.txt"), "only in the worktree\n");

      // A folder session: the project folder, on main, clean.
      await startSession(ctx);
      await page.click("[data-testid=tab-files]");
      const head = page.locator("[data-testid=file-tree-root]");
      await eventually(async () => assert.equal(await head.getAttribute("data-root"), "folder"));
      await page.locator('[data-testid=file-tree-item][data-path="a.txt"]').waitFor();
      assert.ok(!(await treePaths(page)).includes("only-here.txt"), "the project folder has no only-here.txt");
      const badge = page.locator("[data-testid=git-status]");
      await eventually(async () => assert.equal(await badge.getAttribute("data-branch"), "main"));
      assert.equal(await badge.getAttribute("data-uncommitted"), "0");

      // The worktree session (kept in the list though left without a message):
      // its worktree, on pilot/tree, one uncommitted file.
      await wtItem.locator("button").first().click();
      await wtItem.locator("button[aria-current=true]").waitFor();
      await page.locator('[data-testid=file-tree-item][data-path="only-here.txt"]').waitFor({ timeout: 30_000 });
      assert.equal(await head.getAttribute("data-root"), "worktree");
      assert.equal(await head.getAttribute("data-branch"), "pilot/tree");
      assert.match(await head.innerText(), /pilot\/tree/);
      await eventually(async () => {
        assert.equal(await badge.getAttribute("data-branch"), "pilot/tree");
        assert.equal(await badge.getAttribute("data-uncommitted"), "1");
      });
      assert.match(await badge.innerText(), /pilot\/tree/);

      // The @ picker finds the worktree's file.
      await page.fill(sel.input, "see @only-h");
      await eventually(async () => assert.match(await page.locator("[data-testid=file-picker-item]").first().innerText(), /only-here\.txt/));
    },
  },
];
