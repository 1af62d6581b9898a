// Shared steps of the feature specs (not a spec itself: run.mjs only loads
// *.spec.mjs). Every helper waits on state in the page or the fake server,
// never on a fixed delay.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const sel = {
  input: "[data-testid=chat-input]",
  send: "[data-testid=chat-send]",
  cancel: "[data-testid=chat-cancel]",
  state: "[data-testid=agent-state]",
  assistant: "[data-testid=message][data-role=assistant]",
  user: "[data-testid=message][data-role=user]",
  message: "[data-testid=message]",
  toolCall: "[data-testid=tool-call]",
  diffView: "[data-testid=diff-view]",
  hunk: "[data-testid=diff-hunk]",
  review: "[data-testid=change-review]",
};

/**
 * The real third-party MCP server @modelcontextprotocol/server-everything,
 * installed from npm once into a cache folder shared by runs; its binary.
 */
export function everythingServer() {
  const cache = join(tmpdir(), "pilot-npm-cache");
  const bin = join(cache, "node_modules", ".bin", "mcp-server-everything");
  if (!existsSync(bin)) {
    execFileSync("npm", ["install", "--prefix", cache, "--no-audit", "--no-fund", "@modelcontextprotocol/server-everything"], { stdio: "inherit" });
  }
  return bin;
}

/**
 * Writes a fake-LLM script into a harness temp folder (removed after the run)
 * and returns its path.
 */
export async function scriptFile(ctx, script) {
  const dir = await ctx.projectDir({ "fakellm.json": JSON.stringify(script, null, 2) });
  return join(dir, "fakellm.json");
}

/**
 * Starts the fake LLM with `script`, a project with `files`, then the app
 * pointed at both (Anthropic wire format). Waits until the project is open
 * (clicking its project-item if the UI did not select it) and, unless
 * newSession is false, starts a new session. Returns { llm, project, sessionId }.
 */
export async function startChat(ctx, script, files = {}, { newSession = true, env = {} } = {}) {
  const llm = await ctx.startFakeLLM(await scriptFile(ctx, script));
  const project = await ctx.projectDir(files);
  await ctx.startApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project, ...env } });
  await openProject(ctx, project);
  const sessionId = newSession ? await startSession(ctx) : null;
  return { llm, project, sessionId };
}

/** Waits until `project` is the open project (the session list shows). */
export async function openProject(ctx, project) {
  const { page } = ctx;
  const item = page.locator(`[data-testid=project-item][data-path="${project}"]`);
  await item.waitFor({ state: "visible", timeout: 30_000 });
  const current = item.locator("button[aria-current=true]");
  if ((await current.count()) === 0) await item.locator("button").click();
  await current.waitFor({ state: "attached" });
  await page.locator("[data-testid=session-new]").waitFor({ state: "visible" });
}

/** Starts a new session and waits until the page has it open; returns its id. */
export async function startSession(ctx) {
  const { page } = ctx;
  const before = await page
    .locator("[data-testid=session-item]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-session-id")));
  await page.click("[data-testid=session-new]");
  const handle = await page.waitForFunction((known) => {
    const active = document.querySelector('[data-testid=session-item] button[aria-current="true"]');
    const id = active?.closest("[data-testid=session-item]")?.getAttribute("data-session-id");
    return id && !known.includes(id) ? id : null;
  }, before);
  await page.locator(sel.input).waitFor({ state: "visible" });
  return Number(await handle.jsonValue());
}

/** Types a prompt and sends it. */
export async function send(ctx, text) {
  await ctx.page.fill(sel.input, text);
  await ctx.page.click(sel.send);
}

/** Waits for agent-state data-state = state. */
export async function waitState(ctx, state, timeout = 30_000) {
  await ctx.page.locator(`${sel.state}[data-state="${state}"]`).waitFor({ state: "attached", timeout });
}

/** Waits until the turn is over: agent idle and the send box usable again. */
export async function waitTurnDone(ctx, timeout = 30_000) {
  await ctx.page.waitForFunction(
    () =>
      document.querySelector('[data-testid=agent-state]')?.getAttribute("data-state") === "idle" &&
      !document.querySelector("[data-testid=chat-cancel]") &&
      !document.querySelector('[data-testid=message][data-state="streaming"]'),
    null,
    { timeout },
  );
}

/** The fake server's request log (model calls only). */
export async function modelRequests(llm) {
  const res = await fetch(`${llm.url}/_fakellm/requests`);
  if (!res.ok) throw new Error(`GET /_fakellm/requests: ${res.status}`);
  const all = await res.json();
  return (all ?? []).filter((r) => r.format === "anthropic" || r.format === "openai");
}

/** Waits until the fake server has received n model calls; returns them. */
export async function waitRequests(ctx, llm, n, timeout = 30_000) {
  return ctx.waitFor(
    async () => {
      const reqs = await modelRequests(llm);
      return reqs.length >= n ? reqs : false;
    },
    { timeout, interval: 100, message: `${n} model request(s) at the fake LLM` },
  );
}

/**
 * Runs `check` (which asserts on what the page shows now) until it passes,
 * and throws its last assertion error after `timeout`: an assertion on
 * content that may still be filling in, made a wait on a condition.
 * Only for what must come to hold; an absence is asserted once what
 * proves the page is complete has been waited for.
 */
export async function eventually(check, { timeout = 15_000, interval = 100 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}

/**
 * The text in the DOM of each element `locator` matches. Diff code cells
 * are read this way: a read-only hunk has `content-visibility: auto`, and
 * until Chromium has rendered it (a frame after it is attached, or never
 * while it is off the screen) the innerText of its cells is "".
 */
export async function domTexts(locator) {
  return locator.allTextContents();
}

/** Text of every assistant message, in order. */
export async function assistantTexts(page) {
  return page.locator(sel.assistant).evaluateAll((els) => els.map((e) => e.innerText));
}

/**
 * Console and page errors of the app itself. Left out: Wails' own /wails/
 * scripts (ipc.js throws in Chromium at load) and Chromium's request for
 * /favicon.ico, which the dev server answers 404 (index.html names no icon;
 * the WebKit window never asks for one); the latter only when that is true.
 */
export async function appConsoleErrors(ctx) {
  const faviconMissing = (await fetch(`${ctx.baseURL}/favicon.ico`).catch(() => null))?.status === 404;
  let favicon = faviconMissing ? 1 : 0; // one such message per page load at most
  return ctx.consoleErrors.filter((e) => {
    if (/\/wails\/|reading 'nodes'/.test(e)) return false;
    if (favicon > 0 && e === "Failed to load resource: the server responded with a status of 404 (Not Found)") {
      favicon--;
      return false;
    }
    return true;
  });
}

/** Makes the window wide enough for the side-by-side diff layout. */
export async function wideWindow(page) {
  await page.setViewportSize({ width: 1900, height: 1000 });
}

/** Waits for the change review of one file and returns its diff-view locator. */
export async function waitDiff(ctx, path) {
  const view = ctx.page.locator(`${sel.diffView}[data-path="${path}"]`);
  await view.waitFor({ state: "visible", timeout: 30_000 });
  await ctx.page.locator(`${sel.review}[data-phase=deciding]`).waitFor({ state: "visible" });
  return view;
}
