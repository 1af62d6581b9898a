// Two sessions in their own worktrees change one file differently at the
// same time; the list shows both live; one branch is reviewed, one of its
// two hunks merged into the user's folder and undone from the Changes view;
// the other worktree is discarded (git worktree list and git branch
// checked). With PILOT_E2E_SCREENSHOTS=docs it saves the README's pictures.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { approveChange, docShot } from "./ledger-helpers.mjs";
import { eventually, sel, send, startChat, waitTurnDone } from "./helpers.mjs";

function git(dir, ...args) {
  return execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.org", ...args], { cwd: dir, encoding: "utf8" });
}

const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1} of the greeting`);
const original = lines.join("\n") + "\n";
const withEdits = (edits) => lines.map((l, i) => edits[i + 1] ?? l).join("\n") + "\n";
// left changes lines 2 and 18 (two hunks), right changes line 2 otherwise.
const leftText = withEdits({ 2: "line 2, said by the left session", 18: "line 18, said by the left session" });
const rightText = withEdits({ 2: "line 2, said by the right session" });

const item = (page, branch) => page.locator(`[data-testid=session-item][data-branch="${branch}"]`);

async function newWorktreeSession(ctx, name) {
  const { page } = ctx;
  await page.click("[data-testid=session-new-worktree]");
  await page.fill("[data-testid=worktree-name]", name);
  await page.click("[data-testid=worktree-create]");
  await page.locator("[data-testid=worktree-dialog]").waitFor({ state: "detached" });
  await item(page, `pilot/${name}`).locator("button[aria-current=true]").waitFor({ timeout: 30_000 });
  await page.locator(sel.input).waitFor({ state: "visible" });
}

async function openSession(ctx, branch) {
  const it = item(ctx.page, branch);
  await it.locator("button").first().click();
  await it.locator("button[aria-current=true]").waitFor();
}

export const tests = [
  {
    name: "two worktree sessions change one file at once; one hunk of one branch is merged and undone, the other worktree discarded",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      // Each session reads the file first (write_file refuses a file not
      // read), and its own marker file, so the script tells them apart.
      const script = {
        turns: [
          { when: { lastUserContains: "left change" }, toolCalls: [{ name: "read_file", input: { path: "greet.txt" } }, { name: "read_file", input: { path: "left.txt" } }] },
          { when: { lastUserContains: "right change" }, toolCalls: [{ name: "read_file", input: { path: "greet.txt" } }, { name: "read_file", input: { path: "right.txt" } }] },
          { when: { toolResultContains: "left marker" }, toolCalls: [{ name: "write_file", input: { path: "greet.txt", content: leftText } }] },
          { when: { toolResultContains: "right marker" }, toolCalls: [{ name: "write_file", input: { path: "greet.txt", content: rightText } }] },
          { when: { hasToolResult: true }, text: "Changed the greeting." },
          { when: { hasToolResult: true }, text: "Changed the greeting." },
        ],
      };
      const { project } = await startChat(ctx, script, { "greet.txt": original, "left.txt": "left marker\n", "right.txt": "right marker\n" }, { newSession: false });
      git(project, "init", "-q");
      git(project, "add", "-A");
      git(project, "commit", "-q", "-m", "start");

      await newWorktreeSession(ctx, "left");
      await send(ctx, "left change");
      await newWorktreeSession(ctx, "right");
      await send(ctx, "right change");

      // Both wait for their review at the same time, each shown live in the list.
      await eventually(async () => {
        assert.equal(await item(page, "pilot/left").getAttribute("data-state"), "waiting");
        assert.equal(await item(page, "pilot/right").getAttribute("data-state"), "waiting");
      }, { timeout: 30_000 });
      await docShot(page, "worktrees-live.png");

      await approveChange(ctx, "greet.txt"); // right's, open now
      await waitTurnDone(ctx);
      await openSession(ctx, "pilot/left");
      await approveChange(ctx, "greet.txt");
      await waitTurnDone(ctx);
      await eventually(async () => {
        assert.equal(await item(page, "pilot/left").getAttribute("data-state"), "idle");
        assert.equal(await item(page, "pilot/right").getAttribute("data-state"), "idle");
      });

      // Each worktree holds its own version; the user's folder is untouched.
      const worktrees = git(project, "worktree", "list", "--porcelain");
      const pathOf = (name) => worktrees.split("\n").find((l) => l.startsWith("worktree ") && l.endsWith(`/${name}`))?.slice("worktree ".length);
      const left = pathOf("left");
      const right = pathOf("right");
      assert.ok(left && right, `both worktrees are listed:\n${worktrees}`);
      assert.equal(readFileSync(join(left, "greet.txt"), "utf8"), leftText);
      assert.equal(readFileSync(join(right, "greet.txt"), "utf8"), rightText);
      assert.equal(readFileSync(join(project, "greet.txt"), "utf8"), original);
      assert.equal(git(project, "status", "--porcelain").trim(), "");

      // Review left's branch: approve its first hunk, reject its second, merge.
      await page.click("[data-testid=branch-open]");
      const view = page.locator("[data-testid=branch-view][data-status=ready]");
      await view.waitFor({ timeout: 30_000 });
      const hunks = view.locator('[data-testid=diff-view][data-path="greet.txt"] [data-testid=diff-hunk]');
      await eventually(async () => assert.equal(await hunks.count(), 2));
      await hunks.nth(0).locator("[data-testid=hunk-approve]").click();
      await hunks.nth(1).locator("[data-testid=hunk-reject]").click();
      await docShot(page, "worktree-branch.png");
      await page.click("[data-testid=branch-merge]");
      const result = page.locator("[data-testid=branch-merge-result]");
      await result.waitFor({ timeout: 30_000 });
      assert.equal(await result.getAttribute("data-merged"), "1");
      assert.equal(await result.getAttribute("data-conflicts"), "0");
      const merged = withEdits({ 2: "line 2, said by the left session" });
      assert.equal(readFileSync(join(project, "greet.txt"), "utf8"), merged, "exactly the approved hunk is in the user's folder");

      // Undo it from the Changes view of the session that holds the merge.
      await page.click("[data-testid=branch-merge-changes]");
      await page.locator("[data-testid=changes-view]").waitFor();
      await page.click('[data-testid=changes-file][data-path="greet.txt"]');
      await page.locator('[data-testid=changes-detail][data-path="greet.txt"] [data-testid=change-revert]').first().click();
      await eventually(() => assert.equal(readFileSync(join(project, "greet.txt"), "utf8"), original, "the merge is undone"), { timeout: 30_000 });

      // Discard right: its worktree and branch are gone.
      await openSession(ctx, "pilot/right");
      await page.click("[data-testid=branch-open]");
      await page.locator("[data-testid=branch-view][data-status=ready]").waitFor({ timeout: 30_000 });
      await page.click("[data-testid=branch-discard]");
      const confirm = page.locator("[data-testid=confirm-dialog]");
      await confirm.waitFor();
      const asked = await confirm.innerText();
      assert.match(asked, /pilot\/right/);
      assert.ok(asked.includes(right), `the confirmation names the worktree ${right}: ${asked}`);
      await page.click("[data-testid=confirm-accept]");
      await eventually(() => {
        assert.doesNotMatch(git(project, "worktree", "list", "--porcelain"), /\/right\n/);
        assert.doesNotMatch(git(project, "branch", "--list", "pilot/right"), /pilot\/right/);
      }, { timeout: 30_000 });
      assert.match(git(project, "branch", "--list", "pilot/left"), /pilot\/left/, "the other branch stays");
    },
  },
];
