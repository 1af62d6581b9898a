#!/usr/bin/env node
// Streaming benchmark: the fake LLM streams 20,000 tokens as fast as it can
// into the real app (dev build, Wails dev server, Chromium under Xvfb), and
// we measure
//
//   (a) render lag: the time from the last byte of the model's stream to
//       the last token on screen, and
//   (b) the longest main-thread task while the answer streams.
//
//   node frontend/e2e/bench-stream.mjs [--runs N] [--tokens N] [--delay-ms N] [--no-frontend-build] [--no-go-build] [--json]
//
// --delay-ms N paces the stream: the fake server waits N ms before each
// event (1 ms gives about 1,000 tokens a second, ten times a fast hosted
// model). Unpaced, the fake server, the proxy, the Go process and the page
// race for the same two cores and the figure is mostly the backlog the Go
// process is left with at the last byte; paced, it is the latency a user
// sees at the end of a long answer.
//
// How it is measured
//
// * Last byte. The app does not talk to fakellm directly but through a tiny
//   pass-through proxy (a separate node process, below) that stamps, with
//   the wall clock (performance.timeOrigin + performance.now()), the first
//   and the last chunk it writes to the app's socket for each
//   POST /v1/messages. fakellm itself only logs when a request arrives.
//   The proxy adds one loopback hop; it sends each chunk on as it comes.
// * Last token on screen. Before the prompt is sent, the page gets a
//   MutationObserver on the transcript that only notes "an assistant
//   message's rendered text changed" and a
//   requestAnimationFrame loop that, in the first frame after a change,
//   records performance.timeOrigin + performance.now(): the moment the
//   frame with that DOM is about to be painted. The last such stamp is when
//   the last token reached the screen. Nothing reads the (120 kB) text per
//   frame, so the probe itself adds next to no main-thread work. The run
//   ends once the message is no longer streaming, the agent is idle and
//   the DOM has been quiet for 750 ms; then the text is read once and must
//   hold every generated word (else the run fails).
// * Longest task. A PerformanceObserver for 'longtask' (Chromium reports
//   tasks of 50 ms and more), installed before sending; tasks that start
//   between the send and the last token on screen count. As a finer view
//   the table also shows the longest gap between two animation frames in
//   the same window (a frame gap > 16.7 ms is a dropped frame).
//
// Both clocks are the same machine's wall clock, so (a) is last paint stamp
// minus last byte stamp. Each run uses a fresh app, home and page; the table
// shows every run and the median of the runs.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { benchPaths, f1, median, openBenchApp, printProfile, printTrace, proxySource, runsTable, withBench } from "./lib/bench.mjs";
import { startServer } from "./lib/env.mjs";
import { killAllSync } from "./lib/procs.mjs";

const { repoRoot, fakeLLMBinary, logsDir } = benchPaths("bench-stream");

const argv = process.argv.slice(2);
const opt = { runs: 3, tokens: 20_000, delayMs: 0, frontendBuild: true, goBuild: true, json: false, profile: false };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--runs") opt.runs = Number(argv[++i]);
  else if (a === "--tokens") opt.tokens = Number(argv[++i]);
  else if (a === "--delay-ms") opt.delayMs = Number(argv[++i]);
  else if (a === "--no-frontend-build") opt.frontendBuild = false;
  else if (a === "--no-go-build") opt.goBuild = false;
  else if (a === "--json") opt.json = true;
  else if (a === "--profile") opt.profile = true;
  else if (a === "--trace") opt.trace = true;
  else {
    console.error("usage: node frontend/e2e/bench-stream.mjs [--runs N] [--tokens N] [--delay-ms N] [--no-frontend-build] [--no-go-build] [--json] [--profile] [--trace]");
    process.exit(2);
  }
}

