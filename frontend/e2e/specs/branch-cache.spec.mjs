// The Branch view paints at once from the branch the window read when the
// session's turn ended, then reads it again: a branch changed since (here a
// file changed in the worktree outside Pilot) replaces the view, which says
// so; a branch that did not change stays as painted, with no notice.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { send, startChat, waitTurnDone } from "./helpers.mjs";

function git(dir, ...args) {
  return execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.org", ...args], { cwd: dir, encoding: "utf8" });
}

const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1} of the greeting`);
const withLine2 = (text) => lines.map((l, i) => (i === 1 ? text : l)).join("\n") + "\n";

/**
 * In the page: clicks branch-open and resolves with what the view shows as
 * soon as it is ready (data-fresh and its hunks' text), before
 * any later read can change it.
 */
function firstPaint(page) {
  return page.evaluate(
    () =>
      new Promise((done) => {
        const ready = () => document.querySelector('[data-testid="branch-view"][data-status="ready"]');
        const watch = new MutationObserver(() => {
          const v = ready();
          if (!v || !v.querySelector('[data-testid="diff-hunk"]')) return;
          watch.disconnect();
          done({ fresh: v.getAttribute("data-fresh"), text: [...v.querySelectorAll('[data-testid="diff-hunk"]')].map((h) => h.textContent).join("\n") });
        });
        watch.observe(document.body, { subtree: true, childList: true, attributes: true });
        document.querySelector('[data-testid="branch-open"]').click();
      }),
  );
}

export const tests = [
  {
    name: "the Branch view paints the branch read at the turn's end, and a branch changed since replaces it with a notice",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const script = {
        turns: [
          { when: { lastUserContains: "first" }, text: "Done with the first." },
          { when: { lastUserContains: "second" }, text: "Done with the second." },
        ],
      };
      const { project } = await startChat(ctx, script, { "greet.txt": lines.join("\n") + "\n" }, { newSession: false });
      git(project, "init", "-q");
      git(project, "add", "-A");
      git(project, "commit", "-q", "-m", "start");

      await page.click("[data-testid=session-new-worktree]");
      await page.fill("[data-testid=worktree-name]", "cache");
      await page.click("[data-testid=worktree-create]");
      await page.locator("[data-testid=worktree-dialog]").waitFor({ state: "detached" });
      await page.locator('[data-testid=session-item][data-branch="pilot/cache"] button[aria-current=true]').waitFor({ timeout: 30_000 });
      const worktree = git(project, "worktree", "list", "--porcelain")
        .split("\n")
        .find((l) => l.startsWith("worktree ") && l.endsWith("/cache"))
        ?.slice("worktree ".length);
      assert.ok(worktree, "the worktree is listed");

      // The session's work (written here, as a command of its turn would), then its turn ends: the window reads the branch.
      writeFileSync(join(worktree, "greet.txt"), withLine2("line 2, as the turn left it"));
      await send(ctx, "first");
      await waitTurnDone(ctx);
      const open = page.locator("[data-testid=branch-open]");
      await page.locator('[data-testid=branch-open][data-cache="held"]').waitFor({ timeout: 30_000 });

      // Changed since, outside Pilot: painted as read, then replaced.
      writeFileSync(join(worktree, "greet.txt"), withLine2("line 2, changed since"));
      const first = await firstPaint(page);
      assert.equal(first.fresh, "false", "the first frame shows the branch read ahead");
      assert.match(first.text, /as the turn left it/);
      const view = page.locator('[data-testid=branch-view][data-fresh="true"]');
      await view.waitFor({ timeout: 30_000 });
      const replaced = page.locator("[data-testid=branch-replaced]");
      await replaced.waitFor();
      assert.equal(await replaced.innerText(), "The branch changed since it was shown; its review starts again.");
      assert.match((await view.locator("[data-testid=diff-hunk]").allTextContents()).join("\n"), /changed since/);

      // Another turn ends with the branch as it is: painted from what was read, kept as painted.
      await page.click("[data-testid=tab-review]");
      await send(ctx, "second");
      await waitTurnDone(ctx);
      await page.locator('[data-testid=branch-open][data-cache="held"]').waitFor({ timeout: 30_000 });
      const again = await firstPaint(page);
      assert.equal(again.fresh, "false");
      assert.match(again.text, /changed since/);
      await view.waitFor({ timeout: 30_000 });
      assert.equal(await page.locator("[data-testid=branch-replaced]").count(), 0, "the same branch is not said to have changed");
      assert.equal(await open.getAttribute("data-cache"), "held");
    },
  },
];
