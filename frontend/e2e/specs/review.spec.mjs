// Reviewing proposed changes: the side-by-side diff, approve, reject with
// feedback, per-hunk decisions, and edit-before-approve. Every outcome is
// checked on disk and in what the fake LLM was sent back.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventually, modelRequests, sel, send, startChat, waitDiff, waitRequests, waitState, waitTurnDone, wideWindow } from "./helpers.mjs";

const lines = (n, f) => Array.from({ length: n }, (_, i) => f(i + 1)).join("\n") + "\n";

/** A 40-line file; the proposal changes line 3 and line 37, far enough apart to be two hunks. */
const original = lines(40, (i) => `line ${i}`);
const proposed = original.replace("line 3\n", "line 3 changed\n").replace("line 37\n", "line 37 changed\n");

/**
 * The model's turns: read the file (write_file refuses to overwrite a file
 * the model has not read in the session), propose `toolCall`, then close
 * with a text once it has the result. Served in order.
 */
const editScript = (path, toolCall) => ({
  turns: [
    { toolCalls: [{ name: "read_file", input: { path } }] },
    { when: { hasToolResult: true }, toolCalls: [toolCall] },
    { when: { hasToolResult: true }, text: "Done with the file." },
  ],
});

/** The tool result the model received for the change (the third model call). */
async function resultSent(ctx, llm) {
  const reqs = await waitRequests(ctx, llm, 3);
  const r = reqs[2].toolResults?.[0];
  assert.ok(r, "a tool result went back to the model");
  return r;
}

const read = (project, rel) => readFileSync(join(project, rel), "utf8");

/** Sum with a bug planted on line 5 of the branch: the loop stops one short. */
const sumOK = "package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) (s int) {\n\tfor i := 0; i < len(xs); i++ {\n\t\ts += xs[i]\n\t}\n\treturn s\n}\n";
const sumBug = sumOK.replace("len(xs);", "len(xs)-1;");

/**
 * The project in git, and a worktree session on pilot/NAME made in the
 * window; returns the worktree's folder.
 */
async function worktreeSession(ctx, project, name) {
  const { page } = ctx;
  const gitIn = (...args) => execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.org", ...args], { cwd: project, encoding: "utf8" });
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "start"]]) gitIn(...args);
  await page.click("[data-testid=session-new-worktree]");
  await page.fill("[data-testid=worktree-name]", name);
  await page.click("[data-testid=worktree-create]");
  await page.locator(`[data-testid=session-item][data-branch="pilot/${name}"] button[aria-current=true]`).waitFor({ timeout: 30_000 });
  const line = gitIn("worktree", "list", "--porcelain").split("\n").find((l) => l.startsWith("worktree ") && l.endsWith(`/${name}`));
  assert.ok(line, `git lists the worktree ${name}`);
  return line.slice("worktree ".length);
}

