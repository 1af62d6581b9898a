// Child processes of the e2e run. Every process is started in its own
// process group and stays tracked until its whole group has been killed, so
// the helpers it forks (WebKitWebProcess, WebKitNetworkProcess, go run's
// child) go with it. killAllSync runs on every way out of the runner.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";

const groups = new Map(); // pgid -> name

/**
 * Starts cmd in a new process group. Output is kept in memory (last 256 KiB)
 * and, when logFile is given, written there too.
 */
export function spawnGroup(name, cmd, args, { cwd, env, logFile, stdio } = {}) {
  const child = spawn(cmd, args, {
    cwd,
    env,
    detached: true, // setsid(): the child leads a new process group
    stdio: stdio ?? ["ignore", "pipe", "pipe"],
  });
  if (child.pid) groups.set(child.pid, name);
  const log = logFile ? createWriteStream(logFile) : null;
  let buf = "";
  const keep = (chunk) => {
    buf += chunk.toString();
    if (buf.length > 256 * 1024) buf = buf.slice(-256 * 1024);
    log?.write(chunk);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  child.exited = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      child.exitInfo = { code, signal };
      resolve(child.exitInfo);
    });
    child.on("error", (err) => {
      keep(`spawn ${cmd} failed: ${err.message}\n`);
      child.exitInfo = { code: -1, signal: null, error: err };
      resolve(child.exitInfo);
    });
  });
  // "close" comes after "exit" once stdout and stderr are drained: only
  // then is output() everything the process wrote.
  child.closed = new Promise((resolve) => {
    child.on("close", resolve);
    child.on("error", resolve);
  });
  child.output = () => buf;
  child.closeLog = () => log?.end();
  child.label = name;
  return child;
}

function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is gone
  }
}

function groupAlive(pgid) {
  return killGroup(pgid, 0);
}

/**
 * SIGTERM to the group, then SIGKILL after graceMs if anything is left.
 * Resolves once the group is gone and, for a child of spawnGroup, its output
 * is drained, with how the leader ended ({ code, signal, killed }: killed
 * when the SIGKILL was needed).
 */
export async function stopGroup(child, graceMs = 4000) {
  const pgid = child?.pid;
  if (!pgid || !groups.has(pgid)) return child?.exitInfo ?? null;
  killGroup(pgid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && groupAlive(pgid)) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const killed = killGroup(pgid, "SIGKILL");
  // Wait briefly for the kernel to reap the group so ports and displays are free.
  const reapDeadline = Date.now() + 2000;
  while (Date.now() < reapDeadline && groupAlive(pgid)) {
    await new Promise((r) => setTimeout(r, 20));
  }
  groups.delete(pgid);
  if (child.closed) {
    // Bounded: a grandchild outside the group could hold the pipes open.
    let timer;
    await Promise.race([child.closed, new Promise((r) => (timer = setTimeout(r, 5000)))]);
    clearTimeout(timer);
  }
  child.closeLog?.();
  return child.exitInfo ? { ...child.exitInfo, killed } : { code: null, signal: null, killed };
}

/** Last resort on exit: SIGKILL every group still tracked. */
export function killAllSync() {
  for (const pgid of groups.keys()) killGroup(pgid, "SIGKILL");
  groups.clear();
}

export function liveGroups() {
  return [...groups.entries()].map(([pgid, name]) => ({ pgid, name }));
}
