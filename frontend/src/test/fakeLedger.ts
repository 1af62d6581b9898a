// The change ledger of the fake backend: checkpoints per session with the
// content of every file before and after each, reverts and rewinds applied
// to the fake's files, and conflicts for files a test changed "outside".
import type { ChangeDetail, Checkpoint, CheckpointKind, Conflict, FileDiff, FileEffect, Hunk, Ledger, LedgerFile, LedgerOp, RestoreInput, RestoreResult, RewindMode } from "../lib/wire.gen";

/** A file's content at one moment; null when it does not exist. */
export type Content = string | null;

export interface Step {
  kind: CheckpointKind;
  messageId: number;
  label: string;
  toolCallId?: string;
  note?: string;
  omitted?: number;
  /** path → content before and after the step. */
  files: Record<string, { before: Content; after: Content; kept?: boolean; why?: string; runsCode?: string; listed?: boolean; folder?: boolean }>;
}

interface Stored extends Checkpoint {
  sessionId: number;
  contents: Record<string, { before: Content; after: Content }>;
}

function opOf(before: Content, after: Content): LedgerOp {
  return before === null ? "created" : after === null ? "deleted" : "modified";
}

/** One hunk covering everything between the common first and last lines (enough for tests). */
export function diffOf(path: string, before: Content, after: Content): FileDiff {
  const a = before === null ? [] : before.split("\n");
  const b = after === null ? [] : after.split("\n");
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  const dels = a.slice(p, a.length - s);
  const adds = b.slice(p, b.length - s);
  const hunks: Hunk[] =
    dels.length || adds.length
      ? [
          {
            index: 0,
            oldStart: p + 1,
            oldLines: dels.length,
            newStart: p + 1,
            newLines: adds.length,
            lines: [
              ...dels.map((text, i) => ({ kind: "del" as const, text, oldNo: p + 1 + i })),
              ...adds.map((text, i) => ({ kind: "add" as const, text, newNo: p + 1 + i })),
            ],
          },
        ]
      : [];
  return { path, oldExists: before !== null, newExists: after !== null, oldText: before ?? "", newText: after ?? "", binary: false, hunks };
}

export class FakeLedger {
  private checkpoints: Stored[] = [];
  private nextId = 1;
  /** Files changed outside Pilot since Pilot last wrote them. */
  outside = new Set<string>();
  details: Record<string, ChangeDetail> = {};
  /** The session a rewind of the conversation forks into. */
  forkId = 600;

  constructor(
    /** The fake's project files (path → text); reverts write here. */
    private readonly filesOf: () => Record<string, string>,
    private readonly onFork: (from: number, id: number) => void,
  ) {}

  /** Records a step as the backend would after a change or command; applies it to the files. */
  record(sessionId: number, step: Step, createdAt = 1000 * this.nextId): Checkpoint {
    const effects: FileEffect[] = [];
    const contents: Stored["contents"] = {};
    for (const [path, f] of Object.entries(step.files)) {
      effects.push({
        path,
        op: opOf(f.before, f.after),
        kept: f.kept ?? true,
        ...(f.why ? { why: f.why } : {}),
        ...(f.runsCode ? { runsCode: f.runsCode } : {}),
        ...(f.listed ? { listed: true } : {}),
        ...(f.folder ? { folder: true } : {}),
      });
      contents[path] = { before: f.before, after: f.after };
      this.write(path, f.after);
    }
    const cp: Stored = {
      id: this.nextId++,
      sessionId,
      kind: step.kind,
      toolCallId: step.toolCallId,
      messageId: step.messageId,
      label: step.label,
      note: step.note,
      omitted: step.omitted,
      files: effects,
      undone: false,
      createdAt,
      contents,
    };
    this.checkpoints.push(cp);
    return this.view(cp);
  }

  /** A test's edit behind Pilot's back: restoring the file is a conflict. */
  changeOutside(path: string, text: string) {
    this.filesOf()[path] = text;
    this.outside.add(path);
  }

  private write(path: string, c: Content) {
    const files = this.filesOf();
    if (c === null) delete files[path];
    else files[path] = c;
  }

  private view(cp: Stored): Checkpoint {
    const { sessionId: _s, contents: _c, ...rest } = cp;
    return { ...rest, files: rest.files.map((f) => ({ ...f })) };
  }

  private of(sessionId: number): Stored[] {
    return this.checkpoints.filter((c) => c.sessionId === sessionId);
  }

  private now(path: string): Content {
    const files = this.filesOf();
    return path in files ? files[path]! : null;
  }

  /** The content before the session first touched a path. */
  private original(sessionId: number, path: string): Content {
    return this.of(sessionId).find((c) => path in c.contents)!.contents[path]!.before;
  }

