// Review of a proposed change: each hunk's decision, edits, feedback, and
// the exact ChangeDecision the backend receives.
import type { ChangeDecision, ChangeView } from "../lib/wire.gen";

export type HunkDecision = "pending" | "approved" | "rejected";
export type ReviewPhase = "loading" | "load_failed" | "deciding" | "submitting" | "submitted" | "submit_failed";

export interface ReviewState {
  approvalId: string;
  phase: ReviewPhase;
  error: string | null;
  change: ChangeView | null;
  /** decisions[file][hunk] */
  decisions: HunkDecision[][];
  /** The user's edited text per file, or null when not edited. */
  edited: (string | null)[];
  feedback: string;
  /** "Always allow" ticked: the approval's rules (alwaysRules) are added with an approving decision. */
  alwaysAllow: boolean;
  /** The hunk the user is at (j/k, a click); kept with the review when the user switches sessions. */
  focus?: { file: number; hunk: number };
}

export function loadingReview(approvalId: string): ReviewState {
  return { approvalId, phase: "loading", error: null, change: null, decisions: [], edited: [], feedback: "", alwaysAllow: false };
}

export function readyReview(change: ChangeView): ReviewState {
  return {
    approvalId: change.approvalId,
    phase: "deciding",
    error: null,
    change,
    decisions: change.files.map((f) => f.hunks.map((): HunkDecision => "pending")),
    edited: change.files.map(() => null),
    feedback: "",
    alwaysAllow: false,
  };
}

export function setHunk(r: ReviewState, file: number, hunk: number, d: HunkDecision): ReviewState {
  const decisions = r.decisions.map((row, i) => (i === file ? row.map((x, j) => (j === hunk ? d : x)) : row));
  return { ...r, decisions };
}

export function allDecided(r: ReviewState): boolean {
  return r.decisions.every((row, i) => r.edited[i] != null || row.every((d) => d !== "pending"));
}

export function countDecided(r: ReviewState): { decided: number; total: number } {
  let decided = 0;
  let total = 0;
  r.decisions.forEach((row, i) => {
    total += row.length;
    decided += r.edited[i] != null ? row.length : row.filter((d) => d !== "pending").length;
  });
  return { decided, total };
}

export type DecisionMode = "approve_all" | "reject_all" | "as_decided";

/**
 * The payload for decideChange. as_decided sends each hunk's decision
 * (pending counts as rejected); an edited file is sent with its edited text
 * and every hunk approved, except under reject_all. "Always allow" goes
 * along only with a decision that approves something.
 */
export function buildDecision(r: ReviewState, mode: DecisionMode): ChangeDecision {
  const files = (r.change?.files ?? []).map((f, i) => {
    const edited = r.edited[i];
    if (mode === "reject_all") return { path: f.path, hunks: f.hunks.map(() => false) };
    if (edited != null) return { path: f.path, hunks: f.hunks.map(() => true), editedText: edited };
    if (mode === "approve_all") return { path: f.path, hunks: f.hunks.map(() => true) };
    return { path: f.path, hunks: (r.decisions[i] ?? []).map((d) => d === "approved") };
  });
  const rejects = files.some((f) => f.hunks.some((h) => !h));
  const approves = files.some((f) => f.hunks.some((h) => h));
  return { files, feedback: rejects ? r.feedback.trim() : "", alwaysAllow: r.alwaysAllow && approves };
}
