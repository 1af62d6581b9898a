// The big review in the real window, shared by bench-scale.mjs (its review
// part) and frontend/bench/diffpeers/run.mjs (the same review against
// Monaco's diff editor and diff2html): opening the app with an optional
// trace, and one run of the review.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchPaths, openBenchApp, printProfile, printTrace, proxySource } from "./bench.mjs";
import { startServer } from "./env.mjs";
import { frameWhen, onScreen, scrollThrough } from "./frames.mjs";
import { bigEdit, bigEditScript } from "./scaleData.mjs";

const { fakeLLMBinary } = benchPaths("");
export const SCROLL_STEP = 300;
export const KEYS = 5;

/** The scrolling ancestor of the review (the panel's body). */
function markReviewScroller() {
  let el = document.querySelector("[data-testid=change-review]");
  while (el && !(el.scrollHeight > el.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(el).overflowY))) el = el.parentElement;
  if (!el) throw new Error("the review does not scroll");
  el.setAttribute("data-bench-scroller", "review");
}

/**
 * In the page, before the review: notes the wall-clock time at which the
 * review card first shows (loading its change) and is first deciding, and
 * every long task (50 ms and more) with its start, so that a run can say
 * where the time between the answer's last byte and the paint went.
 */
function installReviewProbe() {
  const now = () => performance.timeOrigin + performance.now();
  const probe = { panel: 0, card: 0, deciding: 0, long: [], events: {} };
  window.__reviewProbe = probe;
  // The last arrival of each of the agent's events (Wails' runtime in the window).
  for (const name of ["agent:stream", "agent:message", "agent:tool", "agent:approval", "agent:state"]) window.runtime?.EventsOn?.(name, () => (probe.events[name] = now()));
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) probe.long.push({ at: performance.timeOrigin + e.startTime, ms: e.duration });
  }).observe({ type: "longtask" });
  new MutationObserver(() => {
    if (!probe.panel && document.querySelector(".review-panel") && !document.querySelector(".review-panel > p.empty")) probe.panel = now();
    if (!probe.card && document.querySelector("[data-testid=change-review], .review-card")) probe.card = now();
    if (!probe.deciding && document.querySelector("[data-testid=change-review][data-phase=deciding]")) probe.deciding = now();
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-phase"] });
}

/**
 * Opens the dev app (openBenchApp, its log under logsDir as NAME+i.log);
 * traced(part, fn) runs fn under a Chromium trace and a JavaScript profile
 * when part is the one asked for (trace), and prints both.
 */
export async function openTracedApp(browser, { display, home, project, env, name, i, logsDir, trace = "" }) {
  const { page, close } = await openBenchApp(browser, { display, home, project, env, logFile: join(logsDir, `${name}${i}.log`) });
  return {
    page,
    /** lastMs(result): print only the last that many ms of the trace and profile (by their end). */
    async traced(part, fn, lastMs = async () => Infinity) {
      if (trace !== part) return fn();
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
      await browser.startTracing(page, { categories: ["devtools.timeline", "blink", "disabled-by-default-devtools.timeline"] });
      let r;
      try {
        r = await fn();
        return r;
      } finally {
        // Both stop at once, then the window is measured up to then.
        let stoppedAt = 0;
        const [profile, trace] = await Promise.all([cdp.send("Profiler.stop").then((p) => ((stoppedAt = Date.now()), p)), browser.stopTracing()]);
        const ms = r === undefined ? Infinity : (await lastMs(r)) - (Date.now() - stoppedAt);
        printTrace(i, JSON.parse(trace.toString()), ms);
        printProfile(i, profile.profile, ms);
      }
    },
    close,
  };
}

/**
 * One run of the review: the model proposes bigEdit()'s new text (write_file,
 * approval asked); from the last byte of that answer (the stamping proxy) to
 * the painted frame that shows the review's first hunk; the review scrolled
 * top to end; a decision key (n) → the frame in which the next hunk is
 * focused, median of 5 keys (unless keys is false).
 */
export async function reviewRun(i, { browser, display, tmp, logsDir, trace, keys: withKeys = true }) {
  const edit = bigEdit();
  const project = mkdtempSync(join(tmp, "project-"));
  writeFileSync(join(project, edit.path), edit.original);
  const home = mkdtempSync(join(tmp, "home-"));
  const script = join(tmp, `review${i}.json`);
  writeFileSync(script, JSON.stringify(bigEditScript(edit)));
  const fake = await startServer("fakellm", fakeLLMBinary, ["-script", script, "-addr", "127.0.0.1:0"], { logFile: join(logsDir, `fakellm${i}.log`) });
  const proxy = await startServer("bench-proxy", process.execPath, ["-e", proxySource, fake.url], { logFile: join(logsDir, `proxy${i}.log`) });
  const app = await openTracedApp(browser, { display, home, project, env: { ANTHROPIC_BASE_URL: proxy.url }, name: "review", i, logsDir, trace });
  const { page } = app;
  try {
    await page.click("[data-testid=session-new]");
    await page.locator("[data-testid=session-item] button[aria-current=true]").waitFor();
    await page.fill("[data-testid=chat-input]", "update the table");
    await page.evaluate(installReviewProbe);
    const proposing = async () => {
      const streams = await (await fetch(`${proxy.url}/_bench/streams`)).json();
      const p = streams.filter((s) => s.path.startsWith("/v1/messages")).at(1);
      if (!p) throw new Error("the proposing answer did not go through the proxy");
      return p;
    };
    // A trace shows the time from the answer's last byte on (and the few ms until it stops).
    const painted = await app.traced(
      "review",
      () => frameWhen(page, `document.querySelector("[data-testid=chat-send]").click()`, onScreen, "[data-testid=change-review][data-phase=deciding] [data-testid=diff-hunk]"),
      async (r) => Date.now() - (await proposing()).lastByte,
    );
    const proposal = await proposing();
    const hunks = await page.locator("[data-testid=diff-hunk]").count();
    const probe = await page.evaluate(() => window.__reviewProbe);
    const since = (t) => (t ? Math.round(t - proposal.lastByte) : "—");
    const long = probe.long.filter((t) => t.at + t.ms > proposal.lastByte && t.at < painted.at);
    console.error(
      `review: run ${i}: after the last byte, panel ${since(probe.panel)} ms, card ${since(probe.card)} ms, deciding ${since(probe.deciding)} ms, painted ${since(painted.at)} ms; ` +
        `last events: ${Object.entries(probe.events).map(([k, t]) => `${k} ${since(t)}`).join(", ")}; ` +
        `long tasks in between: ${long.map((t) => `${Math.round(t.ms)} ms at ${since(t.at)}`).join(", ") || "none"}`,
    );

    await page.evaluate(markReviewScroller);
    const scroll = await scrollThrough(page, "[data-bench-scroller=review]", SCROLL_STEP);
    const result = {
      reviewMs: painted.at - proposal.lastByte,
      hunksInDom: hunks,
      reviewFrames: scroll.frames,
      reviewOver: scroll.over,
      reviewMaxGap: scroll.max,
    };
    if (!withKeys) return result;

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
    return { ...result, keyMs: keys[keys.length >> 1] };
  } finally {
    await app.close();
    await proxy.stop();
    await fake.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
}
