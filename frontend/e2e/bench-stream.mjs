#!/usr/bin/env node
// Streaming benchmark: the fake LLM streams 20,000 tokens as fast as it can
// into the real app (dev build, Wails dev server, Chromium under Xvfb), and
// we measure
//
//   (a) render lag: the time from the last byte of the model's stream to
//       the last token on screen, and
//   (b) the longest main-thread task while the answer streams.
//
//   node frontend/e2e/bench-stream.mjs [--runs N] [--tokens N] [--no-frontend-build] [--no-go-build] [--json]
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
import { chromium } from "playwright-core";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, run, startDevApp, startServer, startXvfb, waitFor } from "./lib/env.mjs";
import { killAllSync, liveGroups, stopGroup } from "./lib/procs.mjs";

const e2eDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(e2eDir, "../..");
const devBinary = join(repoRoot, "build/bin/pilot-dev");
const fakeLLMBinary = join(repoRoot, "build/bin/fakellm");
const logsDir = join(repoRoot, "build/e2e-artifacts/bench-stream");

const argv = process.argv.slice(2);
const opt = { runs: 3, tokens: 20_000, frontendBuild: true, goBuild: true, json: false, profile: false };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--runs") opt.runs = Number(argv[++i]);
  else if (a === "--tokens") opt.tokens = Number(argv[++i]);
  else if (a === "--no-frontend-build") opt.frontendBuild = false;
  else if (a === "--no-go-build") opt.goBuild = false;
  else if (a === "--json") opt.json = true;
  else if (a === "--profile") opt.profile = true;
  else if (a === "--trace") opt.trace = true;
  else {
    console.error("usage: node frontend/e2e/bench-stream.mjs [--runs N] [--tokens N] [--no-frontend-build] [--no-go-build] [--json] [--profile] [--trace]");
    process.exit(2);
  }
}

// A pass-through proxy that stamps the first and last byte of each streamed answer.
const proxySource = `
const http = require("node:http");
const { performance } = require("node:perf_hooks");
const upstream = new URL(process.argv[1]);
const now = () => performance.timeOrigin + performance.now();
const streams = [];
const srv = http.createServer((req, res) => {
  if (req.url === "/_bench/streams") {
    res.setHeader("content-type", "application/json");
    return res.end(JSON.stringify(streams));
  }
  const rec = { method: req.method, path: req.url, start: now(), firstByte: 0, lastByte: 0, bytes: 0, chunks: 0 };
  const up = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } }, (ur) => {
    res.writeHead(ur.statusCode, ur.headers);
    res.flushHeaders();
    ur.on("data", (chunk) => {
      res.write(chunk);
      const t = now();
      if (!rec.firstByte) rec.firstByte = t;
      rec.lastByte = t;
      rec.bytes += chunk.length;
      rec.chunks++;
    });
    ur.on("end", () => { res.end(); rec.end = now(); if (req.method === "POST") streams.push(rec); });
  });
  up.on("error", (e) => { res.statusCode = 502; res.end(String(e)); });
  req.pipe(up);
});
srv.listen(0, "127.0.0.1", () => console.log("listening on http://127.0.0.1:" + srv.address().port));
`;

