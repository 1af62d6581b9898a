// A worktree session's branch under review: each hunk's decision, the
// merge the backend receives, and the message that tells the session's
// model which hunks were rejected.
import type { BranchMerge, BranchView } from "../lib/wire.gen";
import type { HunkDecision } from "./review";

/** decisions[file][hunk], every hunk undecided. */
export function undecided(view: BranchView): HunkDecision[][] {
  return view.files.map((f) => f.hunks.map((): HunkDecision => "pending"));
}

/** Every hunk set to d. */
export function decideAll(view: BranchView, d: HunkDecision): HunkDecision[][] {
  return view.files.map((f) => f.hunks.map(() => d));
}

export function setDecision(decisions: HunkDecision[][], file: number, hunk: number, d: HunkDecision): HunkDecision[][] {
  return decisions.map((row, i) => (i === file ? row.map((x, j) => (j === hunk ? d : x)) : row));
}

export function tally(decisions: HunkDecision[][]): { approved: number; rejected: number; total: number } {
  let approved = 0;
  let rejected = 0;
  let total = 0;
  for (const row of decisions)
    for (const d of row) {
      total++;
      if (d === "approved") approved++;
      else if (d === "rejected") rejected++;
    }
  return { approved, rejected, total };
}

/**
 * The merge of the approved hunks: a file with none approved is not named
 * (left out); an undecided hunk is not merged.
 */
export function mergeOf(view: BranchView, decisions: HunkDecision[][], force: boolean): BranchMerge {
  const files = view.files
    .map((f, i) => ({ path: f.path, hunks: f.hunks.map((_, j) => decisions[i]?.[j] === "approved") }))
    .filter((f) => f.hunks.some(Boolean));
  return { files, force };
}

/** Where a hunk is in the branch's version of its file. */
function rangeOf(start: number, lines: number): string {
  if (lines === 0) return `lines removed after line ${start}`;
  return lines === 1 ? `line ${start}` : `lines ${start}–${start + lines - 1}`;
}

/** The rejected hunks as `pilot worktree merge --hunks` numbers them: across the files, from 1. */
export function rejectedHunks(view: BranchView, decisions: HunkDecision[][]): { path: string; number: number; range: string }[] {
  const out: { path: string; number: number; range: string }[] = [];
  let n = 0;
  view.files.forEach((f, i) =>
    f.hunks.forEach((h, j) => {
      n++;
      if (decisions[i]?.[j] === "rejected") out.push({ path: f.path, number: n, range: h.note ?? rangeOf(h.newStart, h.newLines) });
    }),
  );
  return out;
}

/** The user message that tells the session's model what the user rejected on its branch, and why. */
export function feedbackMessage(view: BranchView, decisions: HunkDecision[][], note: string): string {
  const rejected = rejectedHunks(view, decisions);
  const list = rejected.map((r) => `- ${r.path}, hunk ${r.number} (${r.range})`).join("\n");
  const head = `I reviewed your branch ${view.branch} and rejected ${rejected.length === 1 ? "this hunk" : `these ${rejected.length} hunks`}:\n${list}`;
  const why = note.trim();
  return why ? `${head}\n\n${why}` : `${head}\n\nPlease rework them on the branch.`;
}
