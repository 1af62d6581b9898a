import { memo, useEffect, useRef, useState } from "react";
import type { SessionSummary } from "../../lib/wire.gen";
import { formatCost, formatTokens, relativeTime } from "../../lib/format";
import { useApp, useController } from "../../state/context";
import { sessionTokens } from "../../state/usage";
import ConfirmDialog from "../ConfirmDialog";
import { changesWaiting, listState, stateSentence } from "../../state/liveSessions";

interface Props {
  s: SessionSummary;
  active: boolean;
}

type Mode = "view" | "rename" | "confirm_delete";

function SessionItem({ s, active }: Props) {
  const c = useController();
  const tokens = useApp((st) => sessionTokens(st, s.id, s.tokens)); // the status bar's count for the open session
  const live = useApp((st) => st.live[s.id]);
  const state = listState(s, live);
  const changes = changesWaiting(live, s.elsewhere);
  const sentence = stateSentence(state, live, s.elsewhere);
  const [mode, setMode] = useState<Mode>("view");
  const [title, setTitle] = useState(s.title);
  const [note, setNote] = useState("");
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (mode === "rename") inputRef.current?.select();
  }, [mode]);

  const commitRename = async () => {
    setMode("view");
    if (title.trim() && title.trim() !== s.title) await c.sessions.rename(s.id, title);
  };

  const doExport = async (format: "md" | "json") => {
    const path = await c.sessions.exportTo(s.id, format);
    setNote(path ? `Saved to ${path}` : "");
    if (path) setTimeout(() => setNote(""), 4000);
  };

  return (
    <li
      data-testid="session-item"
      data-session-id={s.id}
      data-state={state}
      data-branch={s.branch || undefined}
      data-elsewhere={s.elsewhere ? s.elsewhere.pid : undefined}
      className={`session-item state-${state}${active ? " active" : ""}`}
    >
      {mode === "rename" ? (
        <input
          ref={inputRef}
          className="rename-input"
          aria-label="Session title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          onBlur={() => void commitRename()}
          onKeyDown={(e) => {
            if (e.key === "Enter") void commitRename();
            if (e.key === "Escape") {
              setTitle(s.title);
              setMode("view");
            }
          }}
        />
      ) : (
        <button
          type="button"
          className="list-button"
          aria-current={active ? "true" : undefined}
          onClick={() => void c.openSession(s.id)}
          onDoubleClick={() => setMode("rename")}
          title={sentence}
        >
          <span className="item-head">
            <span className="session-state" aria-hidden="true" />
            <span className="item-title">{s.title || "Untitled session"}</span>
            {changes > 0 && (
              <span className="session-waiting" data-testid="session-waiting" aria-hidden="true">
                {changes}
              </span>
            )}
          </span>
          {state !== "idle" && (
            <span className="sr-only">
              {sentence}
              {changes > 0 ? ` ${changes === 1 ? "One change waits" : `${changes} changes wait`} for your review.` : ""}
            </span>
          )}
          {s.branch && (
            <span className="item-branch" title={s.worktree ? `A worktree session on the branch ${s.branch}, in ${s.worktree}` : `On the branch ${s.branch}`}>
              ⎇ {s.branch}
            </span>
          )}
          <span className="item-sub">
            <time dateTime={new Date(s.updatedAt).toISOString()}>{relativeTime(s.updatedAt)}</time>
            {" · "}
            {formatTokens(tokens)} tok{s.costUsd > 0 ? ` · ${formatCost(s.costUsd)}` : ""}
          </span>
        </button>
      )}
      {mode === "confirm_delete" && (
        <ConfirmDialog
          title="Delete this session?"
          acceptLabel="Delete"
          cancelLabel="Keep"
          danger
          onAccept={() => void c.sessions.remove(s.id)}
          onCancel={() => setMode("view")}
        >
          <p>
            “{s.title || "Untitled session"}” and its conversation are deleted{state !== "idle" ? ", and its running turn is stopped" : ""}.
            {s.branch && !s.worktreeDiscarded && (
              <span className="hint" data-testid="session-delete-worktree">
                {" "}
                Its worktree and branch {s.branch} go too (unless a fork of it still works there), with any work in them you have not merged.
              </span>
            )}
          </p>
        </ConfirmDialog>
      )}
      {mode === "view" && (
        <div className="item-actions">
          <button type="button" className="icon" aria-label="Rename session" title="Rename this session" onClick={() => { setTitle(s.title); setMode("rename"); }}>
            <span aria-hidden="true">✎</span>
          </button>
          <button type="button" className="icon" aria-label="Export as Markdown" title="Export this session as Markdown (.md)" onClick={() => void doExport("md")}>
            <span aria-hidden="true">MD</span>
          </button>
          <button type="button" className="icon" aria-label="Export as JSON" title="Export this session as JSON (pilot sessions import reads it)" onClick={() => void doExport("json")}>
            <span aria-hidden="true">{"{}"}</span>
          </button>
          <button type="button" className="icon" aria-label="Delete session" title="Delete this session" onClick={() => setMode("confirm_delete")}>
            <span aria-hidden="true">✕</span>
          </button>
        </div>
      )}
      {note && (
        <p className="item-note" role="status">
          {note}
        </p>
      )}
    </li>
  );
}

export default memo(SessionItem);