// Installed in the page before the prompt is sent.
function installProbe() {
  const now = () => performance.timeOrigin + performance.now();
  const p = { sentAt: 0, firstPaint: 0, lastPaint: 0, lastMutation: 0, longtasks: [], frames: [], dirty: false, running: true };
  window.__bench = p;
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

const median = (xs) => {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmtLoad = (l) => l.map((x) => x.toFixed(2)).join(" ");
const f1 = (x) => (x === null || Number.isNaN(x) ? "—" : x.toFixed(1));

/** Prints the functions with the most self time in a CDP CPU profile. */
function printProfile(run, profile) {
  const self = new Map();
  const dt = new Map(profile.nodes.map((n) => [n.id, 0]));
  for (let k = 0; k < profile.samples.length; k++) dt.set(profile.samples[k], dt.get(profile.samples[k]) + (profile.timeDeltas[k] ?? 0));
  let total = 0;
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber + 1}`;
    const us = dt.get(n.id);
    total += us;
    self.set(key, (self.get(key) ?? 0) + us);
  }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
  console.error(`bench-stream: run ${run} profile, ${(total / 1000).toFixed(0)} ms sampled, top self time:`);
  for (const [k, us] of top) console.error(`  ${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
}

/** Prints the main thread's trace events with the most self time (a rough split of "(program)"). */
function printTrace(run, trace) {
  const evs = trace.traceEvents ?? trace;
  const main = evs.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  const mine = evs.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === "X" && e.dur).sort((a, b) => a.ts - b.ts);
  // Self time: an event's duration minus that of its direct children.
  const self = new Map();
  const stack = [];
  for (const e of mine) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur);
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur);
    stack.push(e);
  }
  console.error(`bench-stream: run ${run} trace, main thread self time:`);
  for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.error(`  ${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
}

async function oneRun(i, { browser, display, fakeURL, tmp }) {
  const proxy = await startServer("bench-proxy", process.execPath, ["-e", proxySource, fakeURL], {
    logFile: join(logsDir, `proxy${i}.log`),
  });
  const project = mkdtempSync(join(tmp, "project-"));
  writeFileSync(join(project, "README.md"), "# bench\n");
  const home = mkdtempSync(join(tmp, "home-"));
  const app = await startDevApp({
    binary: devBinary,
    repoRoot,
    display,
    port: await freePort(),
    home,
    env: { ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_API_KEY: "bench-key", PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project },
    logFile: join(logsDir, `app${i}.log`),
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  try {
    await page.goto(app.baseURL, { waitUntil: "load" });
    const item = page.locator(`[data-testid=project-item][data-path="${project}"]`);
    await item.waitFor({ state: "visible" });
    if ((await item.locator("button[aria-current=true]").count()) === 0) await item.locator("button").click();
    await page.click("[data-testid=session-new]");
    await page.locator("[data-testid=session-item] button[aria-current=true]").waitFor();
    await page.fill("[data-testid=chat-input]", "stream please");

    await page.evaluate(installProbe);
    const cdp = opt.profile ? await context.newCDPSession(page) : null;
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
    await context.close().catch(() => {});
    await app.stop();
    await proxy.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
}

async function main() {
  rmSync(logsDir, { recursive: true, force: true });
  mkdirSync(logsDir, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), "pilot-bench-stream-"));
  let browser = null;
  const cleanup = async () => {
    await browser?.close().catch(() => {});
    for (const { pgid } of liveGroups()) await stopGroup({ pid: pgid }, 1500);
    killAllSync();
    rmSync(tmp, { recursive: true, force: true });
  };
  process.on("exit", killAllSync);
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(sig, () => cleanup().then(() => process.exit(130)));

  try {
    if (opt.frontendBuild) await run("npx", ["vite", "build", "--logLevel", "warn"], { cwd: join(repoRoot, "frontend") });
    if (opt.goBuild) {
      await run("go", ["build", "-tags", "dev,webkit2_41,sqlite_fts5", "-o", devBinary, "."], { cwd: repoRoot });
    }
    await run("go", ["build", "-o", fakeLLMBinary, "./backend/llm/fakellm/cmd/fakellm"], { cwd: repoRoot });

    const script = join(tmp, "stream.json");
    writeFileSync(script, JSON.stringify({ turns: [{ text: "Start ", streamTokens: opt.tokens, repeat: true }] }));
    const fake = await startServer("fakellm", fakeLLMBinary, ["-script", script, "-addr", "127.0.0.1:0"], {
      logFile: join(logsDir, "fakellm.log"),
    });
    const xvfb = await startXvfb({ logFile: join(logsDir, "xvfb.log") });
    browser = await chromium.launch({
      executablePath: process.env.PILOT_E2E_CHROMIUM || "/usr/bin/chromium",
      headless: true,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    });

    const loadBefore = loadavg();
    const results = [];
    for (let i = 1; i <= opt.runs; i++) {
      const r = await oneRun(i, { browser, display: xvfb.display, fakeURL: fake.url, tmp });
      results.push(r);
      console.error(`bench-stream: run ${i}/${opt.runs}: lag ${f1(r.lagMs)} ms, longest task ${f1(r.longestTaskMs)} ms`);
    }

    const cols = [
      ["lagMs", "last byte → last token on screen (ms)"],
      ["longestTaskMs", "longest main-thread task while streaming (ms)"],
      ["longTasks", "long tasks (≥ 50 ms)"],
      ["longTaskTotalMs", "time in long tasks (ms)"],
      ["maxFrameGapMs", "longest gap between frames (ms)"],
      ["streamMs", "server stream, first → last byte (ms)"],
      ["firstByteToFirstPaintMs", "first byte → first text on screen (ms)"],
      ["sendToLastPaintMs", "send → last token on screen (ms)"],
    ];
    if (opt.json) {
      console.log(JSON.stringify({ tokens: opt.tokens, load: [loadBefore, loadavg()], runs: results, median: Object.fromEntries(cols.map(([k]) => [k, median(results.map((r) => r[k]))])) }));
    } else {
      const head = ["", ...results.map((_, i) => `run ${i + 1}`), `**median of ${results.length}**`];
      const lines = [
        `Streaming ${opt.tokens.toLocaleString("en")} tokens (${results[0].bytes.toLocaleString("en")} bytes of SSE), Chromium ${browser.version()}, ${new Date().toISOString().slice(0, 10)}.`,
        `Load average before/after: ${fmtLoad(loadBefore)} / ${fmtLoad(loadavg())} (2 cores: above 2, other work shares the CPUs).`,
        "",
        `| ${head.join(" | ")} |`,
        `|${head.map((_, i) => (i ? "---:" : "---")).join("|")}|`,
        ...cols.map(([k, label]) => {
          const fmt = k === "longTasks" ? (x) => String(Math.round(x)) : f1;
          return `| ${label} | ${results.map((r) => fmt(r[k])).join(" | ")} | **${fmt(median(results.map((r) => r[k])))}** |`;
        }),
      ];
      console.log(lines.join("\n"));
    }
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error(`bench-stream: ${err?.stack ?? err}`);
  killAllSync();
  process.exit(1);
});
