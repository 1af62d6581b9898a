import { useCallback, useMemo, useRef, type KeyboardEvent } from "react";
import { useReclaimFocus } from "../../lib/focus";
import { useReportError } from "../../lib/useReportError";
import type { Approval } from "../../lib/wire.gen";
import { useApp, useController } from "../../state/context";
import { panelShown } from "../../state/layout";
import { allDecided, countDecided, setHunk, type DecisionMode, type HunkDecision, type ReviewState } from "../../state/review";
import type { DiffLayout } from "./DiffHunk";
import ChangeAlwaysAllow from "./ChangeAlwaysAllow";
import DiffView from "./DiffView";
import { CommentNotes, ReviewSubmit } from "./LineComments";
import { useSessionComments } from "../../state/comments";

interface Props {
  approval: Approval;
  layout: DiffLayout;
}

const firstHunk = { file: 0, hunk: 0 };

/** A proposed change: every file's diff, per-hunk decisions, edit, feedback. */
export default function ChangeReview({ approval, layout }: Props) {
  const c = useController();
  const r = useApp((s) => s.reviews[approval.id]);
  const id = approval.id;
  // The hunk the user is at lives with the review, so a session left and opened again is at the same hunk.
  const focus = r?.focus ?? firstHunk;
  const setFocus = useCallback((f: { file: number; hunk: number }) => c.approvals.update(id, (x) => ({ ...x, focus: f })), [c, id]);
  const card = useRef<HTMLDivElement>(null);
  const shown = useApp((s) => panelShown(s, "review"));
  useReclaimFocus(card, shown && r?.phase === "deciding");

  // Flattened (file, hunk) positions for j/k.
  const positions = useMemo(() => {
    const out: { file: number; hunk: number }[] = [];
    r?.change?.files.forEach((f, fi) => f.hunks.forEach((_, hi) => out.push({ file: fi, hunk: hi })));
    return out;
  }, [r?.change]);

  const locked = !r || r.phase === "submitting" || r.phase === "submitted";
  const sessionId = useApp((s) => s.session?.id ?? 0);
  const commented = useSessionComments(c.comments, sessionId).list.some((x) => x.state === "draft" && x.origin === "change" && x.originRef === id);
  // The comments on this change go with its decision (a rejected hunk's is the model's reason).
  const submit = useCallback((mode: DecisionMode) => c.approvals.submitChange(id, mode, c.comments.on(sessionId, "change", id)), [c, id, sessionId]);

  const update = useCallback(
    (fn: (x: ReviewState) => ReviewState) => {
      c.approvals.update(id, fn);
      const after = c.state.reviews[id];
      // With comments written, the review's Send decides it (with them).
      if (after && after.phase === "deciding" && allDecided(after) && c.comments.on(sessionId, "change", id).length === 0) void submit("as_decided");
    },
    [c, id, sessionId, submit],
  );

  const decide = useCallback((file: number, hunk: number, d: HunkDecision) => update((x) => setHunk(x, file, hunk, d)), [update]);

  useReportError(
    "review",
    r?.phase === "load_failed" ? `Could not load the proposed change: ${r.error}` : r?.phase === "submit_failed" ? `The decision was not sent: ${r.error}` : null,
  );

  if (!r || r.phase === "loading") {
    return (
      <div className="review-card" aria-busy="true">
        <p className="empty">Loading the proposed change…</p>
      </div>
    );
  }
  if (r.phase === "load_failed" || !r.change) {
    return (
      <div className="review-card">
        <p className="error">Could not load the proposed change: {r.error}</p>
      </div>
    );
  }

  const change = r.change;
  const { decided, total } = countDecided(r);
  const move = (delta: number) => {
    const i = positions.findIndex((p) => p.file === focus.file && p.hunk === focus.hunk);
    const next = positions[Math.max(0, Math.min(positions.length - 1, i + delta))];
    if (next) setFocus(next);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const t = e.target as HTMLElement;
    if (t.tagName === "TEXTAREA" || t.tagName === "INPUT" || e.ctrlKey || e.metaKey || e.altKey || locked) return;
    const k = e.key.toLowerCase();
    if (k === "y" || k === "n") {
      e.preventDefault();
      decide(focus.file, focus.hunk, k === "y" ? "approved" : "rejected");
      move(1);
    } else if (k === "j" || k === "k") {
      const i = positions.findIndex((p) => p.file === focus.file && p.hunk === focus.hunk);
      // Past the last hunk (or before the first) the key is the inbox's: the next (or previous) decision.
      if (k === "j" ? i >= positions.length - 1 : i <= 0) return;
      e.preventDefault();
      move(k === "j" ? 1 : -1);
    } else if (k === "a") {
      e.preventDefault();
      void submit("approve_all");
    } else if (k === "f" && !c.state.layout.narrow) {
      e.preventDefault();
      c.layout.toggleFocusReview();
    }
  };

  const anyDecided = decided > 0;
  return (
    <div
      ref={card}
      className="review-card"
      data-testid="change-review"
      data-approval-id={id}
      data-phase={r.phase}
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-label={`Proposed change by ${change.tool}. Keys: y approve hunk, n reject hunk, j and k move, a approve all, f whole window.`}
    >
      <header className="review-head">
        <div className="review-title">
          <strong>{change.tool}</strong> proposes changes to {change.files.length} file{change.files.length === 1 ? "" : "s"}
        </div>
        <div className="review-progress" role="status">
          {r.phase === "submitting"
            ? "Sending your decision…"
            : r.phase === "submitted"
              ? "Decision sent."
              : `${decided} of ${total} hunks decided — ${commented ? "decided by Send review, with your comments" : "applied automatically when every hunk is decided"}`}
        </div>
        <div className="review-actions">
          <button type="button" className="primary" data-testid="diff-approve-all" disabled={locked} onClick={() => void submit("approve_all")}>
            ✓ Approve all
          </button>
          <button type="button" className="danger-outline" data-testid="diff-reject-all" disabled={locked} onClick={() => void submit("reject_all")}>
            ✕ Reject all
          </button>
          <button
            type="button"
            data-testid="diff-apply"
            disabled={locked || !anyDecided}
            title="Apply the hunks approved so far; undecided hunks are rejected"
            onClick={() => void submit("as_decided")}
          >
            Apply decided
          </button>
        </div>
        {r.phase === "submit_failed" && <p className="error">The decision was not sent: {r.error}</p>}
        <label className="feedback">
          <span>Feedback for the model (sent with a rejection)</span>
          <textarea
            data-testid="reject-feedback"
            rows={2}
            value={r.feedback}
            disabled={locked}
            placeholder="e.g. keep the old function name"
            onChange={(e) => {
              const feedback = e.target.value;
              c.approvals.update(id, (x) => ({ ...x, feedback }));
            }}
          />
        </label>
        <ReviewSubmit sessionId={sessionId} what=" and decide the change" />
        <ChangeAlwaysAllow approval={approval} locked={locked} />
        <p className="keys-hint" aria-hidden="true">
          <kbd>y</kbd> approve · <kbd>n</kbd> reject · <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>a</kbd> approve all · <kbd>f</kbd> whole window
        </p>
      </header>
      <CommentNotes sessionId={sessionId} origin="change" originRef={id} files={change.files} locked={locked}>
      {change.files.map((f, fi) => (
        <DiffView
          key={f.path}
          file={f}
          loadText={() => c.backend.proposedText(id, f.path)}
          decisions={r.decisions[fi] ?? []}
          edited={r.edited[fi] ?? null}
          layout={layout}
          focusedHunk={focus.file === fi ? focus.hunk : null}
          locked={locked}
          onDecide={(hunk, d) => decide(fi, hunk, d)}
          onFocus={(hunk) => setFocus({ file: fi, hunk })}
          onEdit={(text) => update((x) => ({ ...x, edited: x.edited.map((e, i) => (i === fi ? text : e)) }))}
        />
      ))}
      </CommentNotes>
    </div>
  );
}
