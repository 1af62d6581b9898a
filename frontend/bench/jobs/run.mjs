#!/usr/bin/env node
// The Jobs panel under a flood: a scripted model starts a background job
// (run_bash background: true, edits mode) that prints 10,000 lines a second
// for 10 s, into the real app (dev build, Wails dev server, Chromium under
// Xvfb at 1280x800) with the Jobs panel open on it, following the end.
//
//   node frontend/bench/jobs/run.mjs [--runs N] [--seconds N] [--rate N] [--no-frontend-build] [--no-go-build] [--json]
//
// Measured per run:
//  * frame gaps: a requestAnimationFrame loop in the page stamps every
//    frame from the job's start to its last line on screen; the longest gap
//    between two frames, the 99th percentile, and the gaps over 50 ms (the
//    target: none), and the page's long tasks (50 ms and more): a gap
//    with no long task in it is the machine's other work, not the page's;
//  * memory: VmRSS of the backend process (pilot-dev, from /proc) when the
//    session is open and idle, its peak while the job runs (sampled every
//    250 ms), and after the job ended and its last line is on screen (the
//    target: after − before within 20 MiB); also the whole process group's
//    (the window's own WebKit processes too), for scale.
// Each run has a fresh app, home and page; the table shows every run and
// the median.
import { readdirSync, readFileSync, rmSync, mkdtempSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { benchPaths, f1, median, runsTable, withBench } from "../../e2e/lib/bench.mjs";
import { freePort, startDevApp, startServer } from "../../e2e/lib/env.mjs";
import { killAllSync } from "../../e2e/lib/procs.mjs";

const { repoRoot, devBinary, fakeLLMBinary, logsDir } = benchPaths("bench-jobs");

const argv = process.argv.slice(2);
const opt = { runs: 3, seconds: 10, rate: 10_000, frontendBuild: true, goBuild: true, json: false };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--runs") opt.runs = Number(argv[++i]);
  else if (a === "--seconds") opt.seconds = Number(argv[++i]);
  else if (a === "--rate") opt.rate = Number(argv[++i]);
  else if (a === "--no-frontend-build") opt.frontendBuild = false;
  else if (a === "--no-go-build") opt.goBuild = false;
  else if (a === "--json") opt.json = true;
  else {
    console.error("usage: node frontend/bench/jobs/run.mjs [--runs N] [--seconds N] [--rate N] [--no-frontend-build] [--no-go-build] [--json]");
    process.exit(2);
  }
}

const perWrite = Math.max(1, Math.round(opt.rate / 100));
const total = perWrite * 100 * opt.seconds;
const lastLine = `line ${total - 1} of the flood`;
// 100 writes a second of rate/100 lines each, paced against the clock.
const flood = [
  "import sys, time",
  "t0 = time.time()",
  `for k in range(${opt.seconds * 100}):`,
  `    n = ${perWrite}`,
  "    sys.stdout.write(''.join('line %d of the flood\\n' % (k * n + i) for i in range(n)))",
  "    sys.stdout.flush()",
  "    time.sleep(max(0.0, t0 + (k + 1) / 100 - time.time()))",
].join("\n");
const command = `python3 -u -c "${flood.replaceAll('"', '\\"')}"`;

const KiB = 1024;
/** VmRSS of a process in bytes (0 when it is gone). */
function rss(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * KiB : 0;
  } catch {
    return 0;
  }
}
/** VmRSS summed over a process group (the app and the window's WebKit processes). */
function groupRss(pgid) {
  let sum = 0;
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid) sum += rss(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}
const mib = (b) => b / (1024 * 1024);

