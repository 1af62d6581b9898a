// A project of 100,000 files: the file tree lists it lazily (the root at
// once, a folder of 100,000 files in pages and virtualised: its last file
// reached by scrolling and by keys, a change deep in it marked), hides what
// .gitignore ignores, and the @ picker finds a deep file by a fuzzy query. The times
// it prints are the figures in docs/BENCHMARKS.md (files section); the
// bounds asserted here are only a sanity check.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { emptyFiles, flatName } from "../lib/scaleData.mjs";
import { openProject, scriptFile, sel, send, startSession, waitDiff, waitTurnDone } from "./helpers.mjs";

const FLAT = 100_000;
const DEEP = "src/billing/ledger/internal/reconcile/statement_exporter.go";
const QUERY = "ledgstmtexp";
/** A file deep in flat/ (its 500th page of 200) that the session changes. */
const CHANGED = `flat/${flatName(FLAT - 10)}`;
const tree = "[data-testid=file-tree]";
const row = (path) => `${tree} [data-testid=file-tree-item][data-path="${path}"]`;

/**
 * Fills dir with flat/ (100,000 files), src/ (1,000 files four levels down
 * and DEEP) and node_modules/ (1,000 files, ignored by .gitignore).
 */
function writeBigProject(dir) {
  const text = { ".gitignore": "node_modules/\n*.log\n", "README.md": "# big\n", [DEEP]: "package reconcile\n" };
  for (const [name, body] of Object.entries(text)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), body);
  }
  for (const area of ["api", "auth", "billing", "core", "ui"])
    for (const pkg of ["handlers", "models"])
      for (const sub of ["internal", "views"]) emptyFiles(join(dir, "src", area, pkg, sub), 50, (i) => `${sub}_${i}.go`);
  for (let m = 0; m < 10; m++) emptyFiles(join(dir, "node_modules", `module-${m}`, "lib"), 100, (i) => `part${i}.js`);
  emptyFiles(join(dir, "flat"), FLAT, flatName);
}

/**
 * An empty folder for the big project, on tmpfs when there is one: on a VM
 * whose disk I/O is throttled, creating 100,000 files on disk took from 3 to
 * 58 s, on tmpfs about 1 s. Returns { dir, remove }; remove() also runs if the
 * runner exits first (it only removes its own temp folder).
 */
async function bigProjectDir(ctx) {
  let dir;
  try {
    dir = mkdtempSync("/dev/shm/pilot-e2e-bigtree-");
  } catch {
    dir = await ctx.projectDir({});
  }
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once("exit", remove);
  return {
    dir,
    remove() {
      process.off("exit", remove);
      remove();
    },
  };
}

/**
 * In the page: runs act, then resolves with the ms until selector matches a
 * visible element (checked every frame); fails after 30 s.
 */
function timeUntilVisible(page, act, selector) {
  return page.evaluate(
    ({ act, selector }) =>
      new Promise((resolve, reject) => {
        const t0 = performance.now();
        new Function(act)();
        const tick = () => {
          const el = document.querySelector(selector);
          if (el && el.getBoundingClientRect().height > 0) resolve(Math.round(performance.now() - t0));
          else if (performance.now() - t0 > 30_000) reject(new Error(`${selector} not visible after 30 s`));
          else requestAnimationFrame(tick);
        };
        tick();
      }),
    { act, selector },
  );
}

