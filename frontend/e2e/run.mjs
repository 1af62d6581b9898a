#!/usr/bin/env node
// End-to-end runner: the real Go backend (dev build) under Xvfb, driven from
// headless Chromium through the Wails dev server.
//
//   node frontend/e2e/run.mjs [--no-frontend-build] [--no-go-build] [--grep TEXT] [SPEC...]
//
// It builds the frontend and build/bin/pilot-dev, starts Xvfb, launches
// /usr/bin/chromium through playwright-core, runs every
// frontend/e2e/specs/*.spec.mjs, prints "N passed, N failed", and always
// stops every process it started. The spec API is in frontend/e2e/README.md.
import { chromium } from "playwright-core";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { killAllSync, liveGroups, stopGroup } from "./lib/procs.mjs";
import { freePort, readText, run, startDevApp, startServer, startXvfb, waitFor } from "./lib/env.mjs";

const e2eDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(e2eDir, "../..");
const frontendDir = join(repoRoot, "frontend");
const artifactsDir = join(repoRoot, "build/e2e-artifacts/e2e");
const devBinary = join(repoRoot, "build/bin/pilot-dev");
const fakeLLMBinary = join(repoRoot, "build/bin/fakellm");
const chromiumPath = process.env.PILOT_E2E_CHROMIUM || "/usr/bin/chromium";
const defaultTestTimeout = Number(process.env.PILOT_E2E_TEST_TIMEOUT_MS || 120_000);
const goTags = "dev,webkit2_41,sqlite_fts5";

// --- command line -----------------------------------------------------------
const argv = process.argv.slice(2);
const opts = { frontendBuild: true, goBuild: true, grep: "", files: [] };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--no-frontend-build") opts.frontendBuild = false;
  else if (a === "--no-go-build") opts.goBuild = false;
  else if (a === "--grep") opts.grep = argv[++i] ?? "";
  else if (a === "-h" || a === "--help") {
    console.log("usage: node frontend/e2e/run.mjs [--no-frontend-build] [--no-go-build] [--grep TEXT] [SPEC...]");
    process.exit(0);
  } else opts.files.push(resolve(a));
}

// --- always clean up --------------------------------------------------------
let browser = null;
let xvfb = null;
let tmpRoot = null;
let shuttingDown = false;

async function cleanup() {
  try {
    await browser?.close();
  } catch {
    /* already gone */
  }
  browser = null;
  for (const { pgid } of liveGroups()) await stopGroup({ pid: pgid }, 1500);
  killAllSync();
  if (tmpRoot && !process.env.PILOT_E2E_KEEP_TMP) rmSync(tmpRoot, { recursive: true, force: true });
}

async function shutdown(code, why) {
  if (shuttingDown) {
    killAllSync();
    process.exit(code);
  }
  shuttingDown = true;
  if (why) console.error(`\ne2e: ${why}; stopping every process it started`);
  await cleanup();
  process.exit(code);
}

process.on("exit", killAllSync);
process.on("SIGINT", () => shutdown(130, "interrupted"));
process.on("SIGTERM", () => shutdown(143, "terminated"));
process.on("SIGHUP", () => shutdown(129, "hang-up"));
process.on("uncaughtException", (err) => {
  console.error(err);
  shutdown(1, "uncaught exception");
});
process.on("unhandledRejection", (err) => {
  console.error(err);
  shutdown(1, "unhandled rejection");
});

// --- helpers ----------------------------------------------------------------
const slug = (s) => s.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80);
const ms = (t0) => `${Date.now() - t0} ms`;

async function parseVersion() {
  const { stdout } = await run(devBinary, ["version"], { env: { ...process.env, DISPLAY: "" } });
  const first = stdout.split("\n")[0] ?? "";
  const field = (k) => stdout.match(new RegExp(`^${k}: (\\S+)`, "m"))?.[1] ?? "";
  return { version: first.replace(/^pilot /, "").trim(), commit: field("commit"), wails: field("wails"), raw: stdout };
}

let fakeLLMBuilt = null;
function buildFakeLLM() {
  fakeLLMBuilt ??= run("go", ["build", "-o", fakeLLMBinary, "./backend/internal/fakellm/cmd/fakellm"], { cwd: repoRoot });
  return fakeLLMBuilt;
}

