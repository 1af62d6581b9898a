#!/usr/bin/env node
// Pilot's big review against the diff renderers users know, in the same
// run: Monaco's diff editor (what VS Code and Cursor show) and diff2html,
// on the two texts of bench-scale.mjs's review (bigEdit(): a 20,000-line Go
// file, 200 changed lines), in the same Chromium at 1280×800, the three
// renderers taking turns (the order rotates from run to run).
//
//   node frontend/bench/diffpeers/run.mjs [--runs N] [--no-frontend-build] [--no-go-build]
//
// Needs this folder's own packages (npm ci here; make deps-bench): they
// stay out of the app's bundle. Monaco and diff2html run in index.html,
// served from loopback with the texts. Every renderer is stamped the same
// way (lib/frames.mjs): from the moment the texts are handed to it (Pilot:
// the proposing answer's last byte, so Pilot's figure also holds its Go
// side and the bridge) to the frame after the first one that shows a
// changed line on screen (laid out and painted). Then each is scrolled top
// to end, 300 px a frame, counting frames over 34 ms and the longest gap.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { benchOptions, benchPaths, runsTable, withBench } from "../../e2e/lib/bench.mjs";
import { frameWhen, onScreen, scrollThrough } from "../../e2e/lib/frames.mjs";
import { killAllSync } from "../../e2e/lib/procs.mjs";
import { SCROLL_STEP, reviewRun } from "../../e2e/lib/reviewBench.mjs";
import { bigEdit } from "../../e2e/lib/scaleData.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const { repoRoot, logsDir } = benchPaths("bench-diffpeers");

const opt = benchOptions("node frontend/bench/diffpeers/run.mjs [--runs N] [--no-frontend-build] [--no-go-build]");

// What shows a changed line, per renderer.
const CHANGED = {
  monaco: ".monaco-diff-editor .editor.modified .char-insert, .monaco-diff-editor .editor.modified .line-insert",
  diff2html: ".d2h-ins",
};

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".ttf": "font/ttf" };

/** Serves this folder (its page and packages) and texts.json on loopback. */
function servePeers(texts) {
  const srv = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path === "/texts.json") {
      res.setHeader("content-type", TYPES[".json"]);
      return res.end(texts);
    }
    const file = normalize(join(here, path === "/" ? "index.html" : path));
    if (!file.startsWith(here + sep)) {
      res.statusCode = 403;
      return res.end();
    }
    try {
      const body = await readFile(file);
      res.setHeader("content-type", TYPES[extname(file)] ?? "application/octet-stream");
      res.end(body);
    } catch {
      res.statusCode = 404;
      res.end();
    }
  });
  return new Promise((resolve) =>
    srv.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${srv.address().port}`, close: () => new Promise((r) => srv.close(r)) })),
  );
}

async function peerRun(name, { browser, url }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await page.goto(`${url}/?r=${name}`, { waitUntil: "load" });
    await page.evaluate(() => window.peerReady);
    const painted = await frameWhen(page, "window.peerRender()", onScreen, CHANGED[name]);
    const scroll = await scrollThrough(page, "#view", SCROLL_STEP);
    return { ms: painted.at - painted.t0, over: scroll.over, maxGap: scroll.max, frames: scroll.frames };
  } finally {
    await context.close();
  }
}

async function main() {
  if (!existsSync(join(here, "node_modules/monaco-editor")) || !existsSync(join(here, "node_modules/diff2html"))) {
    console.error("diffpeers: the renderers are not installed; run `make deps-bench` (or npm ci in frontend/bench/diffpeers) first.");
    process.exit(1);
  }
  const edit = bigEdit();
  const peers = await servePeers(JSON.stringify({ path: edit.path, original: edit.original, proposed: edit.proposed }));
  try {
    await withBench({ name: "bench-diffpeers", repoRoot, logsDir, frontendBuild: opt.frontendBuild, goBuild: opt.goBuild }, async (env) => {
      const loadBefore = loadavg();
      const order = ["pilot", "monaco", "diff2html"];
      const results = [];
      for (let i = 1; i <= opt.runs; i++) {
        const r = {};
        for (const k of order.keys()) {
          const name = order[(k + i - 1) % order.length];
          if (name === "pilot") {
            const p = await reviewRun(i, { ...env, logsDir, keys: false });
            Object.assign(r, { pilotMs: p.reviewMs, pilotOver: p.reviewOver, pilotMaxGap: p.reviewMaxGap, pilotFrames: p.reviewFrames });
          } else {
            const p = await peerRun(name, { browser: env.browser, url: peers.url });
            Object.assign(r, { [`${name}Ms`]: p.ms, [`${name}Over`]: p.over, [`${name}MaxGap`]: p.maxGap, [`${name}Frames`]: p.frames });
          }
        }
        for (const name of order) r[`${name}OverShare`] = (100 * r[`${name}Over`]) / r[`${name}Frames`];
        r.ratio = r.pilotMs / r.monacoMs;
        results.push(r);
        console.error(`diffpeers: run ${i}/${opt.runs}: ${JSON.stringify(r)}`);
      }
      const n = (x) => String(Math.round(x));
      const x2 = (x) => `${x.toFixed(2)}x`;
      const shown = "texts handed over → first changed line painted (ms)";
      const rows = [
        ["pilotMs", `Pilot's review: answer's last byte → first hunk painted (ms; Go side and bridge included)`],
        ["monacoMs", `Monaco's diff editor, side by side: ${shown}`],
        ["diff2htmlMs", `diff2html, line by line, highlighted: ${shown}`],
        ["ratio", "Pilot / Monaco (target ≤ 0.5x)", x2],
      ];
      for (const [key, label] of [["pilot", "Pilot"], ["monaco", "Monaco"], ["diff2html", "diff2html"]]) {
        rows.push(
          [`${key}Over`, `${label}: scroll top to end (${SCROLL_STEP} px a frame), frames over 34 ms`, n],
          [`${key}OverShare`, "— share of its frames over 34 ms (%)"],
          [`${key}MaxGap`, "— longest gap between frames (ms)"],
          [`${key}Frames`, key === "monaco" ? "— frames (the whole file; the others show the hunks)" : "— frames", n],
        );
      }
      const title = `Pilot's review against the diff renderers users know, in Chromium ${env.browser.version()}, 1280×800, ${new Date().toISOString().slice(0, 10)}; the renderers take turns within each run (order rotated); the ratio is each run's own.`;
      console.log(runsTable(title, rows, results, loadBefore));
    });
  } finally {
    await peers.close();
  }
}

main().catch((err) => {
  console.error(`diffpeers: ${err?.stack ?? err}`);
  killAllSync();
  process.exit(1);
});