  ledger(sessionId: number): Ledger {
    const cps = this.of(sessionId);
    const paths: string[] = [];
    for (const c of cps) for (const p of Object.keys(c.contents)) if (!paths.includes(p)) paths.push(p);
    const files: LedgerFile[] = paths.map((path) => {
      const before = this.original(sessionId, path);
      const now = this.now(path);
      const touching = cps.filter((c) => path in c.contents);
      const effects = touching.map((c) => c.files.find((f) => f.path === path)!);
      const runsCode = effects[effects.length - 1]?.runsCode;
      const listed = effects.some((f) => f.listed);
      return {
        path,
        kind: before === now ? "" : opOf(before, now),
        checkpoints: touching.map((c) => c.id),
        revertable: effects.every((f) => f.kept !== false),
        ...(runsCode ? { runsCode } : {}),
        ...(listed ? { listed } : {}),
      };
    });
    return { sessionId, files, checkpoints: cps.map((c) => this.view(c)) };
  }

  fileDiff(sessionId: number, path: string): FileDiff {
    if (!this.of(sessionId).some((c) => path in c.contents)) throw new Error(`${path} was not changed in this session`);
    return diffOf(path, this.original(sessionId, path), this.now(path));
  }

  checkpointDiff(id: number, path: string): FileDiff {
    const c = this.checkpoints.find((x) => x.id === id)?.contents[path];
    if (!c) throw new Error(`checkpoint ${id} did not touch ${path}`);
    return diffOf(path, c.before, c.after);
  }

  sessionOf(checkpointId: number): number {
    const cp = this.checkpoints.find((c) => c.id === checkpointId);
    if (!cp) throw new Error("no such checkpoint");
    return cp.sessionId;
  }

  changeDetail(toolCallId: string): ChangeDetail {
    const d = this.details[toolCallId];
    if (!d) throw new Error("no such change");
    return d;
  }

  /**
   * Restores paths to target contents, unless a conflict is unresolved;
   * records the revert or rewind as a checkpoint of its own.
   */
  private restore(sessionId: number, targets: Record<string, Content>, undo: Stored[], input: RestoreInput, kind: CheckpointKind, label: string, messageId: number): RestoreResult {
    const conflicts: Conflict[] = [];
    for (const [path, target] of Object.entries(targets)) {
      if (!this.outside.has(path) || input.resolutions[path]) continue;
      const lastWritten = [...this.of(sessionId)].reverse().find((c) => path in c.contents)!.contents[path]!.after;
      conflicts.push({ path, mine: diffOf(path, lastWritten, this.now(path)), checkpoint: diffOf(path, this.now(path), target) });
    }
    const base = { restored: [], kept: [], missing: [], checkpointId: 0, sessionId };
    if (conflicts.length) return { ...base, done: false, conflicts, message: `${conflicts.length} file(s) changed outside Pilot.` };
    const kept = Object.keys(targets).filter((p) => input.resolutions[p] === "mine");
    const step: Step = { kind, messageId, label, files: {} };
    for (const [path, target] of Object.entries(targets)) {
      if (kept.includes(path)) continue;
      step.files[path] = { before: this.now(path), after: target };
      this.outside.delete(path);
    }
    for (const c of undo) c.undone = true;
    const cp = this.record(sessionId, step);
    // As the backend says it (ledger.finish): a restore where the user kept every file changed none.
    const message =
      cp.files.length === 0 && kept.length > 0
        ? `Nothing was ${kind === "rewind" ? "rewound" : "reverted"}: you kept your own version of ${kept.join(", ")}, so no file changed.`
        : `${label}: ${cp.files.length} file(s) restored.`;
    return { done: true, conflicts: [], restored: cp.files, kept, missing: [], checkpointId: cp.id, sessionId, message };
  }

  revertCheckpoint(id: number, input: RestoreInput): RestoreResult {
    const cp = this.checkpoints.find((c) => c.id === id);
    if (!cp) throw new Error("no such checkpoint");
    const targets: Record<string, Content> = {};
    for (const f of cp.files) if (f.kept) targets[f.path] = cp.contents[f.path]!.before;
    return this.restore(cp.sessionId, targets, [cp], input, "revert", `Reverted ${cp.label}`, cp.messageId);
  }

  revertFile(sessionId: number, path: string, input: RestoreInput): RestoreResult {
    const touching = this.of(sessionId).filter((c) => path in c.contents);
    const undo = touching.filter((c) => Object.keys(c.contents).length === 1);
    return this.restore(sessionId, { [path]: this.original(sessionId, path) }, undo, input, "revert", `Reverted ${path}`, touching.at(-1)?.messageId ?? 0);
  }

  rewind(sessionId: number, messageId: number, mode: RewindMode, input: RestoreInput): RestoreResult {
    let result: RestoreResult = { done: true, conflicts: [], restored: [], kept: [], missing: [], checkpointId: 0, sessionId, message: "" };
    if (mode !== "conversation") {
      const later = this.of(sessionId).filter((c) => c.messageId >= messageId && !c.undone);
      const targets: Record<string, Content> = {};
      for (const c of later) for (const [p, v] of Object.entries(c.contents)) if (!(p in targets)) targets[p] = v.before;
      result = this.restore(sessionId, targets, later, input, "rewind", `Rewound to message ${messageId}`, messageId);
      if (!result.done) return result;
    }
    if (mode === "code") return result;
    const fork = this.forkId++;
    this.onFork(sessionId, fork);
    return { ...result, sessionId: fork, message: `The conversation continues in a new session from before message ${messageId}.` };
  }
}
