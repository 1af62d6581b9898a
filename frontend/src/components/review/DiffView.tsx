import { useEffect, useRef, useState } from "react";
import { errorText } from "../../lib/format";
import type { FileChange } from "../../lib/wire.gen";
import { langForPath } from "../../lib/highlight";
import { rowCount, rowsBodyOf } from "../../lib/diffLayout";
import { useVirtualList } from "../../lib/useVirtualList";
import { whenIdle } from "../../lib/whenIdle";
import type { HunkDecision } from "../../state/review";
import DiffHunk, { type DiffLayout } from "./DiffHunk";
import DiffPath from "./DiffPath";
import FormNote from "../FormNote";
import { useLineNotes } from "./lineNotes";

interface Props {
  file: FileChange;
  /** Fetches the proposed text (an edit starts from it); without it the file cannot be edited. */
  loadText?: () => Promise<string>;
  decisions: HunkDecision[];
  edited: string | null;
  layout: DiffLayout;
  focusedHunk: number | null;
  locked: boolean;
  onDecide: (hunk: number, d: HunkDecision) => void;
  onFocus: (hunk: number) => void;
  onEdit: (text: string | null) => void;
}

function summary(file: FileChange): { adds: number; dels: number } {
  let adds = 0;
  let dels = 0;
  for (const h of file.hunks) for (const l of h.lines) l.kind === "add" ? adds++ : l.kind === "del" ? dels++ : 0;
  return { adds, dels };
}

/** A hunk's height before it is measured: its head and its rows (see .hunk-head and .diff-table). */
const HEAD_PX = 29;
const ROW_PX = 18;

/**
 * Builds the rows of every hunk a few at a time while the main thread is
 * idle, so that scrolling to a hunk only moves them into the page
 * (highlighting and parsing are most of a hunk's cost).
 */
function usePrebuiltRows(file: FileChange, lang: string, layout: DiffLayout) {
  const addable = useLineNotes(file.path).onAdd !== undefined;
  useEffect(() => {
    let next = 0;
    let cancel = () => {};
    const work = (timeLeft: () => number) => {
      while (next < file.hunks.length && timeLeft() > 1) rowsBodyOf(file.hunks[next++]!, lang, layout, addable);
      if (next < file.hunks.length) cancel = whenIdle(work);
    };
    cancel = whenIdle(work);
    return () => cancel();
  }, [file, lang, layout, addable]);
}

/** One file of a proposed change: its hunks (only those near the view are rendered), or an editor on the proposed text. */
export default function DiffView({ file, loadText, decisions, edited, layout, focusedHunk, locked, onDecide, onFocus, onEdit }: Props) {
  const [editing, setEditing] = useState<string | null>(null);
  const [opening, setOpening] = useState(false);
  const [openError, setOpenError] = useState<string | null>(null);
  const lang = langForPath(file.path);
  const { adds, dels } = summary(file);
  const deleted = !file.isNew && file.emptied && dels > 0 && adds === 0;
  const list = useRef<HTMLDivElement>(null);
  usePrebuiltRows(file, lang, layout);
  const v = useVirtualList(
    list,
    file.hunks.length,
    (i) => HEAD_PX + ROW_PX * rowCount(file.hunks[i]!, layout),
    (el) => Number(el.dataset.hunkIndex),
    `${layout} ${editing !== null}`,
    focusedHunk,
    false,
  );
  const startEdit = async () => {
    if (edited !== null) {
      setEditing(edited);
      return;
    }
    if (!loadText) return;
    setOpening(true);
    setOpenError(null);
    try {
      setEditing(await loadText());
    } catch (err) {
      setOpenError(`Could not open the proposed text for editing: ${errorText(err)}`);
    } finally {
      setOpening(false);
    }
  };

  return (
    <section className="diff-view" data-testid="diff-view" data-path={file.path} aria-label={`Changes to ${file.path}`}>
      <header className="diff-file-head">
        <DiffPath path={file.path} />
        {file.isNew && <span className="badge add">new file</span>}
        {deleted && <span className="badge del">emptied</span>}
        <span className="diff-counts">
          <span className="adds">+{adds}</span> <span className="dels">−{dels}</span>
        </span>
        {editing === null && loadText && (
          <button
            type="button"
            className="small"
            data-testid="diff-edit"
            disabled={locked || opening}
            onClick={() => void startEdit()}
            title="Edit the proposed text, then approve your version"
          >
            ✎ Edit
          </button>
        )}
      </header>
      <FormNote text={openError} />
      {edited !== null && editing === null && (
        <p className="edited-note" role="status">
          Your edited version will be applied.{" "}
          <button type="button" className="link" onClick={() => onEdit(null)} disabled={locked}>
            Discard edit
          </button>
        </p>
      )}
      {editing !== null ? (
        <div className="diff-editor">
          <label className="sr-only" htmlFor={`edit-${file.path}`}>
            Proposed text of {file.path}
          </label>
          <textarea
            id={`edit-${file.path}`}
            data-testid="diff-edit-text"
            className="editor"
            spellCheck={false}
            value={editing}
            rows={Math.min(30, Math.max(8, editing.split("\n").length + 1))}
            onChange={(e) => setEditing(e.target.value)}
            autoFocus
          />
          <div className="row-actions">
            <button
              type="button"
              className="primary"
              data-testid="diff-edit-approve"
              onClick={() => {
                onEdit(editing);
                setEditing(null);
              }}
            >
              Approve edited text
            </button>
            <button type="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <div ref={list} className={`diff-hunks${edited !== null ? " superseded" : ""}`}>
          {file.hunks.length === 0 && <p className="empty">No textual changes.</p>}
          {v.before > 0 && <div className="diff-spacer" aria-hidden="true" style={{ height: v.before }} />}
          {file.hunks.slice(v.first, v.last + 1).map((h, k) => (
            <DiffHunk
              key={h.index}
              ref={v.measure}
              hunk={h}
              path={file.path}
              index={v.first + k}
              lang={lang}
              layout={layout}
              decision={decisions[v.first + k] ?? "pending"}
              focused={focusedHunk === v.first + k}
              locked={locked || edited !== null}
              onDecide={onDecide}
              onFocus={onFocus}
            />
          ))}
          {v.after > 0 && <div className="diff-spacer" aria-hidden="true" style={{ height: v.after }} />}
        </div>
      )}
    </section>
  );
}
