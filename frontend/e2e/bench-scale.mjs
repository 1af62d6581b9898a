#!/usr/bin/env node
// The window at scale (issue 15), in the real UI: the dev binary and the
// window in Chromium under Xvfb, as bench-stream.mjs runs them.
//
//   node frontend/e2e/bench-scale.mjs [--runs N] [--no-frontend-build] [--no-go-build] [--trace session|review|tree]
//
// --trace PART records a Chromium trace and a JavaScript profile of that
// part of each run and prints the main thread's events and the functions by
// self time (to find where time goes).
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
// Times are stamped in the page (requestAnimationFrame after the change) and
// by the proxy with the same wall clock. The table shows every run, the
// median, and the load average before and after.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { benchPaths, openBenchApp, printProfile, printTrace, proxySource, runsTable, withBench } from "./lib/bench.mjs";
import { startServer } from "./lib/env.mjs";
import { killAllSync } from "./lib/procs.mjs";
import { bigEdit, bigEditScript, emptyFiles, flatName, importLongSession, lastMessageText } from "./lib/scaleData.mjs";

const { repoRoot, devBinary, fakeLLMBinary, logsDir } = benchPaths("bench-scale");
const FLAT = 100_000;
const SCROLL_STEP = 300;
const KEYS = 5;

const argv = process.argv.slice(2);
const opt = { runs: 3, frontendBuild: true, goBuild: true, trace: "" };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--runs") opt.runs = Number(argv[++i]);
  else if (a === "--no-frontend-build") opt.frontendBuild = false;
  else if (a === "--no-go-build") opt.goBuild = false;
  else if (a === "--trace") opt.trace = argv[++i];
  else {
    console.error("usage: node frontend/e2e/bench-scale.mjs [--runs N] [--no-frontend-build] [--no-go-build] [--trace session|review|tree]");
    process.exit(2);
  }
}