function writeFiles(dir, files) {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
}

// --- one test -----------------------------------------------------------------
async function runTest(specName, test, shared) {
  const id = slug(`${specName}--${test.name}`);
  const state = { app: null, servers: [], starts: 0, home: mkdtempSync(join(tmpRoot, "home-")) };
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const consoleErrors = [];
  page.on("console", (msg) => msg.type() === "error" && consoleErrors.push(msg.text()));
  page.on("pageerror", (err) => consoleErrors.push(String(err)));

  const ctx = {
    page,
    context,
    browser,
    version: shared.version,
    display: xvfb.display,
    repoRoot,
    artifactsDir,
    consoleErrors,
    waitFor,
    get baseURL() {
      return state.app?.baseURL;
    },
    get pilotHome() {
      return state.home;
    },
    get app() {
      return state.app;
    },
    /** Text of $PILOT_HOME/logs/pilot.log. */
    pilotLog: () => readText(join(state.home, "logs/pilot.log")),
    /** stdout+stderr of the running app. */
    appOutput: () => state.app?.proc.output() ?? "",
    log: (...a) => console.log("    ", ...a),

    /**
     * (Re)starts the app. env is added to the app's environment (which never
     * inherits PILOT_*, ANTHROPIC_*, OPENAI_* from the runner); freshHome
     * gives it a new empty PILOT_HOME; navigate (default true) loads the page.
     */
    async startApp({ env = {}, args = [], freshHome = false, navigate = true } = {}) {
      if (state.app) {
        await state.app.stop();
        state.app = null;
      }
      if (freshHome) state.home = mkdtempSync(join(tmpRoot, "home-"));
      state.starts++;
      state.app = await startDevApp({
        binary: devBinary,
        repoRoot,
        display: xvfb.display,
        port: await freePort(),
        home: state.home,
        env,
        args,
        logFile: join(artifactsDir, "logs", `${id}.app${state.starts}.log`),
      });
      if (navigate) await page.goto(state.app.baseURL, { waitUntil: "load" });
      return state.app;
    },
    async restartApp(o) {
      return ctx.startApp(o);
    },
    /**
     * Stops the app: SIGTERM to its process group, SIGKILL after graceMs
     * (default 4000). Resolves with how it ended ({ code, signal, killed }).
     */
    async stopApp({ graceMs } = {}) {
      const how = await state.app?.stop(graceMs);
      state.app = null;
      return how ?? null;
    },

    /** A temp project folder with the given files ({ "src/a.go": "..." }); git: true runs git init + commit. */
    async projectDir(files = {}, { git = false } = {}) {
      const dir = mkdtempSync(join(tmpRoot, "project-"));
      writeFiles(dir, files);
      if (git) {
        const g = (...a) => run("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", ...a], { cwd: dir });
        await g("init", "-q");
        await g("add", "-A");
        await g("commit", "-q", "--allow-empty", "-m", "initial");
      }
      return dir;
    },

    /**
     * Starts any server whose first stdout line contains its URL. Stopped
     * when the test ends. Returns { url, pid, output(), stop() }.
     */
    async startServer(cmd, args = [], { name = basename(cmd), cwd = repoRoot, env = process.env, timeout } = {}) {
      const srv = await startServer(name, cmd, args, {
        cwd,
        env,
        timeout,
        logFile: join(artifactsDir, "logs", `${id}.${slug(name)}${state.servers.length + 1}.log`),
      });
      state.servers.push(srv);
      return srv;
    },

    /**
     * Starts backend/internal/fakellm with a script (path relative to the repo
     * root, or absolute). Returns the server plus .env for startApp:
     * ANTHROPIC_BASE_URL=url, OPENAI_BASE_URL=url/v1, and dummy API keys.
     */
    async startFakeLLM(script, { args = [] } = {}) {
      await buildFakeLLM();
      const scriptPath = isAbsolute(script) ? script : join(repoRoot, script);
      const srv = await ctx.startServer(fakeLLMBinary, ["-script", scriptPath, "-addr", "127.0.0.1:0", ...args], {
        name: "fakellm",
      });
      srv.env = {
        ANTHROPIC_BASE_URL: srv.url,
        OPENAI_BASE_URL: `${srv.url}/v1`,
        ANTHROPIC_API_KEY: "e2e-fake-key",
        OPENAI_API_KEY: "e2e-fake-key",
      };
      return srv;
    },
  };

  const t0 = Date.now();
  let error = null;
  let timer;
  try {
    if (!test.manualStart) await ctx.startApp();
    const timeout = test.timeout ?? defaultTestTimeout;
    await Promise.race([
      test.fn(ctx),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`test timed out after ${timeout} ms`)), timeout);
      }),
    ]);
  } catch (err) {
    error = err;
  } finally {
    clearTimeout(timer);
  }

  if (error) {
    try {
      await page.screenshot({ path: join(artifactsDir, `${id}.png`), fullPage: true, timeout: 5000 });
    } catch {
      /* page may be gone */
    }
    if (existsSync(join(state.home, "logs"))) {
      cpSync(join(state.home, "logs"), join(artifactsDir, `${id}.pilot-home-logs`), { recursive: true });
    }
    if (consoleErrors.length) writeFileSync(join(artifactsDir, `${id}.console.txt`), consoleErrors.join("\n") + "\n");
  }
  await context.close().catch(() => {});
  for (const s of state.servers) await s.stop();
  if (state.app) await state.app.stop();
  return { error, time: ms(t0) };
}

