#!/usr/bin/env node
// The Branch view of a 200-file branch, click → painted, in the real window
// (the dev binary and its page in Chromium under Xvfb, as the e2e runs and
// bench-scale.mjs do), cold and with the branch read ahead:
//
//   node frontend/bench/branch/run.mjs [--big] [--runs N] [--no-frontend-build] [--no-go-build]
//
// The project is a git repository of 200 twelve-line files (with --big,
// 100,000 more committed files beside them, as BenchmarkGetBranch200In100k).
// Each run makes a new worktree session in the window, changes lines 2 and
// 11 of the 200 files in its worktree (400 hunks) and then times, from the
// click on branch-open to the first frame after the view is ready with its
// hunks:
//
// * cold: nothing read ahead (a session just made): GetBranch, then paint;
// * warm: after a turn of the session ended (the fake model answers), once
//   the window has read the branch ahead (branch-open data-cache goes
//   reading → held): painted from that, and the time until the view has
//   read the branch again (data-fresh=true), which is GetBranch in the
//   window.
//
// A run before the counted ones loads what the window loads on first use.
// Prints a Markdown table of the runs and their median, with the load average.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { benchPaths, openBenchApp, runsTable, withBench } from "../../e2e/lib/bench.mjs";
import { startServer } from "../../e2e/lib/env.mjs";
import { killAllSync } from "../../e2e/lib/procs.mjs";

const { repoRoot, fakeLLMBinary, logsDir } = benchPaths("bench-branch");
const FILES = 200;
const BIG = 100_000;

const argv = process.argv.slice(2);
const opt = { runs: 5, big: false, frontendBuild: true, goBuild: true };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--runs") opt.runs = Number(argv[++i]);
  else if (a === "--big") opt.big = true;
  else if (a === "--no-frontend-build") opt.frontendBuild = false;
  else if (a === "--no-go-build") opt.goBuild = false;
  else {
    console.error("usage: node frontend/bench/branch/run.mjs [--big] [--runs N] [--no-frontend-build] [--no-go-build]");
    process.exit(2);
  }
}

const git = (dir, ...args) => execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd: dir, encoding: "utf8", maxBuffer: 1 << 26 });
const words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
const twelve = words.join("\n") + "\n";
const changed = words.map((w) => (w === "two" || w === "eleven" ? w.toUpperCase() : w)).join("\n") + "\n";
const fileName = (i) => `f${String(i).padStart(3, "0")}.txt`;

