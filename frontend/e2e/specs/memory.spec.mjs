// The memory files from the window: /init typed in the prompt box and
// "Remember" on a message (this project) both end as a change of
// AGENTS.md the user reviews hunk by hunk; "Remember" for all projects
// ends as a change of the user's own ~/.claude/CLAUDE.md (a temporary
// HOME), asked even in edits mode. Nothing is on disk before the yes. The
// fake model is scripted; what it was sent is read from its request log.
// With PILOT_E2E_SCREENSHOTS=docs it saves the Remember form at 1280x820
// and at 640 px (docs/screenshots/remember-*.png).
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { eventually, sel, send, startChat, waitDiff, waitRequests, waitState, waitTurnDone } from "./helpers.mjs";
import { defaultWindow, docShot } from "./ledger-helpers.mjs";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
/** The first line of a built-in command's prompt (backend/commands/NAME.md). */
const promptStart = (name) => readFileSync(join(repoRoot, "backend", "commands", `${name}.md`), "utf8").split("\n")[0];

const readme = "# tiny\n\nA tiny Go tool. Build with `go build ./...`, test with `go test ./...`.\n";
const agents = "# AGENTS.md\n\n## Build\n\n- `go build ./...`\n- `go test ./...`\n";

export const tests = [
  {
    name: "/init: the model's AGENTS.md is reviewed, and written only after the yes",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const init = promptStart("init");
      const { llm, project } = await startChat(
        ctx,
        {
          turns: [
            { when: { lastUserContains: init }, toolCalls: [{ name: "write_file", input: { path: "AGENTS.md", content: agents } }] },
            { when: { hasToolResult: true }, text: "AGENTS.md is written." },
          ],
        },
        { "README.md": readme },
      );
      await send(ctx, "/init");

      const view = await waitDiff(ctx, "AGENTS.md");
      await waitState(ctx, "awaiting_approval");
      const [first] = await waitRequests(ctx, llm, 1);
      assert.ok(first.lastUserText.includes(init), `the model got init's prompt: ${first.lastUserText.slice(0, 200)}`);
      await eventually(async () => assert.match((await view.innerText()) ?? "", /go test \.\/\.\.\./));
      assert.equal(existsSync(join(project, "AGENTS.md")), false, "nothing written before the decision");

      // Decided from the review's keys: y approves the focused hunk.
      const review = page.locator(`${sel.review}[data-phase=deciding]`);
      await review.focus();
      await page.keyboard.press("y");
      await view.waitFor({ state: "detached", timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "AGENTS.md is written." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      assert.equal(readFileSync(join(project, "AGENTS.md"), "utf8"), agents);
    },
  },

  {
    name: "Remember on an answer, for this project: the model is asked for AGENTS.md, and the patch is written only after the yes",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const remember = promptStart("remember");
      const note = "Run go vet before every commit.";
      const { llm, project } = await startChat(
        ctx,
        {
          turns: [
            { when: { lastUserContains: "how do I check" }, text: note },
            { when: { lastUserContains: remember }, toolCalls: [{ name: "read_file", input: { path: "AGENTS.md" } }] },
            {
              when: { hasToolResult: true, toolResultContains: "go test" },
              toolCalls: [{ name: "patch_file", input: { path: "AGENTS.md", old_text: "- `go test ./...`\n", new_text: "- `go test ./...`\n- Run `go vet ./...` before every commit.\n" } }],
            },
            { when: { hasToolResult: true }, text: "Added to AGENTS.md." },
          ],
        },
        { "README.md": readme, "AGENTS.md": agents },
      );
      await send(ctx, "how do I check the code?");
      const answer = page.locator(sel.assistant, { hasText: note });
      await answer.waitFor();
      await waitTurnDone(ctx);

      await answer.hover();
      await answer.locator("[data-testid=memory-remember]").click();
      const text = answer.locator("[data-testid=memory-remember-text]");
      await text.waitFor();
      assert.equal(await text.inputValue(), note, "the form starts with the answer's text");
      assert.equal(await answer.locator("[data-testid=memory-remember-scope] input[value=project]").isChecked(), true, "this project by default");
      await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "memory-remember-text");
      await docShot(page, "remember-form.png");

      // At 640 px (the narrow layout) the form fits the window.
      await page.setViewportSize({ width: 640, height: 410 });
      await page.locator(".app[data-layout=narrow]").waitFor();
      await text.scrollIntoViewIfNeeded();
      await eventually(async () => {
        for (const id of ["memory-remember-form", "memory-remember-send", "memory-remember-scope"]) {
          const box = await answer.locator(`[data-testid=${id}]`).boundingBox();
          assert.ok(box && box.x >= 0 && box.x + box.width <= 640, `${id} fits 640 px: ${JSON.stringify(box)}`);
        }
      });
      await docShot(page, "remember-form-narrow.png");
      await defaultWindow(page);
      await page.locator(".app[data-layout=wide]").waitFor();

      // Ctrl+Enter proposes; the focus goes back to the prompt.
      await text.focus();
      await page.keyboard.press("Control+Enter");
      await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "chat-input");
      await page.locator(`${sel.user}[data-message-id] [data-testid=user-command][data-command="/remember ${note}"]`).waitFor();

      const view = await waitDiff(ctx, "AGENTS.md");
      await waitState(ctx, "awaiting_approval");
      const reqs = await waitRequests(ctx, llm, 2);
      const asked = reqs[1].lastUserText;
      assert.ok(asked.includes(remember), `the model got remember's prompt: ${asked.slice(0, 200)}`);
      assert.ok(asked.includes(note), "with the remembered text");
      assert.match(asked, /AGENTS\.md/);
      const hunks = view.locator(sel.hunk);
      await eventually(async () => assert.equal(await hunks.count(), 1, "one line added, one hunk"));
      assert.match(await hunks.nth(0).innerText(), /Run `go vet \.\/\.\.\.` before every commit\./);
      assert.equal(readFileSync(join(project, "AGENTS.md"), "utf8"), agents, "nothing written before the decision");

      await hunks.nth(0).locator("[data-testid=hunk-approve]").click();
      await view.waitFor({ state: "detached", timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "Added to AGENTS.md." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      assert.equal(readFileSync(join(project, "AGENTS.md"), "utf8"), agents + "- Run `go vet ./...` before every commit.\n");
    },
  },

  {
    name: "Remember on an answer, for all my projects: the user's own CLAUDE.md is reviewed, asked even in edits mode, and written only after the yes",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const home = mkdtempSync(join(tmpdir(), "pilot-e2e-userhome-"));
      const file = join(home, ".claude", "CLAUDE.md");
      const remember = promptStart("remember-user");
      const note = "Answer in British English.";
      const { llm, project } = await startChat(
        ctx,
        {
          turns: [
            { when: { lastUserContains: "how should you answer" }, text: note },
            { when: { lastUserContains: remember }, toolCalls: [{ name: "remember", input: { text: note } }] },
            { when: { hasToolResult: true }, text: "Remembered for every project." },
          ],
        },
        { "README.md": readme },
        { env: { HOME: home } },
      );
      await send(ctx, "how should you answer?");
      const answer = page.locator(sel.assistant, { hasText: note });
      await answer.waitFor();
      await waitTurnDone(ctx);

      // Edits mode approves the project's changes unasked; not this one.
      await page.selectOption("[data-testid=mode-select]", "edits");
      await page.locator("[data-testid=mode-select][data-mode=edits]").waitFor();
      await answer.hover();
      await answer.locator("[data-testid=memory-remember]").click();
      // The form names the file the real backend will change.
      await answer.locator("[data-testid=memory-remember-scope] label", { hasText: "All my projects (~/.claude/CLAUDE.md)" }).waitFor();
      await answer.locator("[data-testid=memory-remember-scope] input[value=user]").check();
      await answer.locator("[data-testid=memory-remember-send]").click();

      const view = await waitDiff(ctx, "~/.claude/CLAUDE.md");
      await waitState(ctx, "awaiting_approval");
      const reqs = await waitRequests(ctx, llm, 2);
      assert.ok(reqs[1].lastUserText.includes(remember) && reqs[1].lastUserText.includes(note), "the model got remember-user's prompt with the note");
      const hunks = view.locator(sel.hunk);
      await eventually(async () => assert.equal(await hunks.count(), 1, "one line added, one hunk"));
      assert.match(await hunks.nth(0).innerText(), /Answer in British English\./);
      assert.match(await page.locator(sel.review).innerText(), /outside the project, so it is asked every time/);
      assert.equal(existsSync(file), false, "nothing written before the decision");

      await hunks.nth(0).locator("[data-testid=hunk-approve]").click();
      await view.waitFor({ state: "detached", timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "Remembered for every project." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      assert.equal(readFileSync(file, "utf8"), `- ${note}\n`);
      assert.equal(existsSync(join(project, "AGENTS.md")), false, "the project is untouched");
      const card = page.locator('[data-testid=tool-call][data-tool="remember"]');
      assert.equal(await card.getAttribute("data-status"), "done");
    },
  },
];
