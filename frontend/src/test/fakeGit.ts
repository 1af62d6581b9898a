// The git side of the fake backend: worktree sessions' branches, merges
// that refuse files the user changed since the base (unless forced), drafted
// commit messages and commits.
import type { BranchMerge, BranchView, CommitResult, FileChange, Hunk, MergeResult } from "../lib/wire.gen";

/** A hunk replacing line `at` of a file: `old` → `next`. */
export function hunkAt(index: number, at: number, old: string, next: string): Hunk {
  return {
    index,
    oldStart: at,
    oldLines: 1,
    newStart: at,
    newLines: 1,
    lines: [
      { kind: "del", text: old, oldNo: at },
      { kind: "add", text: next, newNo: at },
    ],
  };
}

/** A changed file with one hunk per line given (line numbers 10, 20, …). */
export function changedFile(path: string, edits: [string, string][]): FileChange {
  return { path, isNew: false, emptied: false, hunks: edits.map(([old, next], i) => hunkAt(i, 10 * (i + 1), old, next)) };
}

export class FakeGit {
  /** Branch views by session id; getBranch fails for a session without one. */
  branches: Record<number, BranchView> = {};
  /** Files the user changed in the project folder since the base: a merge refuses them without force. */
  userChanged = new Set<string>();
  /** The session whose Changes view holds a merge. */
  mergeSession = 7;
  /** What draftCommitMessage answers, or the sentence it fails with. */
  draft = "Add the branch's work";
  draftError = "";
  /** When set, getBranch answers only once it resolves (with the branch as it is then). */
  branchGate: Promise<void> | null = null;
  /** When set, draftCommitMessage answers only once it resolves. */
  draftGate: Promise<void> | null = null;
  /** When set, commitSession fails with it. */
  commitError = "";
  /** Files a folder session changed (what its commit stages), by session id. */
  sessionFiles: Record<number, string[]> = {};
  discarded = new Set<number>();

  branch(sessionId: number): BranchView {
    const b = this.branches[sessionId];
    if (!b || this.discarded.has(sessionId)) throw new Error(`Session ${sessionId} has no worktree: it works in the project folder.`);
    return b;
  }

  merge(sessionId: number, m: BranchMerge): MergeResult {
    this.branch(sessionId);
    const merged: string[] = [];
    const conflicts: MergeResult["conflicts"] = [];
    for (const f of m.files) {
      if (!f.hunks.some(Boolean)) continue;
      if (this.userChanged.has(f.path) && !m.force) {
        conflicts.push({ path: f.path, why: `You changed ${f.path} since the branch was made and have not committed it; merge anyway to apply the hunks that still apply, or commit or undo your change first.` });
        continue;
      }
      merged.push(f.path);
    }
    return { merged, conflicts, sessionId: merged.length > 0 ? this.mergeSession : 0 };
  }

  draftMessage(): string {
    if (this.draftError) throw new Error(this.draftError);
    return this.draft;
  }

  commit(sessionId: number, message: string): CommitResult {
    if (this.commitError) throw new Error(this.commitError);
    if (!message.trim()) throw new Error("The commit message is empty: write one.");
    const files = this.branches[sessionId]?.files.map((f) => f.path) ?? this.sessionFiles[sessionId] ?? [];
    return { commit: "1a2b3c4", files };
  }
}