export const tests = [
  {
    name: "/review of a worktree branch finds the planted bug on its line; Ask the agent to fix proposes a change and writes nothing before it is approved",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await wideWindow(page);
      const script = {
        turns: [
          { when: { lastUserContains: "Review branch pilot/bug" }, repeat: true, toolCalls: [{ name: "report_finding", input: { path: "calc.go", line: 5, text: "The loop stops one short: len(xs)-1 leaves the last element out of the sum." } }] },
          { when: { toolResultContains: "Recorded on calc.go:5" }, repeat: true, text: "Reviewed calc.go: one bug." },
          { when: { lastUserContains: "Fix this finding of the review, at calc.go:5" }, repeat: true, toolCalls: [{ name: "patch_file", input: { path: "calc.go", old_text: "len(xs)-1", new_text: "len(xs)" } }] },
          { when: { hasToolResult: true }, repeat: true, text: "Fixed the loop." },
          { repeat: true, text: "Review" },
        ],
      };
      const { llm, project } = await startChat(ctx, script, { "calc.go": sumOK }, { newSession: false });
      const worktree = await worktreeSession(ctx, project, "bug");
      writeFileSync(join(worktree, "calc.go"), sumBug); // the branch's work, as a turn would leave it

      await page.fill(sel.input, "/review");
      await page.press(sel.input, "Enter");
      // The reviewer's finding, on line 5 of calc.go in the Branch view, right under that line.
      const finding = page.locator('[data-testid=branch-view] [data-testid=diff-view][data-path="calc.go"] [data-testid=review-finding]');
      await finding.waitFor({ timeout: 30_000 });
      assert.equal(await finding.getAttribute("data-path"), "calc.go");
      assert.equal(await finding.getAttribute("data-line"), "5");
      assert.match(await finding.innerText(), /leaves the last element out/);
      const above = await finding.evaluate((el) => el.closest("tr")?.previousElementSibling?.textContent ?? "");
      assert.match(above, /len\(xs\)-1/, "the finding is in the row under line 5");
      // The reviewer was offered only reading tools and report_finding.
      const review = (await modelRequests(llm)).find((r) => r.lastUserText?.includes("Review branch pilot/bug"));
      assert.deepEqual(review?.tools, ["list_files", "read_file", "glob", "grep", "report_finding"]);

      await finding.locator("[data-testid=review-finding-fix]").click();
      await waitState(ctx, "awaiting_approval");
      await page.locator(`${sel.review}[data-phase=deciding] ${sel.diffView}[data-path="calc.go"]`).waitFor({ state: "attached", timeout: 30_000 });
      const fix = (await modelRequests(llm)).find((r) => r.lastUserText?.includes("Fix this finding of the review"));
      assert.match(fix?.lastUserText ?? "", /calc\.go:5 \(“for i := 0; i < len\(xs\)-1; i\+\+ \{”\)/, "the message anchors the finding's line");
      assert.equal(readFileSync(join(worktree, "calc.go"), "utf8"), sumBug, "nothing is written before the change is approved");
      // Back in the Branch view, the finding says the agent was asked.
      await page.click("[data-testid=branch-open]");
      await eventually(async () => assert.equal(await finding.getAttribute("data-state"), "fixing"), { timeout: 30_000 });
    },
  },
  {
    name: "a proposed edit shows side by side, is approved, and the file changes on disk",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await wideWindow(page);
      const before = "package main\n\nfunc greet() string {\n\treturn \"hello\"\n}\n";
      const { llm, project } = await startChat(
        ctx,
        editScript("main.go", { name: "patch_file", input: { path: "main.go", old_text: 'return "hello"', new_text: 'return "hello, world"' } }),
        { "main.go": before },
      );
      await send(ctx, "make greet say hello world");

      const view = await waitDiff(ctx, "main.go");
      await waitState(ctx, "awaiting_approval");
      // The layout is chosen by measuring the room: wait for both to hold.
      await eventually(async () => {
        assert.equal(await page.locator("[data-testid=tab-review]").getAttribute("aria-selected"), "true", "the review tab comes forward");
        assert.equal(await page.locator(".review-panel").getAttribute("data-layout"), "split", "wide window: side by side");
      });
      const table = view.locator(".diff-table").first();
      assert.match((await table.getAttribute("class")) ?? "", /\bsplit\b/);
      // Old on the left, new on the right: the changed row has four cells.
      const row = table.locator("tr", { has: page.locator("td.code.del") });
      const cells = row.locator("td");
      assert.equal(await cells.count(), 4, "line number + code, twice");
      assert.match(await cells.nth(1).innerText(), /return "hello"$/);
      assert.match(await cells.nth(3).innerText(), /return "hello, world"/);
      assert.match(await cells.nth(0).innerText(), /^4$/, "old line number");
      // The new side's number cell also holds the line's "+" (line-comment-add).
      assert.equal((await cells.nth(2).innerText()).replace("+", "").trim(), "4", "new line number");
      assert.equal(await cells.nth(2).locator("[data-testid=line-comment-add]").count(), 1, "a comment can be added on the new line");
      assert.equal(read(project, "main.go"), before, "nothing written before the decision");

      await page.click("[data-testid=diff-approve-all]");
      await view.waitFor({ state: "detached", timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "Done with the file." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);

      assert.equal(read(project, "main.go"), before.replace('"hello"', '"hello, world"'));
      await page.locator(`${sel.toolCall}[data-tool=patch_file][data-status=done]`).waitFor({ state: "attached" });
      const r = await resultSent(ctx, llm);
      assert.equal(r.isError ?? false, false, `the model is told it worked: ${r.content}`);
    },
  },

  {
    name: "a rejected edit leaves the file alone and the model gets the feedback",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await wideWindow(page);
      const before = "export const answer = 41;\n";
      const feedback = "Keep 41, the tests depend on it (e2e-feedback-7f3a)";
      const { llm, project } = await startChat(
        ctx,
        editScript("answer.ts", { name: "write_file", input: { path: "answer.ts", content: "export const answer = 42;\n" } }),
        { "answer.ts": before },
      );
      await send(ctx, "fix the answer");

      const view = await waitDiff(ctx, "answer.ts");
      await page.fill("[data-testid=reject-feedback]", feedback);
      await page.click("[data-testid=diff-reject-all]");
      await view.waitFor({ state: "detached", timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "Done with the file." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);

      assert.equal(read(project, "answer.ts"), before, "file unchanged");
      await page.locator(`${sel.toolCall}[data-tool=write_file][data-status=rejected]`).waitFor({ state: "attached" });
      const r = await resultSent(ctx, llm);
      assert.ok(r.content.includes(feedback), `the tool result carries the feedback: ${r.content}`);
      assert.match(r.content, /reject/i, "and says it was rejected");
    },
  },

  {
    name: "one hunk approved and one rejected: the file holds exactly that",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await wideWindow(page);
      const { llm, project } = await startChat(
        ctx,
        editScript("lines.txt", { name: "write_file", input: { path: "lines.txt", content: proposed } }),
        { "lines.txt": original },
      );
      await send(ctx, "change two places in lines.txt");

      const view = await waitDiff(ctx, "lines.txt");
      const hunks = view.locator(sel.hunk);
      await eventually(async () => assert.equal(await hunks.count(), 2, "two far-apart edits, two hunks"));
      assert.match(await hunks.nth(0).innerText(), /line 3 changed/);
      assert.match(await hunks.nth(1).innerText(), /line 37 changed/);

      await hunks.nth(0).locator("[data-testid=hunk-approve]").click();
      await view.locator(`${sel.hunk}[data-hunk-index="0"][data-decision=approved]`).waitFor();
      assert.equal(read(project, "lines.txt"), original, "nothing applied while a hunk is undecided");
      await hunks.nth(1).locator("[data-testid=hunk-reject]").click();
      // Every hunk decided: the change goes in by itself.
      await view.waitFor({ state: "detached", timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "Done with the file." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);

      assert.equal(read(project, "lines.txt"), original.replace("line 3\n", "line 3 changed\n"), "only the approved hunk applied");
      const r = await resultSent(ctx, llm);
      assert.match(r.content, /reject/i, `the model hears that part was rejected: ${r.content}`);
    },
  },

  {
    name: "the proposed text is edited before approval and the edit is what lands on disk",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await wideWindow(page);
      const before = "name = \"demo\"\nversion = \"0.1.0\"\n";
      const modelText = "name = \"demo\"\nversion = \"0.2.0\"\n";
      const userText = "name = \"demo\"\nversion = \"1.0.0\"\n# bumped by hand in review\n";
      const { llm, project } = await startChat(
        ctx,
        editScript("Cargo.toml", { name: "write_file", input: { path: "Cargo.toml", content: modelText } }),
        { "Cargo.toml": before },
      );
      await send(ctx, "bump the version");

      const view = await waitDiff(ctx, "Cargo.toml");
      await view.locator("[data-testid=diff-edit]").click();
      const editor = view.locator("[data-testid=diff-edit-text]");
      await editor.waitFor({ state: "visible" });
      assert.equal(await editor.inputValue(), modelText, "the editor starts from the proposed text");
      await editor.fill(userText);
      await view.locator("[data-testid=diff-edit-approve]").click();
      await view.waitFor({ state: "detached", timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "Done with the file." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);

      assert.equal(read(project, "Cargo.toml"), userText, "the user's version, not the model's");
      const r = await resultSent(ctx, llm);
      assert.equal(r.isError ?? false, false);
      assert.match(r.content, /edited/i, `the model learns the user changed it: ${r.content}`);
      assert.ok(r.content.includes("# bumped by hand in review"), "and sees the text that was written");
    },
  },
];
