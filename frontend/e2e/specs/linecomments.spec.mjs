// Issue 40, comments on lines: in a worktree session, one comment on the
// Branch view and two on a pending change (one on the hunk the user
// rejects) go to the model as one review: the change's result says why the
// hunk was rejected, and the model's next request carries exactly the three
// anchors (path:line, the line's text) and texts. After a restart the
// comments are still shown. With PILOT_E2E_SCREENSHOTS=docs it saves the
// README's picture of a review with comments.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { docShot } from "./ledger-helpers.mjs";
import { eventually, modelRequests, openProject, sel, send, startChat, waitDiff, waitTurnDone, wideWindow } from "./helpers.mjs";

function git(dir, ...args) {
  return execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.org", ...args], { cwd: dir, encoding: "utf8" });
}

const lines = Array.from({ length: 30 }, (_, i) => `const v${i + 1} = ${i + 1};`);
const original = lines.join("\n") + "\n";
const firstEdit = original.replace("const v3 = 3;", "const v3 = 300;");

const script = {
  turns: [
    { when: { lastUserContains: "first change" }, toolCalls: [{ name: "read_file", input: { path: "calc.js" } }] },
    { when: { toolResultContains: "const v1 = 1;" }, toolCalls: [{ name: "write_file", input: { path: "calc.js", content: firstEdit } }] },
    { when: { hasToolResult: true }, text: "Changed v3." },
    {
      when: { lastUserContains: "second change" },
      toolCalls: [
        {
          name: "multi_patch",
          input: {
            edits: [
              { path: "calc.js", old_text: "const v8 = 8;\n", new_text: "const v8 = 800;\n" },
              { path: "calc.js", old_text: "const v25 = 25;\n", new_text: "const v25 = 2500;\n" },
            ],
          },
        },
      ],
    },
    { when: { hasToolResult: true }, text: "Applied what you approved." },
    { when: { lastUserContains: "Review of your work" }, text: "I will go through your comments." },
  ],
};

const anchors = [
  // The Branch view's comment was written first.
  ["calc.js:3 (“const v3 = 300;”), on the branch", "v3 needs a name that says what it is"],
  ["calc.js:8 (“const v8 = 800;”), on your proposed change", "fine, keep 800"],
  ["calc.js:25 (“const v25 = 2500;”), on your proposed change", "2500 overflows the old readers: keep 25"],
];

/** Adds a comment on a line of the diff inside scope and writes text into it. */
async function comment(page, scope, line, text) {
  await scope.locator(`[data-testid=line-comment-add][data-line="${line}"]`).first().click();
  const box = scope.locator(`[data-testid=line-comment][data-line="${line}"] [data-testid=line-comment-text]`);
  await box.waitFor({ timeout: 30_000 });
  await box.fill(text);
}

export const tests = [
  {
    name: "comments on the Branch view and on a pending change go as one review; a rejected hunk's comment is the model's reason; they survive a restart",
    manualStart: true,
    timeout: 240_000,
    async fn(ctx) {
      const { page } = ctx;
      await wideWindow(page);
      const { llm, project } = await startChat(ctx, script, { "calc.js": original }, { newSession: false });
      git(project, "init", "-q");
      git(project, "add", "-A");
      git(project, "commit", "-q", "-m", "start");

      await page.click("[data-testid=session-new-worktree]");
      await page.fill("[data-testid=worktree-name]", "tidy");
      await page.click("[data-testid=worktree-create]");
      await page.locator("[data-testid=worktree-dialog]").waitFor({ state: "detached" });
      const item = page.locator('[data-testid=session-item][data-branch="pilot/tidy"]');
      await item.locator("button[aria-current=true]").waitFor({ timeout: 30_000 });
      const sessionId = await item.getAttribute("data-session-id");

      // The first change is approved: the branch now differs on line 3.
      await send(ctx, "first change");
      const first = await waitDiff(ctx, "calc.js");
      await first.locator("[data-testid=hunk-approve]").first().click();
      await waitTurnDone(ctx);

      // A comment on the Branch view.
      await page.click("[data-testid=branch-open]");
      const branch = page.locator("[data-testid=branch-view][data-status=ready]");
      await branch.waitFor({ timeout: 30_000 });
      await comment(page, branch, 3, anchors[0][1]);

      // Two comments on the pending change: one on the hunk approved, one on the hunk rejected.
      await send(ctx, "second change");
      await page.click("[data-testid=tab-review]");
      const view = await waitDiff(ctx, "calc.js");
      const hunks = view.locator(sel.hunk);
      await eventually(async () => assert.equal(await hunks.count(), 2));
      await comment(page, hunks.nth(0), 8, anchors[1][1]);
      await comment(page, hunks.nth(1), 25, anchors[2][1]);
      await hunks.nth(0).locator("[data-testid=hunk-approve]").click();
      await hunks.nth(1).locator("[data-testid=hunk-reject]").click();
      // With comments written, deciding every hunk waits for the review.
      assert.equal(await page.locator(`${sel.review}[data-phase=deciding]`).count(), 1);
      await docShot(page, "review-comments.png");
      await page.locator(`${sel.review} [data-testid=review-submit]`).click();

      // The change's result says why the hunk was rejected; then the review goes as one message.
      await page.locator(sel.assistant, { hasText: "I will go through your comments." }).waitFor({ timeout: 60_000 });
      await waitTurnDone(ctx);
      const reqs = await modelRequests(llm);
      const decided = reqs.find((r) => (r.toolResults ?? []).some((t) => t.content.includes("rejected hunk 2")));
      assert.ok(decided, "the model got the change's result");
      const result = decided.toolResults.find((t) => t.content.includes("rejected hunk 2")).content;
      assert.match(result, /The user's comment on calc\.js:25 \(“const v25 = 2500;”\), rejected hunk 2: 2500 overflows the old readers: keep 25/);
      assert.doesNotMatch(result, /fine, keep 800/, "a comment on an approved hunk is no reason for a rejection");
      const reviews = reqs.filter((r) => (r.lastUserText ?? "").startsWith("Review of your work"));
      assert.equal(reviews.length, 1, "one review message");
      const text = reviews[0].lastUserText;
      const sent = [...text.matchAll(/^\d+\. (.+):\n(.+)$/gm)].map((m) => [m[1], m[2]]);
      assert.deepEqual(sent, anchors, `the review carries exactly the three anchors and texts:\n${text}`);

      // A new process: the comments are still shown, as sent.
      await ctx.restartApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project } });
      await openProject(ctx, project);
      const again = page.locator(`[data-testid=session-item][data-session-id="${sessionId}"]`);
      await again.waitFor({ state: "visible", timeout: 30_000 });
      await again.locator("button").first().click();
      await page.locator(sel.assistant, { hasText: "I will go through your comments." }).waitFor({ timeout: 30_000 });
      assert.equal(await page.locator('[data-testid=user-command][data-command="Review — 3 comments"]').count(), 1, "the transcript shows the review");
      await page.click("[data-testid=branch-open]");
      const shown = page.locator('[data-testid=branch-view][data-status=ready] [data-testid=line-comment][data-path="calc.js"][data-line="3"]');
      await shown.waitFor({ timeout: 30_000 });
      assert.equal(await shown.getAttribute("data-state"), "sent");
      assert.equal(await shown.locator("[data-testid=line-comment-text]").innerText(), anchors[0][1]);
    },
  },
];