/** In the page: runs act, then resolves with the wall-clock stamp of the first frame in which found() holds. */
function frameWhen(page, act, found, arg) {
  return page.evaluate(
    ({ act, found, arg }) =>
      new Promise((resolve, reject) => {
        const now = () => performance.timeOrigin + performance.now();
        const t0 = now();
        const test = new Function("arg", `return (${found})(arg)`);
        new Function(act)();
        const tick = () => {
          if (test(arg)) resolve({ t0, at: now() });
          else if (now() - t0 > 60_000) reject(new Error(`not found after 60 s: ${found}`));
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    { act, found: found.toString(), arg },
  );
}

/**
 * In the page: scrolls the element matching selector from its top to its
 * end, SCROLL_STEP px a frame (dir -1: from its end up to its top, until
 * nothing older is read there); returns frame gaps.
 */
function scrollThrough(page, selector, dir = 1) {
  return page.evaluate(
    ({ selector, step, dir }) =>
      new Promise((resolve) => {
        const el = document.querySelector(selector);
        el.scrollTop = dir > 0 ? 0 : el.scrollHeight;
        const frames = [];
        let settled = 0;
        const tick = (t) => {
          frames.push(t);
          const end =
            dir > 0
              ? el.scrollTop + el.clientHeight >= el.scrollHeight - 1
              : el.scrollTop <= 0 && !document.querySelector("[data-testid=transcript-older]");
          // At the end for a few frames (row heights measured on the way may grow it).
          settled = end ? settled + 1 : 0;
          if (settled >= 5) {
            let max = 0;
            let over = 0;
            for (let k = 1; k < frames.length; k++) {
              const gap = frames[k] - frames[k - 1];
              max = Math.max(max, gap);
              if (gap > 34) over++;
            }
            resolve({ frames: frames.length, max, over, height: el.scrollHeight });
            return;
          }
          el.scrollTop += dir * step;
          requestAnimationFrame(tick);
        };
        // Start after the jump has been painted.
        requestAnimationFrame(() => requestAnimationFrame(tick));
      }),
    { selector, step: SCROLL_STEP, dir },
  );
}

/** The scrolling ancestor of the review (the panel's body). */
function markReviewScroller() {
  let el = document.querySelector("[data-testid=change-review]");
  while (el && !(el.scrollHeight > el.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(el).overflowY))) el = el.parentElement;
  if (!el) throw new Error("the review does not scroll");
  el.setAttribute("data-bench-scroller", "review");
}

async function openApp(browser, { display, home, project, env, name, i }) {
  const { page, close } = await openBenchApp(browser, { display, home, project, env, logFile: join(logsDir, `${name}${i}.log`) });
  return {
    page,
    async traced(part, fn) {
      if (opt.trace !== part) return fn();
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
      await browser.startTracing(page, { categories: ["devtools.timeline", "blink", "disabled-by-default-devtools.timeline"] });
      try {
        return await fn();
      } finally {
        printTrace(i, JSON.parse((await browser.stopTracing()).toString()));
        printProfile(i, (await cdp.send("Profiler.stop")).profile);
      }
    },
    close,
  };
}

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
    const up = await scrollThrough(page, "[data-testid=transcript]", -1);
    const scroll = await scrollThrough(page, "[data-testid=transcript]");
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

async function reviewRun(i, { browser, display, tmp }) {
  const edit = bigEdit();
  const project = mkdtempSync(join(tmp, "project-"));
  writeFileSync(join(project, edit.path), edit.original);
  const home = mkdtempSync(join(tmp, "home-"));
  const script = join(tmp, `review${i}.json`);
  writeFileSync(script, JSON.stringify(bigEditScript(edit)));
  const fake = await startServer("fakellm", fakeLLMBinary, ["-script", script, "-addr", "127.0.0.1:0"], { logFile: join(logsDir, `fakellm${i}.log`) });
  const proxy = await startServer("bench-proxy", process.execPath, ["-e", proxySource, fake.url], { logFile: join(logsDir, `proxy${i}.log`) });
  const app = await openApp(browser, { display, home, project, env: { ANTHROPIC_BASE_URL: proxy.url }, name: "review", i });
  const { page } = app;
  try {
    await page.click("[data-testid=session-new]");
    await page.locator("[data-testid=session-item] button[aria-current=true]").waitFor();
    await page.fill("[data-testid=chat-input]", "update the table");
    const painted = await app.traced("review", () => frameWhen(
      page,
      `document.querySelector("[data-testid=chat-send]").click()`,
      () => !!document.querySelector("[data-testid=change-review][data-phase=deciding] [data-testid=diff-hunk]"),
    ));
    const streams = await (await fetch(`${proxy.url}/_bench/streams`)).json();
    const proposal = streams.filter((s) => s.path.startsWith("/v1/messages")).at(1);
    if (!proposal) throw new Error("the proposing answer did not go through the proxy");
    const hunks = await page.locator("[data-testid=diff-hunk]").count();

    await page.evaluate(markReviewScroller);
    const scroll = await scrollThrough(page, "[data-bench-scroller=review]");

    // Decision keys from the top: n rejects the focused hunk and focuses the next.
    await page.evaluate(() => (document.querySelector("[data-bench-scroller=review]").scrollTop = 0));
    await page.locator("[data-testid=change-review]").focus();
    const keys = [];
    for (let k = 0; k < KEYS; k++) {
      await page.locator(`[data-testid=diff-hunk].focused[data-hunk-index="${k}"]`).waitFor({ state: "attached" });
      const r = await frameWhen(
        page,
        `document.querySelector("[data-testid=change-review]").dispatchEvent(new KeyboardEvent("keydown", { key: "n", bubbles: true }))`,
        (next) => !!document.querySelector(`[data-testid=diff-hunk].focused[data-hunk-index="${next}"]`),
        k + 1,
      );
      keys.push(r.at - r.t0);
    }
    keys.sort((a, b) => a - b);
    return {
      reviewMs: painted.at - proposal.lastByte,
      hunksInDom: hunks,
      reviewFrames: scroll.frames,
      reviewOver: scroll.over,
      reviewMaxGap: scroll.max,
      keyMs: keys[keys.length >> 1],
    };
  } finally {
    await app.close();
    await proxy.stop();
    await fake.stop();
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
    const flat = flatProject(env.tmp);
    try {
      const loadBefore = loadavg();
      const results = [];
      for (let i = 1; i <= opt.runs; i++) {
        const r = { ...(await sessionRun(i, env)), ...(await reviewRun(i, env)), ...(await treeRun(i, { ...env, project: flat })) };
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
      console.log(runsTable(title, rows, results, loadBefore));
    } finally {
      rmSync(flat, { recursive: true, force: true });
    }
  });
}

main().catch((err) => {
  console.error(`bench-scale: ${err?.stack ?? err}`);
  killAllSync();
  process.exit(1);
});

