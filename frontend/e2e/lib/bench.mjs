// Shared parts of the window's benchmarks (bench-stream.mjs,
// bench-scale.mjs): building, the browser under Xvfb, the stamping proxy,
// and the table of runs with their median and the load average.
import { chromium } from "playwright-core";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, run, startDevApp, startXvfb } from "./env.mjs";
import { killAllSync, liveGroups, stopGroup } from "./procs.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** Where a benchmark finds the repository, the binaries it runs, and where it writes its logs. */
export const benchPaths = (name) => ({
  repoRoot,
  devBinary: join(repoRoot, "build/bin/pilot-dev"),
  fakeLLMBinary: join(repoRoot, "build/bin/fakellm"),
  logsDir: join(repoRoot, "build/e2e-artifacts", name),
});

export const median = (xs) => {
  const s = xs.filter((x) => x !== null && !Number.isNaN(x)).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const f1 = (x) => (x === null || Number.isNaN(x) ? "—" : x.toFixed(1));
export const fmtLoad = (l) => l.map((x) => x.toFixed(2)).join(" ");

/**
 * The options every window benchmark takes (--runs N, --no-frontend-build,
 * --no-go-build) from the command line; anything else prints usage and
 * exits.
 */
export function benchOptions(usage, runs = 3) {
  const argv = process.argv.slice(2);
  const opt = { runs, frontendBuild: true, goBuild: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--runs") opt.runs = Number(argv[++i]);
    else if (a === "--no-frontend-build") opt.frontendBuild = false;
    else if (a === "--no-go-build") opt.goBuild = false;
    else {
      console.error(`usage: ${usage}`);
      process.exit(2);
    }
  }
  return opt;
}

/**
 * A pass-through HTTP proxy (node -e SOURCE UPSTREAM) that stamps, with the
 * wall clock, the first and last chunk it writes back for each request;
 * GET /_bench/streams lists them.
 */
export const proxySource = `
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

/**
 * Builds what the benchmark runs (frontend, dev binary, fakellm), starts
 * Xvfb and Chromium, runs body({ browser, display, tmp }), and stops
 * everything it started, also on a signal.
 */
export async function withBench({ name, repoRoot, logsDir, frontendBuild, goBuild }, body) {
  rmSync(logsDir, { recursive: true, force: true });
  mkdirSync(logsDir, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), `pilot-${name}-`));
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
    if (frontendBuild) await run("npx", ["vite", "build", "--logLevel", "warn"], { cwd: join(repoRoot, "frontend") });
    if (goBuild) await run("go", ["build", "-tags", "dev,webkit2_41,sqlite_fts5", "-o", join(repoRoot, "build/bin/pilot-dev"), "."], { cwd: repoRoot });
    await run("go", ["build", "-o", join(repoRoot, "build/bin/fakellm"), "./backend/internal/fakellm/cmd/fakellm"], { cwd: repoRoot });
    const xvfb = await startXvfb({ logFile: join(logsDir, "xvfb.log") });
    browser = await chromium.launch({
      executablePath: process.env.PILOT_E2E_CHROMIUM || "/usr/bin/chromium",
      headless: true,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    });
    return await body({ browser, display: xvfb.display, tmp });
  } finally {
    await cleanup();
  }
}

/**
 * A Markdown table of runs: one row per [key, label, format?], a column per
 * run and the median, under the title and the load average before/after.
 */
export function runsTable(title, rows, results, loadBefore) {
  const head = ["", ...results.map((_, i) => `run ${i + 1}`), `**median of ${results.length}**`];
  return [
    title,
    `Load average before/after: ${fmtLoad(loadBefore)} / ${fmtLoad(loadavg())} (2 cores: above 2, other work shares the CPUs).`,
    "",
    `| ${head.join(" | ")} |`,
    `|${head.map((_, i) => (i ? "---:" : "---")).join("|")}|`,
    ...rows.map(([k, label, fmt = f1]) => `| ${label} | ${results.map((r) => fmt(r[k])).join(" | ")} | **${fmt(median(results.map((r) => r[k])))}** |`),
  ].join("\n");
}

/** Prints the functions with the most self time in a CDP CPU profile (lastMs: in its last lastMs only). */
export function printProfile(run, profile, lastMs = Infinity) {
  const self = new Map();
  const dt = new Map(profile.nodes.map((n) => [n.id, 0]));
  const from = profile.endTime - lastMs * 1000;
  for (let k = 0, t = profile.startTime; k < profile.samples.length; k++) {
    t += profile.timeDeltas[k] ?? 0;
    if (t >= from) dt.set(profile.samples[k], dt.get(profile.samples[k]) + (profile.timeDeltas[k] ?? 0));
  }
  let total = 0;
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber + 1}`;
    const us = dt.get(n.id);
    total += us;
    self.set(key, (self.get(key) ?? 0) + us);
  }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
  console.error(`bench: run ${run} profile, ${(total / 1000).toFixed(0)} ms sampled${lastMs < Infinity ? ` in its last ${Math.round(lastMs)} ms` : ""}, top self time:`);
  for (const [k, us] of top) console.error(`  ${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
}

/** Prints the main thread's trace events with the most self time (a rough split of "(program)"; lastMs: in its last lastMs only). */
export function printTrace(run, trace, lastMs = Infinity) {
  const evs = trace.traceEvents ?? trace;
  const main = evs.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  const end = Math.max(...evs.filter((e) => e.ts).map((e) => e.ts + (e.dur ?? 0)));
  const mine = evs.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === "X" && e.dur && e.ts >= end - lastMs * 1000).sort((a, b) => a.ts - b.ts);
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
  console.error(`bench: run ${run} trace, main thread self time:`);
  for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.error(`  ${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
}

/**
 * Starts the dev app on home and project (a dummy Anthropic key, so that
 * the window shows sessions), opens it in a new 1280×800 page, and waits
 * until project is the open project. close() stops both.
 */
export async function openBenchApp(browser, { display, home, project, env = {}, logFile }) {
  const { repoRoot, devBinary } = benchPaths("");
  const app = await startDevApp({
    binary: devBinary,
    repoRoot,
    display,
    port: await freePort(),
    home,
    env: { PILOT_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "bench-key", PILOT_PROJECT: project, ...env },
    logFile,
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const close = async () => {
    await context.close().catch(() => {});
    await app.stop();
  };
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await page.goto(app.baseURL, { waitUntil: "load" });
    const item = page.locator(`[data-testid=project-item][data-path="${project}"]`);
    await item.waitFor({ state: "visible" });
    if ((await item.locator("button[aria-current=true]").count()) === 0) await item.locator("button").click();
    await page.locator("[data-testid=session-new]").waitFor();
    return { page, close };
  } catch (err) {
    await close();
    throw err;
  }
}
