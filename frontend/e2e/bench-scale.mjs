#!/usr/bin/env node
// The window at scale (issue 15), in the real UI: the dev binary and the
// window in Chromium under Xvfb, as bench-stream.mjs runs them.
//
//   node frontend/e2e/bench-scale.mjs [--runs N] [--no-frontend-build] [--no-go-build] [--trace session|review|tree] [--parts session,review,tree]
//
// --trace PART records a Chromium trace and a JavaScript profile of that
// part of each run and prints the main thread's events and the functions by
// self time (to find where time goes). --parts runs only the parts named
// (their rows only).
//
// Each run starts a fresh app and home and measures
//
// * session: a 2,000-message session (imported with `pilot sessions import`,
//   the data of the memory benchmark) opened from the sidebar while a short
//   one is open: click → the frame in which its last message is in the DOM;
//   then the transcript scrolled up from its end to its first message (the
//   window reads older pages on the way), and from its top to its end, 300
//   px a frame, counting frames over 34 ms (two frames at 60 Hz) and the
//   longest gap;
// * review: the model proposes a new text of a 20,000-line file, 200 hunks
//   (write_file, approval asked). From the last byte of that answer (a
//   stamping proxy, as in bench-stream.mjs) to the frame in which the review
//   shows its first hunk; the review scrolled top to end as above; a
//   decision key (n) → the frame in which the next hunk is focused, median
//   of 5 keys;
// * tree: a folder of 100,000 files expanded in the Files tab: click → the
//   frame in which its first row is on screen.
//
// Times are stamped in the page (the requestAnimationFrame after the frame in
// which the change shows, lib/frames.mjs) and by the proxy with the same
// wall clock. The table shows every run, the
// median, and the load average before and after.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { benchPaths, runsTable, withBench } from "./lib/bench.mjs";
import { frameWhen, scrollThrough } from "./lib/frames.mjs";
import { killAllSync } from "./lib/procs.mjs";
import { KEYS, SCROLL_STEP, openTracedApp, reviewRun } from "./lib/reviewBench.mjs";
import { emptyFiles, flatName, importLongSession, lastMessageText } from "./lib/scaleData.mjs";

const { repoRoot, devBinary, logsDir } = benchPaths("bench-scale");
const FLAT = 100_000;

const argv = process.argv.slice(2);
const PARTS = ["session", "review", "tree"];
const opt = { runs: 3, frontendBuild: true, goBuild: true, trace: "", parts: PARTS };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--runs") opt.runs = Number(argv[++i]);
  else if (a === "--no-frontend-build") opt.frontendBuild = false;
  else if (a === "--no-go-build") opt.goBuild = false;
  else if (a === "--trace") opt.trace = argv[++i];
  else if (a === "--parts") opt.parts = argv[++i].split(",");
  else {
    console.error("usage: node frontend/e2e/bench-scale.mjs [--runs N] [--no-frontend-build] [--no-go-build] [--trace session|review|tree] [--parts session,review,tree]");
    process.exit(2);
  }
}

const openApp = (browser, o) => openTracedApp(browser, { ...o, logsDir, trace: opt.trace });

