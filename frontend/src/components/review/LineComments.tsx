// Comments on lines, shown through the diffs' shared slot (lineNotes.tsx):
// a view wraps its diffs in <CommentNotes>, which places the session's
// comments of that view on their lines (again after a re-diff: see
// lib/commentAnchors.ts) and lists those whose line is gone; <ReviewSubmit>
// sends the drafts as one review.
import { useCallback, useEffect, useMemo, type ReactNode } from "react";
import { placeComments, type Placed } from "../../lib/commentAnchors";
import type { CommentOrigin, Hunk, LineComment } from "../../lib/wire.gen";
import { useSessionComments } from "../../state/comments";
import { useController } from "../../state/context";
import FormNote from "../FormNote";
import { LineNotes, type LineAnchor, type LineNote } from "./lineNotes";

const lines = (line: number, end?: number) => (end && end > line ? `Lines ${line}–${end}` : `Line ${line}`);

const stateLabel = { draft: "draft", sent: "sent", outdated: "outdated: its line is no longer in this diff" } as const;

/** One comment: where, its state, and its text (a text box while it is a draft). */
function LineCommentView({ sessionId, placed, outdated }: { sessionId: number; placed: Placed<LineComment>; outdated?: boolean }) {
  const c = useController();
  const lc = placed.comment;
  const state = outdated ? "outdated" : lc.state;
  const draft = lc.state === "draft" && !outdated;
  return (
    <div className={`line-comment state-${state}`} data-testid="line-comment" data-path={lc.path} data-line={placed.line} data-state={state}>
      <header>
        <span>
          {outdated ? `${lc.path}: ` : ""}
          {lines(placed.line, placed.endLine)}
        </span>
        <span className="grow">· {stateLabel[state]}</span>
        {lc.state !== "sent" && (
          <button type="button" className="link" aria-label={`Delete the comment on ${lines(placed.line, placed.endLine).toLowerCase()}`} onClick={() => void c.comments.remove(sessionId, lc.id)}>
            Delete
          </button>
        )}
      </header>
      {draft ? (
        <textarea
          data-testid="line-comment-text"
          rows={2}
          value={lc.text}
          autoFocus={lc.text === ""}
          placeholder="What is wrong here, and what to do instead"
          aria-label={`Comment on ${lc.path}, ${lines(placed.line, placed.endLine).toLowerCase()}`}
          onFocus={() => c.comments.focus(sessionId, lc.id)}
          onChange={(e) => c.comments.edit(sessionId, { ...lc, text: e.target.value })}
        />
      ) : (
        <p className="comment-body" data-testid="line-comment-text">
          {lc.text}
        </p>
      )}
    </div>
  );
}

interface NotesProps {
  sessionId: number;
  origin: CommentOrigin;
  /** The pending change's approval id (origin change). */
  originRef?: string;
  /** The files the view shows, with their hunks. */
  files: readonly { path: string; hunks: readonly Hunk[] }[];
  /** No new comments (a decided change, a view being merged). */
  locked?: boolean;
  children: ReactNode;
}

/**
 * The session's comments of one view (origin) on the lines of its files,
 * and the add control on every line. A draft made on an earlier proposal
 * of a change follows its line into the new one (saved there) or is saved
 * as outdated; a sent comment is shown on its line while it is there.
 */
export function CommentNotes({ sessionId, origin, originRef = "", files, locked, children }: NotesProps) {
  const c = useController();
  const { list } = useSessionComments(c.comments, sessionId);
  const { notes, outdated } = useMemo(() => {
    const notes: LineNote[] = [];
    const outdated: LineComment[] = [];
    const mine = list.filter((x) => x.origin === origin);
    for (const f of files) {
      const p = placeComments(mine, f.path, f.hunks);
      for (const at of p.placed) notes.push({ key: `comment-${at.comment.id}`, path: f.path, line: at.line, node: <LineCommentView sessionId={sessionId} placed={at} /> });
      outdated.push(...p.outdated.filter((x) => x.state !== "sent"));
    }
    return { notes, outdated };
  }, [list, origin, files, sessionId]);

  // A pending change re-proposed: the drafts of the earlier one move to it.
  useEffect(() => {
    if (origin !== "change" || !originRef) return;
    for (const f of files) {
      const p = placeComments(
        list.filter((x) => x.origin === "change" && x.state === "draft" && x.originRef !== originRef),
        f.path,
        f.hunks,
      );
      for (const at of p.placed) c.comments.edit(sessionId, { ...at.comment, line: at.line, endLine: at.endLine, originRef });
      for (const x of p.outdated) c.comments.edit(sessionId, { ...x, state: "outdated" });
    }
  }, [c, list, origin, originRef, files, sessionId]);

  const onAdd = useCallback(
    (at: LineAnchor, extend: boolean) => void c.comments.add(sessionId, at, origin, originRef, extend),
    [c, sessionId, origin, originRef],
  );
  return (
    <LineNotes notes={notes} onAdd={locked ? undefined : onAdd}>
      {outdated.length > 0 && (
        <div className="outdated-comments" aria-label="Comments whose line is no longer in this diff">
          {outdated.map((x) => (
            <LineCommentView key={x.id} sessionId={sessionId} placed={{ comment: x, line: x.line, endLine: x.endLine }} outdated />
          ))}
        </div>
      )}
      {children}
    </LineNotes>
  );
}

/** Sends every draft comment of the session as one review (with the pending change's verdicts when one waits). */
export function ReviewSubmit({ sessionId, what = "" }: { sessionId: number; what?: string }) {
  const c = useController();
  const s = useSessionComments(c.comments, sessionId);
  const n = s.list.filter((x) => x.state === "draft" && x.text.trim() !== "").length;
  if (n === 0 && s.review === "idle" && !s.error) return null;
  return (
    <div className="review-bar">
      <button type="button" className="primary" data-testid="review-submit" disabled={n === 0 || s.review !== "idle"} onClick={() => void c.comments.submit(sessionId)}>
        Send review ({n} comment{n === 1 ? "" : "s"}){what}
      </button>
      {s.review === "waiting" && <span role="status">The review goes to the model when this turn ends.</span>}
      {s.review === "sending" && <span role="status">Sending the review…</span>}
      <FormNote text={s.error} />
    </div>
  );
}