// Installed in the page before the prompt is sent.
function installProbe() {
  const now = () => performance.timeOrigin + performance.now();
  const p = { sentAt: 0, firstPaint: 0, lastPaint: 0, lastMutation: 0, lastEvent: 0, events: 0, longtasks: [], frames: [], dirty: false, running: true };
  window.__bench = p;
  // When the bridge hands the page a streamed delta (Wails' dev bridge calls
  // window.wails.EventsNotify with each event's JSON), to split the lag into
  // the Go side and the bridge, and the page's own work.
  const notify = window.wails.EventsNotify;
  window.wails.EventsNotify = (msg) => {
    if (msg.startsWith('{"name":"agent:stream"')) {
      p.lastEvent = now();
      p.events++;
    }
    return notify(msg);
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) p.longtasks.push({ start: performance.timeOrigin + e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: false });
  // Only changes to an assistant message's rendered text count (not the
  // title, the buttons added when the turn ends, or the status bar).
  const isText = (r) => {
    const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    return !!el?.closest('[data-testid=message][data-role=assistant] .markdown');
  };
  new MutationObserver((records) => {
    if (!records.some(isText)) return;
    p.dirty = true;
    p.lastMutation = now();
  }).observe(document.querySelector("[data-testid=transcript]") ?? document.body, { subtree: true, childList: true, characterData: true });
  const frame = () => {
    const t = now();
    p.frames.push(t);
    if (p.dirty) {
      p.dirty = false;
      if (!p.firstPaint) p.firstPaint = t;
      p.lastPaint = t;
    }
    if (p.running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

async function oneRun(i, { browser, display, fakeURL, tmp }) {
  const proxy = await startServer("bench-proxy", process.execPath, ["-e", proxySource, fakeURL], {
    logFile: join(logsDir, `proxy${i}.log`),
  });
  const project = mkdtempSync(join(tmp, "project-"));
  writeFileSync(join(project, "README.md"), "# bench\n");
  const home = mkdtempSync(join(tmp, "home-"));
  const { page, close } = await openBenchApp(browser, { display, home, project, env: { ANTHROPIC_BASE_URL: proxy.url }, logFile: join(logsDir, `app${i}.log`) });
  try {
    await page.click("[data-testid=session-new]");
    await page.locator("[data-testid=session-item] button[aria-current=true]").waitFor();
    await page.fill("[data-testid=chat-input]", "stream please");

    await page.evaluate(installProbe);
    const cdp = opt.profile ? await page.context().newCDPSession(page) : null;
    if (opt.trace) await browser.startTracing(page, { categories: ["devtools.timeline", "blink", "disabled-by-default-devtools.timeline"] });
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    await page.evaluate(() => {
      window.__bench.sentAt = performance.timeOrigin + performance.now();
      document.querySelector("[data-testid=chat-send]").click();
    });
    // Done: the message is no longer streaming, the agent is idle, and the DOM has been quiet for 750 ms.
    await page.waitForFunction(
      () => {
        const p = window.__bench;
        const msg = [...document.querySelectorAll('[data-testid=message][data-role=assistant]')].at(-1);
        const idle = document.querySelector("[data-testid=agent-state]")?.getAttribute("data-state") === "idle";
        const now = performance.timeOrigin + performance.now();
        return !!msg && msg.getAttribute("data-state") !== "streaming" && idle && p.lastPaint > 0 && now - p.lastMutation > 750;
      },
      null,
      { timeout: 300_000, polling: 250 },
    );
    const probe = await page.evaluate(() => {
      const p = window.__bench;
      p.running = false;
      const msg = [...document.querySelectorAll('[data-testid=message][data-role=assistant]')].at(-1);
      const words = (msg?.innerText ?? "").trim().split(/\s+/).length;
      return { ...p, words };
    });
    if (cdp) printProfile(i, (await cdp.send("Profiler.stop")).profile);
    if (opt.trace) printTrace(i, JSON.parse((await browser.stopTracing()).toString()));
    const streams = await (await fetch(`${proxy.url}/_bench/streams`)).json();
    const s = streams.find((x) => x.path.startsWith("/v1/messages"));
    if (!s) throw new Error("no /v1/messages stream went through the proxy");
    if (probe.words < opt.tokens) throw new Error(`only ${probe.words} words on screen, expected at least ${opt.tokens}`);

    const inWindow = probe.longtasks.filter((t) => t.start >= probe.sentAt && t.start <= probe.lastPaint);
    const frames = probe.frames.filter((t) => t >= probe.sentAt && t <= probe.lastPaint);
    let maxGap = 0;
    for (let k = 1; k < frames.length; k++) maxGap = Math.max(maxGap, frames[k] - frames[k - 1]);
    return {
      lagMs: probe.lastPaint - s.lastByte,
      eventLagMs: probe.lastEvent - s.lastByte,
      streamEvents: probe.events,
      streamMs: s.lastByte - s.firstByte,
      firstByteToFirstPaintMs: probe.firstPaint - s.firstByte,
      sendToLastPaintMs: probe.lastPaint - probe.sentAt,
      longestTaskMs: inWindow.length ? Math.max(...inWindow.map((t) => t.duration)) : 0,
      longTasks: inWindow.length,
      longTaskTotalMs: inWindow.reduce((a, t) => a + t.duration, 0),
      maxFrameGapMs: maxGap,
      bytes: s.bytes,
      words: probe.words,
    };
  } finally {
    await close();
    await proxy.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
}

async function main() {
  await withBench({ name: "bench-stream", repoRoot, logsDir, frontendBuild: opt.frontendBuild, goBuild: opt.goBuild }, async ({ browser, display, tmp }) => {
    const script = join(tmp, "stream.json");
    const turn = { text: "Start ", streamTokens: opt.tokens, repeat: true, ...(opt.delayMs > 0 ? { fault: { delayMs: opt.delayMs } } : {}) };
    writeFileSync(script, JSON.stringify({ turns: [turn] }));
    const fake = await startServer("fakellm", fakeLLMBinary, ["-script", script, "-addr", "127.0.0.1:0"], {
      logFile: join(logsDir, "fakellm.log"),
    });
    const loadBefore = loadavg();
    const results = [];
    for (let i = 1; i <= opt.runs; i++) {
      const r = await oneRun(i, { browser, display, fakeURL: fake.url, tmp });
      results.push(r);
      console.error(`bench-stream: run ${i}/${opt.runs}: lag ${f1(r.lagMs)} ms, longest task ${f1(r.longestTaskMs)} ms`);
    }

    const cols = [
      ["lagMs", "last byte → last token on screen (ms)"],
      ["eventLagMs", "— of which: last byte → last streamed delta in the page (ms)"],
      ["streamEvents", "— streamed-delta events the page got", (x) => String(Math.round(x))],
      ["longestTaskMs", "longest main-thread task while streaming (ms)"],
      ["longTasks", "long tasks (≥ 50 ms)", (x) => String(Math.round(x))],
      ["longTaskTotalMs", "time in long tasks (ms)"],
      ["maxFrameGapMs", "longest gap between frames (ms)"],
      ["streamMs", "server stream, first → last byte (ms)"],
      ["firstByteToFirstPaintMs", "first byte → first text on screen (ms)"],
      ["sendToLastPaintMs", "send → last token on screen (ms)"],
    ];
    if (opt.json) {
      console.log(JSON.stringify({ tokens: opt.tokens, load: [loadBefore, loadavg()], runs: results, median: Object.fromEntries(cols.map(([k]) => [k, median(results.map((r) => r[k]))])) }));
    } else {
      const pace = opt.delayMs > 0 ? `, paced at ${opt.delayMs} ms an event (${Math.round(opt.tokens / (median(results.map((r) => r.streamMs)) / 1000)).toLocaleString("en")} tokens/s)` : ", as fast as the fake server writes";
      const title = `Streaming ${opt.tokens.toLocaleString("en")} tokens (${results[0].bytes.toLocaleString("en")} bytes of SSE)${pace}, Chromium ${browser.version()}, ${new Date().toISOString().slice(0, 10)}.`;
      console.log(runsTable(title, cols, results, loadBefore));
    }
  });
}

main().catch((err) => {
  console.error(`bench-stream: ${err?.stack ?? err}`);
  killAllSync();
  process.exit(1);
});