// Installed in the page before the prompt is sent: a stamp per frame.
function installProbe() {
  const p = { frames: [], longtasks: [], running: true };
  window.__bench = p;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) p.longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: false });
  const frame = (t) => {
    p.frames.push(t);
    if (p.running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

async function oneRun(i, { browser, display, script, tmp }) {
  // A fresh fake model per run: it serves each turn of the script once.
  const fake = await startServer("fakellm", fakeLLMBinary, ["-script", script, "-addr", "127.0.0.1:0"], { logFile: join(logsDir, `fakellm${i}.log`) });
  const fakeURL = fake.url;
  const project = mkdtempSync(join(tmp, "project-"));
  writeFileSync(join(project, "README.md"), "# bench\n");
  const home = mkdtempSync(join(tmp, "home-"));
  const app = await startDevApp({
    binary: devBinary,
    repoRoot,
    display,
    port: await freePort(),
    home,
    env: { PILOT_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "bench-key", ANTHROPIC_BASE_URL: fakeURL, PILOT_PROJECT: project },
    logFile: join(logsDir, `app${i}.log`),
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const pid = app.proc.pid;
  let peak = 0;
  let peakGroup = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss(pid));
    peakGroup = Math.max(peakGroup, groupRss(pid));
  }, 250);
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await page.goto(app.baseURL, { waitUntil: "load" });
    const item = page.locator(`[data-testid=project-item][data-path="${project}"]`);
    await item.waitFor({ state: "visible" });
    if ((await item.locator("button[aria-current=true]").count()) === 0) await item.locator("button").click();
    await page.click("[data-testid=session-new]");
    await page.locator("[data-testid=session-item] button[aria-current=true]").waitFor();
    await page.locator("[data-testid=mode-select]").selectOption("edits");
    await page.locator('[data-testid=mode-select][data-mode="edits"]').waitFor();
    await page.fill("[data-testid=chat-input]", "flood");
    // Before: once the app's memory has settled (three samples 250 ms apart within 256 KiB; 15 s at most).
    const samples = [];
    for (let k = 0; k < 60; k++) {
      samples.push(rss(pid));
      const last = samples.slice(-3);
      if (last.length === 3 && Math.max(...last) - Math.min(...last) < 256 * KiB) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const before = rss(pid);
    const beforeGroup = groupRss(pid);
    peak = before;
    peakGroup = beforeGroup;

    await page.click("[data-testid=chat-send]");
    // Where the sandbox is missing the command asks first.
    const open = page.locator("[data-testid=jobs-open]");
    const approve = page.locator("[data-testid=bash-approve]");
    await open.or(approve).first().waitFor();
    if ((await open.count()) === 0) await approve.click();
    await open.click();
    await page.locator("[data-testid=job-output]").waitFor();
    await page.evaluate(installProbe);
    // Chromium's own count of the page's main-thread time (tasks, script, layout).
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const metrics = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
    const m0 = await metrics();
    const t0 = await page.evaluate(() => performance.now());
    // The end: the job exited and its last line is on screen.
    await page.locator('[data-testid=job-item][data-state="exited"]').waitFor({ timeout: (opt.seconds + 120) * 1000 });
    await page.locator("[data-testid=job-output] .job-line", { hasText: lastLine }).waitFor({ timeout: 60_000 });
    const t1 = await page.evaluate(() => performance.now());
    const m1 = await metrics();
    const probe = await page.evaluate(() => {
      window.__bench.running = false;
      return { frames: window.__bench.frames, longtasks: window.__bench.longtasks, rows: Number(document.querySelector("[data-testid=job-output]")?.getAttribute("data-rows")), dom: document.querySelectorAll("[data-testid=job-output] .job-line").length };
    });
    const after = rss(pid);
    const afterGroup = groupRss(pid);
    const frames = probe.frames.filter((t) => t >= t0 && t <= t1);
    const gaps = [];
    for (let k = 1; k < frames.length; k++) gaps.push(frames[k] - frames[k - 1]);
    gaps.sort((a, b) => a - b);
    const tasks = probe.longtasks.filter((t) => t.start >= t0 && t.start <= t1);
    return {
      busyPct: (100 * (m1.TaskDuration - m0.TaskDuration)) / ((t1 - t0) / 1000),
      scriptMs: 1000 * (m1.ScriptDuration - m0.ScriptDuration),
      layoutMs: 1000 * (m1.LayoutDuration - m0.LayoutDuration + m1.RecalcStyleDuration - m0.RecalcStyleDuration),
      longestTaskMs: tasks.length ? Math.max(...tasks.map((t) => t.duration)) : 0,
      longTasks: tasks.length,
      seconds: (t1 - t0) / 1000,
      frames: frames.length,
      maxGapMs: gaps.at(-1) ?? 0,
      p99GapMs: gaps[Math.floor(gaps.length * 0.99)] ?? 0,
      over50: gaps.filter((g) => g > 50).length,
      rows: probe.rows,
      dom: probe.dom,
      beforeMib: mib(before),
      peakMib: mib(peak),
      afterMib: mib(after),
      growthMib: mib(after - before),
      groupBeforeMib: mib(beforeGroup),
      groupPeakMib: mib(peakGroup),
      groupAfterMib: mib(afterGroup),
    };
  } finally {
    clearInterval(sampler);
    await context.close().catch(() => {});
    await app.stop();
    await fake.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
}

async function main() {
  await withBench({ name: "bench-jobs", repoRoot, logsDir, frontendBuild: opt.frontendBuild, goBuild: opt.goBuild }, async ({ browser, display, tmp }) => {
    const script = join(tmp, "flood.json");
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          { text: "Starting the flood.", toolCalls: [{ id: "flood", name: "run_bash", input: { command, background: true } }] },
          { when: { hasToolResult: true }, text: "It runs as job 1." },
        ],
      }),
    );
    const loadBefore = loadavg();
    const results = [];
    for (let i = 1; i <= opt.runs; i++) {
      const r = await oneRun(i, { browser, display, script, tmp });
      results.push(r);
      console.error(`bench-jobs: run ${i}/${opt.runs}: longest frame gap ${f1(r.maxGapMs)} ms, ${r.over50} over 50 ms; backend RSS ${f1(r.beforeMib)} → ${f1(r.afterMib)} MiB`);
    }
    const n = (x) => String(Math.round(x));
    const cols = [
      ["maxGapMs", "longest gap between frames (ms)"],
      ["p99GapMs", "99th percentile frame gap (ms)"],
      ["over50", "frame gaps over 50 ms", n],
      ["busyPct", "page's main thread busy (% of the span)"],
      ["scriptMs", "— of which script (ms in all)"],
      ["layoutMs", "— of which style and layout (ms in all)"],
      ["longestTaskMs", "longest main-thread task (ms; Chromium reports those of 50 ms and more)"],
      ["longTasks", "long tasks (≥ 50 ms)", n],
      ["frames", "frames from the job's start to its last line on screen", n],
      ["seconds", "— that span (s)"],
      ["rows", "output rows held (1 MiB cap, the cut counted as one)", n],
      ["dom", "output rows in the DOM", n],
      ["beforeMib", "backend RSS, session open and idle (MiB)"],
      ["peakMib", "backend RSS, peak while the job ran (MiB)"],
      ["afterMib", "backend RSS, job ended, last line on screen (MiB)"],
      ["growthMib", "backend RSS after − before (MiB)"],
      ["groupBeforeMib", "app's process group RSS before (MiB; with the window's WebKit)"],
      ["groupPeakMib", "— peak (MiB)"],
      ["groupAfterMib", "— after (MiB)"],
    ];
    if (opt.json) {
      console.log(JSON.stringify({ rate: opt.rate, seconds: opt.seconds, load: [loadBefore, loadavg()], runs: results, median: Object.fromEntries(cols.map(([k]) => [k, median(results.map((r) => r[k]))])) }));
    } else {
      const title = `A background job printing ${opt.rate.toLocaleString("en")} lines a second for ${opt.seconds} s (${total.toLocaleString("en")} lines) with the Jobs panel open on it, Chromium ${browser.version()} at 1280x800, ${new Date().toISOString().slice(0, 10)}.`;
      console.log(runsTable(title, cols, results, loadBefore));
    }
  });
}

main().catch((err) => {
  console.error(`bench-jobs: ${err?.stack ?? err}`);
  killAllSync();
  process.exit(1);
});