/** The project: FILES twelve-line files, and with --big BIG more, committed. */
function makeProject(tmp) {
  const dir = mkdtempSync(join(tmp, "project-"));
  for (let i = 0; i < FILES; i++) writeFileSync(join(dir, fileName(i)), twelve);
  if (opt.big) {
    for (let d = 0; d < BIG / 100; d++) {
      const sub = join(dir, "src", `pkg${String(Math.floor(d / 100)).padStart(3, "0")}`, `mod${String(d % 100).padStart(2, "0")}`);
      mkdirSync(sub, { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(join(sub, `file${String(f).padStart(2, "0")}.go`), `package mod${d % 100} // ${f}\n`);
    }
  }
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "start");
  return dir;
}

/**
 * In the page: clicks branch-open and resolves with the ms to the first
 * frame after the view is ready with its hunks (and its data-fresh then,
 * the files rendered), and the ms until it has read the branch again.
 */
function openBranch(page) {
  return page.evaluate(
    () =>
      new Promise((done) => {
        const t0 = performance.now();
        const out = { paintMs: null, fresh: null, files: 0, freshMs: null };
        const finish = () => {
          if (out.paintMs === null || out.freshMs === null) return;
          watch.disconnect();
          done(out);
        };
        const check = () => {
          const v = document.querySelector('[data-testid="branch-view"][data-status="ready"]');
          if (!v || !v.querySelector('[data-testid="diff-hunk"]')) return;
          if (out.fresh === null) {
            out.fresh = v.getAttribute("data-fresh");
            out.files = v.querySelectorAll('[data-testid="diff-view"]').length;
            requestAnimationFrame(() =>
              setTimeout(() => {
                out.paintMs = performance.now() - t0;
                finish();
              }, 0),
            );
          }
          if (out.freshMs === null && v.getAttribute("data-fresh") === "true") {
            out.freshMs = performance.now() - t0;
            finish();
          }
        };
        const watch = new MutationObserver(check);
        watch.observe(document.body, { subtree: true, childList: true, attributes: true });
        document.querySelector('[data-testid="branch-open"]').click();
      }),
  );
}

/** Makes worktree session NAME in the window; returns its worktree folder. */
async function newWorktreeSession(page, project, name) {
  await page.click("[data-testid=session-new-worktree]");
  await page.fill("[data-testid=worktree-name]", name);
  await page.click("[data-testid=worktree-create]");
  await page.locator("[data-testid=worktree-dialog]").waitFor({ state: "detached", timeout: 300_000 });
  await page.locator(`[data-testid=session-item][data-branch="pilot/${name}"] button[aria-current=true]`).waitFor();
  const line = git(project, "worktree", "list", "--porcelain")
    .split("\n")
    .find((l) => l.startsWith("worktree ") && l.endsWith(`/${name}`));
  if (!line) throw new Error(`the worktree of pilot/${name} is not listed`);
  return line.slice("worktree ".length);
}

/** Sends a message and waits until the turn has ended and the branch was read ahead after it. */
async function turnThenReadAhead(page) {
  await page.evaluate(() => {
    const open = document.querySelector('[data-testid="branch-open"]');
    window.__benchRead = false;
    window.__benchWatch?.disconnect();
    window.__benchWatch = new MutationObserver(() => {
      if (open.getAttribute("data-cache") === "reading") window.__benchRead = true;
    });
    window.__benchWatch.observe(open, { attributes: true, attributeFilter: ["data-cache"] });
  });
  await page.fill("[data-testid=chat-input]", "go on");
  await page.click("[data-testid=chat-send]");
  await page.waitForFunction(
    () =>
      window.__benchRead &&
      document.querySelector('[data-testid="branch-open"]')?.getAttribute("data-cache") === "held" &&
      document.querySelector("[data-testid=agent-state]")?.getAttribute("data-state") === "idle",
    null,
    { timeout: 300_000 },
  );
}

async function oneRun(page, project, i) {
  const wt = await newWorktreeSession(page, project, `bench${i}`);
  for (let f = 0; f < FILES; f++) writeFileSync(join(wt, fileName(f)), changed);
  try {
    const cold = await openBranch(page);
    await page.click("[data-testid=tab-review]");
    await turnThenReadAhead(page);
    const warm = await openBranch(page);
    if (warm.fresh !== "false") throw new Error(`the warm open did not paint from the branch read ahead (data-fresh=${warm.fresh})`);
    if (await page.locator("[data-testid=branch-replaced]").count()) throw new Error("the branch read again differs from the one read ahead, though nothing changed");
    await page.click("[data-testid=tab-review]");
    return { cold: cold.paintMs, warm: warm.paintMs, warmFresh: warm.freshMs, files: warm.files };
  } finally {
    // A worktree of a big repository is some hundreds of MiB: one at a time.
    git(project, "worktree", "remove", "--force", wt);
  }
}

async function main() {
  await withBench({ name: "bench-branch", repoRoot, logsDir, frontendBuild: opt.frontendBuild, goBuild: opt.goBuild }, async (env) => {
    const t = Date.now();
    const project = makeProject(env.tmp);
    console.error(`bench-branch: project of ${opt.big ? FILES + BIG : FILES} files made in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    const home = mkdtempSync(join(env.tmp, "home-"));
    const script = join(env.tmp, "script.json");
    writeFileSync(script, JSON.stringify({ turns: [{ text: "Done.", repeat: true }] }));
    const fake = await startServer("fakellm", fakeLLMBinary, ["-script", script, "-addr", "127.0.0.1:0"], { logFile: join(logsDir, "fakellm.log") });
    const { page, close } = await openBenchApp(env.browser, {
      display: env.display,
      home,
      project,
      env: { ANTHROPIC_BASE_URL: fake.url },
      logFile: join(logsDir, "app.log"),
    });
    try {
      await oneRun(page, project, 0); // loads what the window loads on first use
      const loadBefore = loadavg();
      const results = [];
      for (let i = 1; i <= opt.runs; i++) {
        const r = await oneRun(page, project, i);
        results.push(r);
        console.error(`bench-branch: run ${i}/${opt.runs}: ${JSON.stringify(r)}`);
      }
      const n = (x) => String(Math.round(x));
      const rows = [
        ["cold", "click → painted, nothing read ahead: GetBranch, then paint (ms)", n],
        ["warm", "click → painted from the branch read at the turn's end (ms)", n],
        ["warmFresh", "— click → the branch read again (data-fresh), painted view kept (ms)", n],
        ["files", `— files rendered of ${FILES}`, n],
      ];
      const size = opt.big ? `${FILES} changed among ${(FILES + BIG).toLocaleString("en")} files` : `${FILES} files in all`;
      const title = `Branch view of ${FILES} changed files (400 hunks), ${size}; dev binary in Chromium ${env.browser.version()}, 1280×800, ${new Date().toISOString().slice(0, 10)}.`;
      console.log(runsTable(title, rows, results, loadBefore));
    } finally {
      await close();
      await fake.stop();
    }
  });
}

main().catch((err) => {
  console.error(`bench-branch: ${err?.stack ?? err}`);
  killAllSync();
  process.exit(1);
});
