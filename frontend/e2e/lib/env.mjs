// Xvfb, free ports, the dev binary and the servers a spec starts.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { promisify } from "node:util";
import { spawnGroup, stopGroup } from "./procs.mjs";

const execFileP = promisify(execFile);

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls fn until it returns a truthy value; throws after timeout, or at once on an error with .fatal set. */
export async function waitFor(fn, { timeout = 10_000, interval = 100, message = "condition" } = {}) {
  const deadline = Date.now() + timeout;
  let lastErr;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      if (err?.fatal) throw err;
      lastErr = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeout} ms waiting for ${message}${lastErr ? `: ${lastErr.message}` : ""}`);
    }
    await sleep(interval);
  }
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Runs a command to completion, failing with its output. */
export async function run(cmd, args, opts = {}) {
  try {
    return await execFileP(cmd, args, { maxBuffer: 64 * 1024 * 1024, ...opts });
  } catch (err) {
    const out = `${err.stdout ?? ""}${err.stderr ?? ""}`.trim();
    throw new Error(`${cmd} ${args.join(" ")} failed (exit ${err.code}):\n${out}`);
  }
}

/**
 * Starts Xvfb on a display number it picks itself (-displayfd), after making
 * sure /tmp/.X11-unix exists. Returns { display: ":N", proc }.
 */
export async function startXvfb({ logFile } = {}) {
  if (!existsSync("/tmp/.X11-unix")) {
    mkdirSync("/tmp/.X11-unix", { mode: 0o1777, recursive: true });
  }
  const proc = spawnGroup(
    "Xvfb",
    "Xvfb",
    ["-displayfd", "3", "-screen", "0", "1400x900x24", "-nolisten", "tcp", "-noreset"],
    { stdio: ["ignore", "pipe", "pipe", "pipe"], logFile },
  );
  let got = "";
  const display = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Xvfb did not report a display in 15 s:\n${proc.output()}`)), 15_000);
    proc.stdio[3].on("data", (chunk) => {
      got += chunk.toString();
      const m = got.match(/^(\d+)\s/);
      if (m) {
        clearTimeout(timer);
        resolve(`:${m[1]}`);
      }
    });
    proc.exited.then((info) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${JSON.stringify(info)}) before reporting a display:\n${proc.output()}`));
    });
  });
  return { display, proc, stop: () => stopGroup(proc) };
}

/**
 * Starts any server command whose first stdout line holds its URL
 * ("listening on http://127.0.0.1:PORT"). Returns { url, proc, output, stop }.
 */
export async function startServer(name, cmd, args, { cwd, env, logFile, timeout = 120_000 } = {}) {
  const proc = spawnGroup(name, cmd, args, { cwd, env, logFile });
  let first = "";
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name}: no URL on its first stdout line within ${timeout} ms:\n${proc.output()}`)),
      timeout,
    );
    const onData = (chunk) => {
      first += chunk.toString();
      const nl = first.indexOf("\n");
      if (nl < 0) return;
      proc.stdout.off("data", onData);
      clearTimeout(timer);
      const line = first.slice(0, nl);
      const m = line.match(/https?:\/\/[^\s"']+/);
      if (m) resolve(m[0].replace(/\/$/, ""));
      else reject(new Error(`${name}: first stdout line has no URL: ${JSON.stringify(line)}`));
    };
    proc.stdout.on("data", onData);
    proc.exited.then((info) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${JSON.stringify(info)}) before printing its URL:\n${proc.output()}`));
    });
  });
  return { url, proc, pid: proc.pid, output: () => proc.output(), stop: () => stopGroup(proc) };
}

/** Environment of the app under test: the runner's, less anything that could reach a real provider. */
export function baseAppEnv() {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^(PILOT_|ANTHROPIC_|OPENAI_|TS_AGENT_)/.test(k) || k === "ENV_PATH") delete env[k];
  }
  env.NO_AT_BRIDGE = "1"; // no accessibility bus under Xvfb
  // No session bus: no desktop notifications from the tests, and each
  // test's window is alone (the production test gives it a private bus).
  env.DBUS_SESSION_BUS_ADDRESS = "disabled:";
  env.GDK_BACKEND = "x11";
  return env;
}

/**
 * Starts the dev binary under DISPLAY with -devserver, and waits until the
 * page is served. Returns { proc, baseURL, home, env, stop }.
 */
export async function startDevApp({ binary, repoRoot, display, port, home, env, args = [], logFile, timeout = 60_000 }) {
  const fullEnv = { ...baseAppEnv(), ...env, DISPLAY: display, PILOT_HOME: home };
  const proc = spawnGroup(
    "pilot-dev",
    binary,
    ["-assetdir", "frontend/dist", "-devserver", `127.0.0.1:${port}`, ...args],
    { cwd: repoRoot, env: fullEnv, logFile },
  );
  const baseURL = `http://127.0.0.1:${port}`;
  let exited = null;
  proc.exited.then((info) => (exited = info));
  try {
    await waitFor(
      async () => {
        if (exited) throw Object.assign(new Error(`pilot-dev exited ${JSON.stringify(exited)}`), { fatal: true });
        const res = await fetch(baseURL + "/", { signal: AbortSignal.timeout(2000) });
        if (!res.ok) return false;
        const body = await res.text();
        return body.includes('id="root"');
      },
      { timeout, interval: 100, message: `pilot-dev to serve ${baseURL}` },
    );
  } catch (err) {
    const tail = proc.output().split("\n").slice(-60).join("\n");
    await stopGroup(proc);
    throw new Error(`${err.message}\n--- pilot-dev output (last lines) ---\n${tail}`);
  }
  return { proc, baseURL, home, env: fullEnv, stop: (graceMs) => stopGroup(proc, graceMs) };
}

export function readText(path) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