async function sessionRun(i, { browser, display, tmp }) {
  const project = mkdtempSync(join(tmp, "project-"));
  const home = mkdtempSync(join(tmp, "home-"));
  const titles = await importLongSession({ repoRoot, binary: devBinary, home, project, tmp });
  const app = await openApp(browser, { display, home, project, name: "session", i });
  const { page } = app;
  try {
    const item = (title) => page.locator("[data-testid=session-item]", { hasText: title }).locator("button.list-button");
    await item(titles.short).click();
    await page.locator("[data-testid=message]").first().waitFor();
    const last = lastMessageText(titles.messages);
    const open = await app.traced("session", () => frameWhen(
      page,
      `[...document.querySelectorAll("[data-testid=session-item]")].find((e) => e.textContent.includes(${JSON.stringify(titles.long)})).querySelector("button.list-button").click()`,
      (text) => [...document.querySelectorAll("[data-testid=message]")].some((m) => m.textContent.includes(text)),
      last,
    ));
    // Up from the end to the first message: the older pages are read on the way.
    const up = await scrollThrough(page, "[data-testid=transcript]", SCROLL_STEP, -1);
    const scroll = await scrollThrough(page, "[data-testid=transcript]", SCROLL_STEP);
    return {
      openMs: open.at - open.t0,
      sessionUpOver: up.over,
      sessionUpMaxGap: up.max,
      sessionFrames: scroll.frames,
      sessionOver: scroll.over,
      sessionMaxGap: scroll.max,
    };
  } finally {
    await app.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
}

/** A project with flat/ of 100,000 empty files, on tmpfs when there is one (see bigtree.spec.mjs). */
function flatProject(tmp) {
  let dir;
  try {
    dir = mkdtempSync("/dev/shm/pilot-bench-scale-");
  } catch {
    dir = mkdtempSync(join(tmp, "flat-"));
  }
  writeFileSync(join(dir, "README.md"), "# flat\n");
  emptyFiles(join(dir, "flat"), FLAT, flatName);
  return dir;
}

async function treeRun(i, { browser, display, tmp, project }) {
  const home = mkdtempSync(join(tmp, "home-"));
  const app = await openApp(browser, { display, home, project, name: "tree", i });
  const { page } = app;
  try {
    await page.click("[data-testid=tab-files]");
    const row = (p) => `[data-testid=file-tree-item][data-path="${p}"]`;
    await page.locator(row("flat")).waitFor();
    const r = await app.traced("tree", () => frameWhen(
      page,
      `document.querySelector('${row("flat")}').click()`,
      (sel) => (document.querySelector(sel)?.getBoundingClientRect().height ?? 0) > 0,
      row(`flat/${flatName(0)}`),
    ));
    return { expandMs: r.at - r.t0 };
  } finally {
    await app.close();
    rmSync(home, { recursive: true, force: true });
  }
}

async function main() {
  await withBench({ name: "bench-scale", repoRoot, logsDir, frontendBuild: opt.frontendBuild, goBuild: opt.goBuild }, async (env) => {
    const flat = opt.parts.includes("tree") ? flatProject(env.tmp) : null;
    try {
      const loadBefore = loadavg();
      const results = [];
      for (let i = 1; i <= opt.runs; i++) {
        const part = (name, fn) => (opt.parts.includes(name) ? fn() : {});
        const r = {
          ...(await part("session", () => sessionRun(i, env))),
          ...(await part("review", () => reviewRun(i, { ...env, logsDir, trace: opt.trace }))),
          ...(await part("tree", () => treeRun(i, { ...env, project: flat }))),
        };
        results.push(r);
        console.error(`bench-scale: run ${i}/${opt.runs}: ${JSON.stringify(r)}`);
      }
      const n = (x) => String(Math.round(x));
      const rows = [
        ["openMs", "open a 2,000-message session: click → last message painted (ms)"],
        ["sessionUpOver", `scroll it up from its end to its first message (${SCROLL_STEP} px a frame, older pages read on the way): frames over 34 ms`, n],
        ["sessionUpMaxGap", "— longest gap between frames (ms)"],
        ["sessionOver", `then scroll it top to end (${SCROLL_STEP} px a frame): frames over 34 ms`, n],
        ["sessionMaxGap", "— longest gap between frames (ms)"],
        ["sessionFrames", "— frames", n],
        ["reviewMs", "review of a 20,000-line file, 200 hunks: answer's last byte → review painted (ms)"],
        ["hunksInDom", "— hunks in the DOM", n],
        ["reviewOver", `scroll the review top to end (${SCROLL_STEP} px a frame): frames over 34 ms`, n],
        ["reviewMaxGap", "— longest gap between frames (ms)"],
        ["reviewFrames", "— frames", n],
        ["keyMs", `decision key (n) → next hunk focused (ms, median of ${KEYS} keys)`],
        ["expandMs", "expand a folder of 100,000 files → first row on screen (ms)"],
      ];
      const title = `The window at scale, dev binary in Chromium ${env.browser.version()}, 1280×800, ${new Date().toISOString().slice(0, 10)}.`;
      console.log(runsTable(title, rows.filter(([k]) => k in results[0]), results, loadBefore));
    } finally {
      if (flat) rmSync(flat, { recursive: true, force: true });
    }
  });
}

main().catch((err) => {
  console.error(`bench-scale: ${err?.stack ?? err}`);
  killAllSync();
  process.exit(1);
});