export const tests = [
  {
    name: "a 100,000-file project: the root lists at once, the flat folder is virtualised, @ finds a deep file",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const small = await ctx.projectDir({ "hello.txt": "hi\n" });
      const { dir: big, remove } = await bigProjectDir(ctx);
      try {
        let t0 = Date.now();
        writeBigProject(big);
        const generated = Date.now() - t0;

        const script = {
          turns: [
            { when: { lastUserContains: "deep" }, toolCalls: [{ name: "read_file", input: { path: CHANGED } }] },
            { when: { hasToolResult: true }, toolCalls: [{ name: "write_file", input: { path: CHANGED, content: "changed\n" } }] },
            { when: { hasToolResult: true }, text: "Written." },
          ],
        };
        const llm = await ctx.startFakeLLM(await scriptFile(ctx, script));
        await ctx.startApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: small } });
        await openProject(ctx, small);
        await page.click("[data-testid=tab-files]");
        await page.locator(row("hello.txt")).waitFor();

        // Open the big project by its path: open → its root rows on screen.
        await page.fill("[data-testid=project-path]", big);
        const openMs = await timeUntilVisible(
          page,
          `document.querySelector("[data-testid=project-path]").form.requestSubmit()`,
          row("flat"),
        );
        const root = await page.locator(`${tree} [data-testid=file-tree-item]`).evaluateAll((els) => els.map((e) => e.getAttribute("data-path")));
        assert.deepEqual(root.slice().sort(), [".gitignore", "README.md", "flat", "src"], "node_modules/ is ignored, not listed");
        assert.ok(openMs < 3000, `root listed in ${openMs} ms`);

        // Expand flat/: its first file on screen, then scroll to the end.
        const expandMs = await timeUntilVisible(page, `document.querySelector('${row("flat")}').click()`, row(`flat/${flatName(0)}`));
        const last = row(`flat/${flatName(FLAT - 1)}`);
        const scrollMs = await timeUntilVisible(page, `const t = document.querySelector("${tree}"); t.scrollTop = t.scrollHeight`, last);
        const inDom = await page.locator(`${tree} [data-testid=file-tree-item]`).count();
        assert.ok(inDom < 500, `${inDom} rows in the DOM for ${FLAT + 4}: virtualised`);
        const box = await page.locator(last).boundingBox();
        const view = await page.locator(tree).boundingBox();
        assert.ok(box && view && box.y >= view.y && box.y + box.height <= view.y + view.height + 1, "the last file is in view");

        // By keys: Home, End (the root's last row, after flat/'s 100,000),
        // then up past src/ and .gitignore to flat/'s last file.
        const activePath = () => page.locator(`${tree} [aria-selected=true]`).getAttribute("data-path");
        const expectActive = (path, why) => ctx.waitFor(async () => (await activePath()) === path, { message: `${why}: ${path} active` });
        await page.focus(tree);
        await page.keyboard.press("Home");
        await expectActive("flat", "Home");
        await page.keyboard.press("End");
        await expectActive("README.md", "End");
        for (const path of [".gitignore", "src", `flat/${flatName(FLAT - 1)}`, `flat/${flatName(FLAT - 2)}`]) {
          await page.keyboard.press("ArrowUp");
          await expectActive(path, "ArrowUp");
        }

        // The @ picker: a fuzzy query finds the deep file first; Enter attaches it.
        await startSession(ctx);
        await page.fill(sel.input, `look at @${QUERY}`);
        const first = page.locator("[data-testid=file-picker-item]").first();
        t0 = Date.now();
        await ctx.waitFor(async () => (await first.count()) && (await first.innerText()).includes("statement_exporter.go"), {
          timeout: 10_000,
          interval: 20,
          message: "the deep file first in the picker",
        });
        const pickMs = Date.now() - t0;
        assert.match(await first.innerText(), /src\/billing\/ledger\/internal\/reconcile/);
        await page.press(sel.input, "Enter");
        await page.locator("[data-testid=attachment]", { hasText: DEEP }).waitFor();
        assert.equal(await page.inputValue(sel.input), `look at @${DEEP} `);

        // An approved change to a file deep in flat/: marked when its page is in view.
        await send(ctx, "change the deep flat file");
        await waitDiff(ctx, CHANGED);
        await page.click("[data-testid=diff-approve-all]");
        await page.locator(sel.assistant, { hasText: "Written." }).waitFor({ timeout: 30_000 });
        await waitTurnDone(ctx);
        await page.click("[data-testid=tab-files]");
        await page.locator(tree).waitFor({ state: "visible" });
        // flat/ stays expanded (the tab was only hidden); its end is near the tree's.
        await page.locator(tree).evaluate((t) => (t.scrollTop = t.scrollHeight));
        await page.locator(`${row(CHANGED)}[data-changed="true"]`).waitFor({ timeout: 30_000 });
        const marked = await page.locator(`${tree} [data-testid=file-tree-item][data-changed="true"]`).evaluateAll((els) => els.map((e) => e.getAttribute("data-path")));
        assert.deepEqual(marked, [CHANGED], "only the changed file is marked");

        console.log(
          `    bigtree: generated ${FLAT + 2003} files in ${generated} ms; open → root rows ${openMs} ms; ` +
            `expand flat/ → first row ${expandMs} ms; scroll to its end → last row ${scrollMs} ms (${inDom} rows in the DOM); ` +
            `@${QUERY} typed → deep file first in the picker ${pickMs} ms`,
        );
      } finally {
        await ctx.stopApp();
        remove();
      }
    },
  },
];
