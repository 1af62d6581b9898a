import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from "react";
import { rowCount } from "../../lib/diffLayout";
import { errorText } from "../../lib/format";
import { useVirtualList } from "../../lib/useVirtualList";
import { useReportError } from "../../lib/useReportError";
import type { BranchView, FileChange, MergeResult } from "../../lib/wire.gen";
import { decideAll, feedbackMessage, mergeOf, rejectedHunks, setDecision, tally, undecided } from "../../state/branch";
import { useApp, useController } from "../../state/context";
import type { HunkDecision } from "../../state/review";
import ConfirmDialog from "../ConfirmDialog";
import CommitDialog from "../git/CommitDialog";
import type { DiffLayout } from "../review/DiffHunk";
import DiffView from "../review/DiffView";
import LayoutToggle, { type LayoutChoice } from "../review/LayoutToggle";
import MergeOutcome from "./MergeOutcome";
import { CommentNotes, ReviewSubmit } from "../review/LineComments";
import FormNote from "../FormNote";

/** The view's branch: loading, ready (fresh once read since the view was opened, else as read ahead), or failed. */
type Load = { status: "loading" } | { status: "ready"; view: BranchView; fresh: boolean } | { status: "failed"; error: string };
type Merge = { status: "idle" } | { status: "merging" } | { status: "done"; result: MergeResult } | { status: "failed"; error: string };

interface Props {
  sessionId: number;
  /** From the session's summary: names the branch and worktree before the view loads. */
  branch: string;
  worktree: string;
}

/** A file's height before it is measured: its header, and each hunk's head and rows (see DiffView). */
const fileEstimate = (f: FileChange, layout: DiffLayout) => 34 + f.hunks.reduce((px, h) => px + 29 + 18 * rowCount(h, layout), 0);

const noFiles: FileChange[] = [];

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the view says when the branch read on opening differs from the one it painted from the cache. */
export const replacedNotice = "The branch changed since it was shown; its review starts again.";

/**
 * A worktree session's branch, hunk by hunk: approve or reject, then merge,
 * commit or discard. It paints at once the branch the window read ahead
 * (state/branchCache.ts) and reads it again; a branch changed since is
 * shown instead, its review started over.
 */
