import { useEffect, useRef, useState } from "react";
import { useReportError } from "../../lib/useReportError";
import { errorText, relativeTime } from "../../lib/format";
import type { Checkpoint, CheckpointKind, FileDiff, Ledger, LedgerFile } from "../../lib/wire.gen";
import { useDiffLayout } from "../../lib/useDiffLayout";
import { useApp, useController } from "../../state/context";
import FileDiffView from "../review/FileDiffView";
import LayoutToggle, { type LayoutChoice } from "../review/LayoutToggle";
import KindBadge from "./KindBadge";
import DiffPath from "../review/DiffPath";
import { CommentNotes, ReviewSubmit } from "../review/LineComments";

const kindIcon: Record<CheckpointKind, { icon: string; name: string }> = {
  edit: { icon: "✎", name: "Edit" },
  command: { icon: "$", name: "Command" },
  revert: { icon: "↶", name: "Revert" },
  rewind: { icon: "⟲", name: "Rewind" },
};

/** Which diff is shown: the file from before the session to now, or one step. */
type Shown = { kind: "file" } | { kind: "checkpoint"; id: number };
type DiffState = { status: "loading" } | { status: "ready"; diff: FileDiff } | { status: "failed"; error: string };

function Step({ cp, path, shown, onShow }: { cp: Checkpoint; path: string; shown: boolean; onShow: () => void }) {
  const c = useController();
  const effect = cp.files.find((f) => f.path === path);
  const k = kindIcon[cp.kind];
  return (
    <li className={`step${cp.undone ? " undone" : ""}`} data-testid="changes-step" data-checkpoint-id={cp.id} data-kind={cp.kind}>
      <span className="step-icon" role="img" aria-label={k.name} title={k.name}>
        {k.icon}
      </span>
      <button type="button" className="link step-label" aria-pressed={shown} title="Show what this step did to the file" onClick={onShow}>
        {cp.label}
      </button>
      {effect && <span className={`badge op-${effect.op}`}>{effect.op}</span>}
      {effect?.runsCode && (
        <span className="badge runs-code" data-testid="runs-code" title={`Can run code: ${effect.runsCode}`}>
          can run code: {effect.runsCode}
        </span>
      )}
      <time className="muted small-text" dateTime={new Date(cp.createdAt).toISOString()} title={new Date(cp.createdAt).toLocaleString()}>
        {relativeTime(cp.createdAt)}
      </time>
      {cp.undone ? (
        <span className="badge">undone</span>
      ) : effect && !effect.kept ? (
        <span className="muted small-text" title={effect.why}>
          not revertable{effect.why ? `: ${effect.why}` : ""}
        </span>
      ) : (
        <button type="button" className="small" data-testid="change-revert" aria-label={`Revert “${cp.label}”`} title="Undo this step (all its files)" onClick={() => void c.ledger.revertCheckpoint(cp.id)}>
          ↶ Revert
        </button>
      )}
    </li>
  );
}

/** One changed file: its diff (cumulative or one step's), the steps that touched it, and undo. */
export default function FileHistory({ file, ledger }: { file: LedgerFile; ledger: Ledger }) {
  const c = useController();
  const sessionId = useApp((s) => s.session?.id ?? 0);
  const ref = useRef<HTMLDivElement>(null);
  const auto = useDiffLayout(ref);
  const [choice, setChoice] = useState<LayoutChoice>("auto");
  const [shown, setShown] = useState<Shown>({ kind: "file" });
  const [st, setSt] = useState<DiffState>({ status: "loading" });
  useReportError("changes", st.status === "failed" ? `Could not load the diff: ${st.error}` : null);
  const path = file.path;

  // Loads again when the ledger changes (a revert, a new step).
  useEffect(() => {
    let live = true;
    setSt((x) => (x.status === "ready" ? x : { status: "loading" }));
    const load = shown.kind === "file" ? c.backend.getFileDiff(sessionId, path) : c.backend.getCheckpointDiff(shown.id, path);
    load.then((diff) => live && setSt({ status: "ready", diff })).catch((err: unknown) => live && setSt({ status: "failed", error: errorText(err) }));
    return () => {
      live = false;
    };
  }, [c, sessionId, path, shown, ledger]);

  const steps = file.checkpoints.map((id) => ledger.checkpoints.find((cp) => cp.id === id)).filter((cp): cp is Checkpoint => !!cp);
  const toggle = (s: Shown) => setShown((cur) => (cur.kind === s.kind && (s.kind === "file" || (cur.kind === "checkpoint" && cur.id === s.id)) ? { kind: "file" } : s));
  return (
    <div className="file-history" ref={ref} data-testid="changes-detail" data-path={path}>
      <header className="preview-head">
        <button type="button" className="small" onClick={() => c.ledger.showChanges(null)} aria-label="Back to the changed files" autoFocus>
          ← Changes
        </button>
        <DiffPath path={path} />
        <KindBadge kind={file.kind} />
        {file.runsCode && (
          <span className="badge runs-code" title={`Can run code: ${file.runsCode}`}>
            can run code: {file.runsCode}
          </span>
        )}
      </header>
      <div className="history-body">
        <div className="history-tools">
          <span className="muted small-text">{shown.kind === "file" ? "Before the session → now" : "One step: before → after"}</span>
          <button
            type="button"
            className="small"
            data-testid="changes-revert-file"
            disabled={!file.revertable || file.kind === ""}
            title={
              file.listed
                ? "The ledger lists this file but did not keep its content: it cannot be undone from Pilot"
                : !file.revertable
                  ? "Some of its content was not kept: it cannot be restored"
                  : file.kind === ""
                    ? "The file is as it was before the session"
                    : "Put the file back as it was before the session"
            }
            onClick={() => void c.ledger.revertFile(path)}
          >
            ↶ Revert file
          </button>
          <LayoutToggle choice={choice} auto={auto} onChange={setChoice} />
        </div>
        {st.status === "loading" && <p className="empty">Loading the diff…</p>}
        {st.status === "failed" && <p className="error">Could not load the diff: {st.error}</p>}
        {st.status === "ready" && (
          <CommentNotes sessionId={sessionId} origin="changes" files={[st.diff]}>
            <ReviewSubmit sessionId={sessionId} />
            <FileDiffView diff={st.diff} layout={choice === "auto" ? auto : choice} />
          </CommentNotes>
        )}
        <h3 className="steps-title">Steps that touched it</h3>
        <ol className="steps">
          {steps.map((cp) => (
            <Step key={cp.id} cp={cp} path={path} shown={shown.kind === "checkpoint" && shown.id === cp.id} onShow={() => toggle({ kind: "checkpoint", id: cp.id })} />
          ))}
        </ol>
      </div>
    </div>
  );
}
