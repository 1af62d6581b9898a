// The change ledger, seen from the cards and the Changes view: a partly
// applied change, the cumulative diff of a file across changes and a
// command, every effect of a command and its revert, and the side-by-side
// review in the default window. Checked on disk and in what the model was
// sent.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { approveChange, approveCommand, changedFiles, defaultWindow, docShot, openChanges } from "./ledger-helpers.mjs";
import { domTexts, eventually, sel, send, startChat, waitDiff, waitRequests, waitTurnDone } from "./helpers.mjs";

const lines = (n, f) => Array.from({ length: n }, (_, i) => f(i + 1)).join("\n") + "\n";
const read = (project, rel) => readFileSync(join(project, rel), "utf8");

export const tests = [
  {
    name: "one of two hunks approved: the card says applied 1 of 2 and shows the applied diff with the rejected hunk",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const original = lines(40, (i) => `line ${i}`);
      const proposed = original.replace("line 3\n", "line 3 changed\n").replace("line 37\n", "line 37 changed\n");
      const script = {
        turns: [
          { toolCalls: [{ name: "read_file", input: { path: "lines.txt" } }] },
          { when: { hasToolResult: true }, toolCalls: [{ name: "write_file", input: { path: "lines.txt", content: proposed } }] },
          { when: { hasToolResult: true }, text: "Done with the file." },
        ],
      };
      const { llm, project } = await startChat(ctx, script, { "lines.txt": original });
      await send(ctx, "change two places in lines.txt");

      const view = await waitDiff(ctx, "lines.txt");
      const hunks = view.locator(sel.hunk);
      assert.equal(await hunks.count(), 2);
      await hunks.nth(0).locator("[data-testid=hunk-approve]").click();
      await hunks.nth(1).locator("[data-testid=hunk-reject]").click();
      await page.locator(sel.assistant, { hasText: "Done with the file." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      assert.equal(read(project, "lines.txt"), original.replace("line 3\n", "line 3 changed\n"));

      // The card.
      const card = page.locator(`${sel.toolCall}[data-tool=write_file]`);
      const summary = card.locator("[data-testid=change-summary]");
      await eventually(async () => {
        assert.equal(await summary.getAttribute("data-applied"), "1");
        assert.equal(await summary.getAttribute("data-total"), "2");
        assert.equal((await summary.innerText()).trim(), "applied 1 of 2 hunks");
      });

      // Expanded: what was written, then the rejected hunk, marked.
      await card.locator(".tool-head").click();
      const detail = card.locator("[data-testid=change-detail]");
      await detail.locator("[data-testid=file-diff]").waitFor();
      // The chat column of a 1280-pixel window is too narrow for two
      // 80-column sides, so "Auto" is unified there: ask for side by side.
      if ((await detail.locator("[data-testid=file-diff]").getAttribute("data-layout")) !== "split") {
        await detail.getByRole("radio", { name: "Side by side" }).click();
      }
      await detail.locator('[data-testid=file-diff][data-layout=split]').waitFor();
      const shown = detail.locator("[data-testid=readonly-hunk]");
      await eventually(async () => assert.equal(await shown.count(), 2, "the applied hunk and the rejected one"));
      const applied = shown.nth(0);
      const rejected = shown.nth(1);
      assert.equal(await applied.getAttribute("data-tone"), null, "the written hunk has no rejection mark");
      // Read-only hunks (content-visibility: auto): their DOM text, see domTexts.
      assert.match(await applied.textContent(), /line 3 changed/);
      assert.equal(await rejected.getAttribute("data-tone"), "rejected");
      assert.match(await rejected.locator(".hunk-note").textContent(), /rejected/i);
      assert.match(await rejected.textContent(), /line 37 changed/);
      // Side by side: old | new in the same row.
      const row = applied.locator("table.diff-table.split tr", { has: page.locator("td.code.del") });
      const cells = row.locator("td.code");
      assert.equal(await cells.count(), 2);
      assert.match(await cells.nth(0).textContent(), /line 3$/);
      assert.match(await cells.nth(1).textContent(), /line 3 changed/);
      await detail.scrollIntoViewIfNeeded();
      await docShot(page, "ledger-partial-card.png");

      // What the model heard.
      const reqs = await waitRequests(ctx, llm, 3);
      const r = reqs[2].toolResults?.[0];
      assert.ok(r, "a tool result went back");
      assert.match(r.content, /applied hunk 1 .*of 2/i, `applied part named: ${r.content}`);
      assert.match(r.content, /rejected hunk 2/i, `rejected part named: ${r.content}`);
      assert.doesNotMatch(r.content, /edited/i, `nothing about an edit: ${r.content}`);
    },
  },

  {
    name: "the Changes view shows one file's cumulative diff across two edits and a command, with three steps",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const original = lines(30, (i) => `row ${i}`);
      const command = "echo 'row 31 from the command' >> rows.txt";
      const script = {
        turns: [
          { toolCalls: [{ name: "read_file", input: { path: "rows.txt" } }] },
          { when: { hasToolResult: true }, toolCalls: [{ name: "patch_file", input: { path: "rows.txt", old_text: "row 2\n", new_text: "row 2 first edit\n" } }] },
          { when: { hasToolResult: true }, toolCalls: [{ name: "patch_file", input: { path: "rows.txt", old_text: "row 20\n", new_text: "row 20 second edit\n" } }] },
          { when: { hasToolResult: true }, toolCalls: [{ name: "run_bash", input: { command } }] },
          { when: { hasToolResult: true }, text: "All three done." },
        ],
      };
      const { project } = await startChat(ctx, script, { "rows.txt": original, "other.txt": "untouched\n" });
      await send(ctx, "edit rows twice and append a row");
      await approveChange(ctx, "rows.txt");
      await approveChange(ctx, "rows.txt");
      await approveCommand(ctx, command);
      await page.locator(sel.assistant, { hasText: "All three done." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      const expected = original.replace("row 2\n", "row 2 first edit\n").replace("row 20\n", "row 20 second edit\n") + "row 31 from the command\n";
      assert.equal(read(project, "rows.txt"), expected);

      await openChanges(ctx);
      assert.deepEqual(await changedFiles(ctx, 1), { "rows.txt": "modified" }, "the file once, modified; other.txt not listed");
      await page.click('[data-testid=changes-file][data-path="rows.txt"]');
      const detail = page.locator('[data-testid=changes-detail][data-path="rows.txt"]');
      await detail.waitFor();
      const diff = detail.locator('[data-testid=file-diff][data-path="rows.txt"]');
      await diff.waitFor();
      // The code cells are read-only hunks' (content-visibility: auto): read their DOM text (domTexts).
      await eventually(async () => {
        const added = await domTexts(diff.locator("td.code.add"));
        const removed = await domTexts(diff.locator("td.code.del"));
        for (const want of ["row 2 first edit", "row 20 second edit", "row 31 from the command"]) {
          assert.ok(added.some((t) => t.includes(want)), `cumulative diff adds "${want}": ${JSON.stringify(added)}`);
        }
        assert.ok(removed.some((t) => /row 2$/.test(t.trim())) && removed.some((t) => /row 20$/.test(t.trim())), `and removes the old rows: ${JSON.stringify(removed)}`);
      });

      const steps = detail.locator("[data-testid=changes-step]");
      await eventually(async () => {
        assert.deepEqual(await steps.evaluateAll((els) => els.map((e) => e.getAttribute("data-kind"))), ["edit", "edit", "command"], "two edits and one command");
      });
      await eventually(async () => assert.match(await steps.nth(2).innerText(), /row 31 from the command|echo/));
      await docShot(page, "ledger-changes-view.png");
    },
  },

  {
    name: "a command's every effect is listed, shown in the Changes view, and reverting it restores them all",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const files = { "x.txt": "a line with a\n", "gone.txt": "soon gone\n", "old.txt": "moving house\n", "keep.txt": "stay\n" };
      const command = "sed -i 's/a/b/' x.txt && rm gone.txt && mv old.txt new.txt && echo hi > made.txt";
      const script = {
        turns: [
          { toolCalls: [{ name: "run_bash", input: { command } }] },
          { when: { hasToolResult: true }, text: "Shuffled the files." },
        ],
      };
      const { project } = await startChat(ctx, script, files);
      await send(ctx, "shuffle the files");
      await approveCommand(ctx, command);
      await page.locator(sel.assistant, { hasText: "Shuffled the files." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      assert.equal(read(project, "x.txt"), "b line with a\n");
      assert.ok(!existsSync(join(project, "gone.txt")) && !existsSync(join(project, "old.txt")));
      assert.equal(read(project, "new.txt"), "moving house\n");
      assert.equal(read(project, "made.txt"), "hi\n");

      const want = { "x.txt": "modified", "gone.txt": "deleted", "old.txt": "deleted", "new.txt": "created", "made.txt": "created" };
      const card = page.locator(`${sel.toolCall}[data-tool=run_bash]`);
      await card.locator(".tool-head").click();
      const effects = card.locator("[data-testid=command-effects]");
      await effects.waitFor();
      await eventually(async () => {
        const listed = await effects.locator("[data-testid=effect-file]").evaluateAll((els) => els.map((e) => [e.getAttribute("data-path"), e.getAttribute("data-op")]));
        assert.deepEqual(Object.fromEntries(listed), want, `the card lists every effect: ${JSON.stringify(listed)}`);
        assert.equal(listed.length, 5);
      });

      await openChanges(ctx);
      assert.deepEqual(await changedFiles(ctx, 5), want);

      await effects.locator("[data-testid=change-revert]").click();
      await card.locator("[data-testid=change-undone]").waitFor({ timeout: 30_000 });
      assert.equal(read(project, "x.txt"), files["x.txt"]);
      assert.equal(read(project, "gone.txt"), files["gone.txt"]);
      assert.equal(read(project, "old.txt"), files["old.txt"]);
      assert.ok(!existsSync(join(project, "new.txt")), "new.txt removed");
      assert.ok(!existsSync(join(project, "made.txt")), "made.txt removed");
      assert.equal(read(project, "keep.txt"), "stay\n");
    },
  },

  {
    name: "in the default window a waiting change shown side by side wraps long lines between words, both sides aligned",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const long = (tag) =>
        `// ${tag}: when the server answers 429 Too Many Requests (RFC 6585) the client waits for the Retry-After header, ` +
        `then tries again with exponential backoff and jitter, at most five times, before it gives up and reports the failure to the caller.`;
      const before = ["package net", "", long("old"), "func retry() {}", ""].join("\n");
      const after = ["package net", "", long("new"), "func retry() {}", ""].join("\n");
      const script = {
        turns: [
          { toolCalls: [{ name: "read_file", input: { path: "retry.go" } }] },
          { when: { hasToolResult: true }, toolCalls: [{ name: "write_file", input: { path: "retry.go", content: after } }] },
          { when: { hasToolResult: true }, text: "Updated the comment." },
        ],
      };
      await startChat(ctx, script, { "retry.go": before });
      await send(ctx, "reword the retry comment");
      const view = await waitDiff(ctx, "retry.go");
      assert.deepEqual(page.viewportSize(), { width: 1280, height: 820 });
      // A two-line change stays beside the chat, unified in its column; Whole window gives it the room for side by side.
      assert.equal(await page.locator(".review-panel").getAttribute("data-layout"), "unified", "a small change beside the chat: unified");
      await page.click("[data-testid=review-focus]");
      await page.locator(".app[data-focus=review]").waitFor();
      await page.locator('.review-panel[data-layout="split"]').waitFor();
      const table = view.locator("table.diff-table.split").first();
      await table.waitFor();

      // Measured until it holds: the panel may still be settling into the whole window.
      await eventually(async () => {
        const m = await table.evaluate((t) => {
          const rows = [...t.querySelectorAll("tr")];
          const misaligned = rows
            .map((r, i) => {
              const cells = r.querySelectorAll("td.code");
              const a = cells[0].getBoundingClientRect();
              const b = cells[1].getBoundingClientRect();
              return { i, a: a.top, b: b.top, ah: a.height, bh: b.height };
            })
            .filter((x) => Math.abs(x.a - x.b) > 0.5 || Math.abs(x.ah - x.bh) > 0.5);
          // Every word of the long lines: its boxes all sit on one line.
          const broken = [];
          let wrapped = 0;
          for (const cell of t.querySelectorAll("td.code.del, td.code.add")) {
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            const lineHeight = parseFloat(getComputedStyle(cell).lineHeight) || 18;
            if (cell.getBoundingClientRect().height > 1.5 * lineHeight) wrapped++;
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              for (const w of n.data.matchAll(/\S+/g)) {
                const range = document.createRange();
                range.setStart(n, w.index);
                range.setEnd(n, w.index + w[0].length);
                const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
                if (tops.size > 1) broken.push(w[0]);
              }
            }
          }
          // "RFC 6585" is one phrase; the two words each stay whole.
          const cell = t.querySelector("td.code.add");
          const text = cell.textContent;
          const rfc = [];
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            for (const word of ["RFC", "6585"]) {
              const i = n.data.indexOf(word);
              if (i < 0) continue;
              const range = document.createRange();
              range.setStart(n, i);
              range.setEnd(n, i + word.length);
              rfc.push({ word, lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size });
            }
          }
          return { rows: rows.length, misaligned, broken, wrapped, rfc, hasRfc: text.includes("RFC 6585") };
        });
        assert.ok(m.hasRfc, "the long line is shown");
        assert.ok(m.wrapped >= 2, `the long lines wrap on both sides (${m.wrapped} cells)`);
        assert.deepEqual(m.broken, [], "no word is broken across lines");
        assert.deepEqual(m.rfc.map((x) => [x.word, x.lines]), [["RFC", 1], ["6585", 1]]);
        assert.ok(m.rows >= 3);
        assert.deepEqual(m.misaligned, [], "left and right cell of each row start at the same top and have the same height");
      });
    },
  },
];