export default function BranchReview({ sessionId, branch, worktree }: Props) {
  const c = useController();
  const backend = c.backend;
  const cache = c.branches;
  const latest = useSyncExternalStore(cache.subscribe, () => cache.view(sessionId));
  const [load, setLoad] = useState<Load>(() => (latest ? { status: "ready", view: latest, fresh: false } : { status: "loading" }));
  const [decisions, setDecisions] = useState<HunkDecision[][]>(() => (latest ? undecided(latest) : []));
  /** The view on screen (the cache's before the read on opening ends): what that read is compared with. */
  const shown = useRef<BranchView | null>(latest);
  /** The branch changed between the view painted from the cache and the one read on opening. */
  const [replaced, setReplaced] = useState(false);
  const [focus, setFocus] = useState({ file: 0, hunk: 0 });
  const [feedbackOn, setFeedbackOn] = useState(false);
  const [note, setNote] = useState("");
  const [merge, setMerge] = useState<Merge>({ status: "idle" });
  /** Files merged by this view: never sent again. */
  const [merged, setMerged] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);
  const [dialog, setDialog] = useState<"none" | "commit" | "discard">("none");
  const [discard, setDiscard] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const [discarded, setDiscarded] = useState(false);
  const [choice, setChoice] = useState<LayoutChoice>("split");
  const layout: DiffLayout = choice === "unified" ? "unified" : "split";
  const loads = useRef(0);
  /** The open session's files version when the view was read: the session changed files since when it moves on. */
  const [readAt, setReadAt] = useState<number | null>(null);
  const filesVersion = useApp((s) => s.filesVersion);
  const filesRef = useRef<HTMLDivElement>(null);

  /** Shows a view with its review started over. */
  const show = useCallback((view: BranchView, fresh: boolean) => {
    shown.current = view;
    setLoad({ status: "ready", view, fresh });
    setDecisions(undecided(view));
    setMerged(new Set());
    setFocus({ file: 0, hunk: 0 });
  }, []);

  /**
   * Reads the branch: on opening (first) the view painted from the cache
   * stays, decisions and all, when the branch is the same; otherwise the
   * view shows "loading" until the read ends.
   */
  const reload = useCallback(
    async (first: boolean) => {
      const token = ++loads.current;
      const version = c.state.filesVersion;
      if (!first) {
        shown.current = null;
        setLoad({ status: "loading" });
      }
      setReplaced(false);
      try {
        // On opening, a read under way (a turn just ended) is as new as the click; a refresh asks for one after it.
        const view = await cache.read(sessionId, !first);
        if (token !== loads.current) return;
        setReadAt(version);
        const painted = shown.current;
        if (painted && painted.version === view.version) setLoad({ status: "ready", view: painted, fresh: true });
        else {
          show(view, true);
          setReplaced(painted !== null);
        }
      } catch (err) {
        if (token === loads.current) setLoad({ status: "failed", error: errorText(err) });
      }
    },
    [c, cache, sessionId, show],
  );
  useEffect(() => {
    void reload(true);
  }, [reload]);

  const view = load.status === "ready" ? load.view : null;
  const fresh = load.status === "ready" && load.fresh;
  /** A read ahead since (a turn ended) found the branch changed. */
  const branchMoved = fresh && latest !== null && view !== null && latest.version !== view.version;
  // Only the files near the view are rendered: a branch of hundreds of files paints as fast as a few.
  const files = useVirtualList(
    filesRef,
    view?.files.length ?? 0,
    (i) => fileEstimate(view!.files[i]!, layout),
    (el) => Number(el.dataset.fileIndex),
    `${layout} ${view?.version ?? ""}`,
    view ? focus.file : null,
  );
  const name = view?.branch || branch;
  const where = view?.worktree || worktree;
  const loadError = load.status === "failed" ? `Could not show the branch: ${load.error}` : null;
  useReportError("branch", loadError ?? (merge.status === "failed" ? merge.error : null), sessionId);

  const positions = useMemo(() => view?.files.flatMap((f, fi) => f.hunks.map((_, hi) => ({ file: fi, hunk: hi }))) ?? [], [view]);
  const counts = tally(decisions);
  const pendingMerge = view ? mergeOf(view, decisions, false) : null;
  const toMerge = pendingMerge?.files.filter((f) => !merged.has(f.path)) ?? [];
  const rejected = view ? rejectedHunks(view, decisions) : [];
  const busy = merge.status === "merging" || discarded;

  const decide = useCallback((file: number, hunk: number, d: HunkDecision) => setDecisions((ds) => setDecision(ds, file, hunk, d)), []);

  const sendFeedback = async (v: BranchView) => {
    const text = feedbackMessage(v, decisions, note);
    try {
      const what = `The rejected ${rejected.length === 1 ? "hunk" : "hunks"}`;
      if (c.state.session?.id === sessionId) {
        await c.chat.submitPrompt({ text, attachments: [] });
        const error = c.state.session?.error;
        if (error?.kind === "send") return error.message;
      } else await backend.sendMessage(sessionId, text, []);
      setFeedbackOn(false);
      setNote("");
      return sessionId in c.state.queued
        ? `${what} will go to the model as your message when its running turn ends.`
        : `${what} went to the model as your message.`;
    } catch (err) {
      return `The feedback was not sent: ${errorText(err)}`;
    }
  };

  /** Merges the approved hunks of files not merged yet; force only the files a merge refused. */
  const doMerge = async (force: boolean) => {
    if (!view) return;
    const refused = merge.status === "done" ? new Set(merge.result.conflicts.map((x) => x.path)) : new Set<string>();
    const files = force ? mergeOf(view, decisions, true).files.filter((f) => refused.has(f.path)) : toMerge;
    if (files.length === 0) return;
    setMerge({ status: "merging" });
    setNotice(null);
    let result: MergeResult;
    try {
      result = await backend.mergeBranch(sessionId, { files, force, version: view.version });
    } catch (err) {
      setMerge({ status: "failed", error: `Nothing was merged: ${errorText(err)}` });
      return;
    }
    setMerged((m) => new Set([...m, ...result.merged]));
    setMerge({ status: "done", result });
    if (feedbackOn && rejected.length > 0) setNotice(await sendFeedback(view));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const t = e.target as HTMLElement;
    if (!view || busy || t.tagName === "TEXTAREA" || t.tagName === "INPUT" || e.ctrlKey || e.metaKey || e.altKey) return;
    const move = (delta: number) => {
      const i = positions.findIndex((p) => p.file === focus.file && p.hunk === focus.hunk);
      const next = positions[Math.max(0, Math.min(positions.length - 1, i + delta))];
      if (next) setFocus(next);
    };
    const k = e.key.toLowerCase();
    if (k === "y" || k === "n") decide(focus.file, focus.hunk, k === "y" ? "approved" : "rejected");
    if (k === "y" || k === "n" || k === "j") move(1);
    else if (k === "k") move(-1);
    else return;
    e.preventDefault();
  };

  return (
    <div className="branch-view review-card" data-testid="branch-view" data-status={discarded ? "discarded" : load.status} data-fresh={load.status === "ready" ? String(load.fresh) : undefined} data-branch={name} tabIndex={0} onKeyDown={onKeyDown} aria-label={`Branch ${name}. Keys: y approve hunk, n reject hunk, j and k move.`}>
      <header className="review-head">
        <div className="review-title">
          Branch <strong>{name}</strong>
          {view && (
            <>
              {" "}
              from <code>{view.base}</code> · {plural(view.files.length, "file")} changed
            </>
          )}
        </div>
        {where && (
          <div className="muted small-text" title={where}>
            Worktree {where}
          </div>
        )}
        {view && view.files.length > 0 && !discarded && (
          <>
            <div className="review-progress" role="status">
              {counts.approved} approved, {counts.rejected} rejected of {plural(counts.total, "hunk")}; only approved hunks are merged.
            </div>
            <div className="review-actions">
              <button type="button" disabled={busy} data-testid="branch-approve-all" onClick={() => setDecisions(decideAll(view, "approved"))}>
                ✓ Approve all
              </button>
              <button type="button" disabled={busy} data-testid="branch-reject-all" onClick={() => setDecisions(decideAll(view, "rejected"))}>
                ✕ Reject all
              </button>
              <LayoutToggle choice={choice} auto="split" onChange={setChoice} />
            </div>
          </>
        )}
        {!discarded && (
          <div className="review-actions">
            <button
              type="button"
              className="primary"
              data-testid="branch-merge"
              disabled={busy || !view || toMerge.length === 0}
              title="Apply the approved hunks to the project folder as one change you can undo from its Changes view"
              onClick={() => void doMerge(false)}
            >
              {merge.status === "merging" ? "Merging…" : `Merge ${plural(toMerge.reduce((n, f) => n + f.hunks.filter(Boolean).length, 0), "approved hunk")}`}
            </button>
            <button type="button" data-testid="branch-commit" disabled={busy || load.status !== "ready"} title={`Commit everything in the worktree on ${name}`} onClick={() => setDialog("commit")}>
              Commit…
            </button>
            <button type="button" className="danger-outline" data-testid="branch-discard" disabled={busy} title={`Remove the worktree and the branch ${name}`} onClick={() => setDialog("discard")}>
              Discard…
            </button>
            <button type="button" className="small" data-testid="branch-refresh" disabled={busy} onClick={() => void reload(false)}>
              ↻ Refresh
            </button>
          </div>
        )}
        {view && rejected.length > 0 && !discarded && (
          <div className="branch-feedback">
            <label>
              <input type="checkbox" data-testid="branch-feedback" checked={feedbackOn} onChange={(e) => setFeedbackOn(e.target.checked)} /> Tell the model which{" "}
              {rejected.length === 1 ? "hunk" : `${rejected.length} hunks`} I rejected (sent as my message when I merge)
            </label>
            {feedbackOn && (
              <div className="row-actions">
                <textarea data-testid="branch-feedback-text" rows={2} value={note} placeholder="Why, and what to do instead (optional)" aria-label="Feedback for the model" onChange={(e) => setNote(e.target.value)} />
                <button type="button" className="small" data-testid="branch-feedback-send" disabled={busy} onClick={() => void sendFeedback(view).then(setNotice)}>
                  Send now
                </button>
              </div>
            )}
          </div>
        )}
        {replaced && !discarded && (
          <p className="notice-line" role="status" data-testid="branch-replaced">
            {replacedNotice}
          </p>
        )}
        {((readAt !== null && readAt !== filesVersion) || branchMoved) && !discarded && (
          <p className="notice-line" role="status" data-testid="branch-stale">
            {branchMoved ? "The branch changed since this view was read." : "The session has changed files since this view was read."}{" "}
            <button type="button" className="small" disabled={busy} onClick={() => void reload(false)}>
              Read the branch again
            </button>{" "}
            (your decisions start over)
          </p>
        )}
        {merge.status === "failed" && <FormNote text={merge.error} />}
        {merge.status === "done" && (
          <MergeOutcome
            result={merge.result}
            busy={busy}
            onForce={() => void doMerge(true)}
            onOpenChanges={(id) => void c.openSession(id).then(() => c.ledger.showChanges(null))}
          />
        )}
        {notice && (
          <p className="notice-line" role="status" data-testid="branch-notice">
            {notice}
          </p>
        )}
        {!discarded && <ReviewSubmit sessionId={sessionId} />}
      </header>
      {discarded ? (
        <p className="empty pad">The worktree and the branch {name} were removed; this session stays as history.</p>
      ) : load.status === "loading" ? (
        <p className="empty pad" aria-busy="true">
          Reading the branch…
        </p>
      ) : load.status === "failed" ? (
        <p className="error pad">{loadError}</p>
      ) : view && view.files.length === 0 ? (
        <p className="empty pad">
          The branch has no changes against {view.base} yet: nothing to merge.
        </p>
      ) : (
        <CommentNotes sessionId={sessionId} origin="branch" files={view?.files ?? noFiles} locked={busy}>
        <div ref={filesRef} className="branch-files">
          {files.before > 0 && <div className="diff-spacer" aria-hidden="true" style={{ height: files.before }} />}
          {view?.files.slice(files.first, files.last + 1).map((f, k) => {
            const fi = files.first + k;
            return (
              <div key={f.path} ref={files.measure} data-file-index={fi}>
                <DiffView
                  file={f}
                  decisions={decisions[fi] ?? []}
                  edited={null}
                  layout={layout}
                  focusedHunk={focus.file === fi ? focus.hunk : null}
                  locked={busy || merged.has(f.path)}
                  onDecide={(hunk, d) => decide(fi, hunk, d)}
                  onFocus={(hunk) => setFocus({ file: fi, hunk })}
                  onEdit={() => {}}
                />
              </div>
            );
          })}
          {files.after > 0 && <div className="diff-spacer" aria-hidden="true" style={{ height: files.after }} />}
        </div>
        </CommentNotes>
      )}
      {dialog === "commit" && (
        <CommitDialog
          sessionId={sessionId}
          title={`Commit on ${name}`}
          onClose={() => setDialog("none")}
          onDone={(r) => {
            setDialog("none");
            setNotice(`Committed ${r.commit} on ${name}: ${plural(r.files.length, "file")}.`);
          }}
        >
          <p>
            Commits everything in the worktree {where} to the branch {name}. The project folder and your branch are not touched; merge to bring the work home.
          </p>
        </CommitDialog>
      )}
      {dialog === "discard" && (
        <ConfirmDialog
          title={`Discard ${name}?`}
          acceptLabel="Discard worktree and branch"
          danger
          busy={discard.busy}
          error={discard.error}
          onCancel={() => {
            setDialog("none");
            setDiscard({ busy: false, error: null });
          }}
          onAccept={async () => {
            setDiscard({ busy: true, error: null });
            try {
              await backend.discardWorktree(sessionId);
            } catch (err) {
              setDiscard({ busy: false, error: `Nothing was removed: ${errorText(err)}` });
              return;
            }
            setDiscard({ busy: false, error: null });
            setDialog("none");
            setDiscarded(true);
            cache.drop(sessionId);
          }}
        >
          <p>
            This removes the worktree <code>{where}</code> and deletes the branch <code>{name}</code> with all of its work, committed or not. Nothing of it is merged into your folder.
          </p>
          <p className="hint">The session stays in the list as history.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