// --- main ---------------------------------------------------------------------
async function main() {
  rmSync(artifactsDir, { recursive: true, force: true });
  mkdirSync(join(artifactsDir, "logs"), { recursive: true });
  tmpRoot = mkdtempSync(join(tmpdir(), "pilot-e2e-"));

  let t0 = Date.now();
  if (opts.frontendBuild) {
    await run("npx", ["vite", "build", "--logLevel", "warn"], { cwd: frontendDir });
    console.log(`e2e: frontend built (${ms(t0)})`);
  }
  if (!existsSync(join(frontendDir, "dist/index.html"))) {
    throw new Error("frontend/dist is missing: build the frontend first (make frontend)");
  }
  if (opts.goBuild) {
    t0 = Date.now();
    mkdirSync(dirname(devBinary), { recursive: true });
    await run("go", ["build", "-tags", goTags, "-o", devBinary, "."], { cwd: repoRoot });
    console.log(`e2e: dev binary built (${ms(t0)})`);
  }
  const version = await parseVersion();

  const specFiles = opts.files.length
    ? opts.files
    : readdirSync(join(e2eDir, "specs"))
        .filter((f) => f.endsWith(".spec.mjs"))
        .sort()
        .map((f) => join(e2eDir, "specs", f));

  xvfb = await startXvfb({ logFile: join(artifactsDir, "logs", "xvfb.log") });
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
  console.log(`e2e: Xvfb on ${xvfb.display}, Chromium ${browser.version()}, pilot ${version.version}`);

  let passed = 0;
  let failed = 0;
  for (const file of specFiles) {
    const specName = basename(file).replace(/\.spec\.mjs$/, "");
    const mod = await import(pathToFileURL(file).href);
    const tests = mod.tests ?? mod.default ?? [];
    if (!Array.isArray(tests) || tests.length === 0) {
      console.log(`FAIL ${specName}: exports no tests (export const tests = [{ name, fn }])`);
      failed++;
      continue;
    }
    for (const test of tests) {
      const title = `${specName} › ${test.name}`;
      if (opts.grep && !title.includes(opts.grep)) continue;
      const { error, time } = await runTest(specName, test, { version });
      if (error) {
        failed++;
        console.log(`FAIL ${title} (${time})`);
        console.log(String(error?.stack ?? error).replace(/^/gm, "     "));
      } else {
        passed++;
        console.log(`ok   ${title} (${time})`);
      }
    }
  }

  await cleanup();
  if (failed) console.log(`e2e: artifacts (screenshots, logs) in ${artifactsDir}`);
  if (passed + failed === 0) console.log("e2e: no test ran");
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

main().catch(async (err) => {
  console.error(`e2e: ${err?.stack ?? err}`);
  await cleanup();
  console.log("0 passed, 1 failed");
  process.exit(1);
});
