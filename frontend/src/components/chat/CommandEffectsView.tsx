import { useEffect, useRef, useState } from "react";
import { useReportError } from "../../lib/useReportError";
import { errorText } from "../../lib/format";
import type { CommandEffects, FileDiff } from "../../lib/wire.gen";
import { useDiffLayout } from "../../lib/useDiffLayout";
import { useController } from "../../state/context";
import FileDiffView from "../review/FileDiffView";
import FileMarks from "../changes/FileMarks";

type Shown = { status: "loading"; path: string } | { status: "ready"; diff: FileDiff } | { status: "failed"; path: string; error: string };

/** The files an approved command changed; one's diff on click. */
export default function CommandEffectsView({ effects, undone }: { effects: CommandEffects; undone: boolean }) {
  const c = useController();
  const ref = useRef<HTMLDivElement>(null);
  const layout = useDiffLayout(ref);
  const [shown, setShown] = useState<Shown | null>(null);
  useReportError("command card", shown?.status === "failed" ? `Could not load the diff of ${shown.path}: ${shown.error}` : null);
  const token = useRef(0);

  const show = (path: string) => {
    if (shown && ("path" in shown ? shown.path : shown.diff.path) === path) {
      setShown(null);
      return;
    }
    const t = ++token.current;
    setShown({ status: "loading", path });
    c.backend
      .getCheckpointDiff(effects.checkpointId, path)
      .then((diff) => t === token.current && setShown({ status: "ready", diff }))
      .catch((err: unknown) => t === token.current && setShown({ status: "failed", path, error: errorText(err) }));
  };
  useEffect(() => () => void token.current++, []);

  const open = shown ? ("path" in shown ? shown.path : shown.diff.path) : null;
  // What can run code first: git's own files must not push a planted hook below the fold.
  const files = [...effects.files].sort((a, b) => Number(!a.runsCode) - Number(!b.runsCode));
  const revertable = effects.files.some((f) => f.kept);
  return (
    <div className="command-effects" ref={ref} data-testid="command-effects">
      <div className="effects-head">
        <span>
          {effects.files.length === 0 && !effects.omitted ? "No files changed." : "Files this command changed:"}
        </span>
        {undone ? (
          <span className="badge" data-testid="change-undone">reverted</span>
        ) : (
          revertable && (
            <button type="button" className="small" data-testid="change-revert" title="Put back the files as they were before the command" onClick={() => void c.ledger.revertCheckpoint(effects.checkpointId)}>
              ↶ Revert this command
            </button>
          )
        )}
      </div>
      <ul className="effect-list">
        {files.map((f) => (
          <li key={f.path} data-testid="effect-file" data-path={f.path} data-op={f.op} data-kept={f.kept ? "true" : "false"} data-runs-code={f.runsCode ? "true" : "false"}>
            <button
              type="button"
              className="effect-path link"
              data-testid="command-file"
              data-path={f.path}
              data-kind={f.op}
              data-kept={f.kept ? "true" : "false"}
              data-runs-code={f.runsCode ? "true" : "false"}
              data-listed={f.listed ? "true" : "false"}
              aria-expanded={open === f.path}
              title={`Show what the command did to ${f.path}`}
              onClick={() => show(f.path)}
            >
              {f.path}
              {f.folder ? "/" : ""}
            </button>
            <span className={`badge op-${f.op}`}>{f.op}</span>
            <FileMarks runsCode={f.runsCode} kept={f.kept} why={f.why} />
          </li>
        ))}
        {(effects.omitted ?? 0) > 0 && (
          <li className="muted" data-testid="effects-omitted">
            …and {effects.omitted!.toLocaleString("en-US")} more not listed
          </li>
        )}
      </ul>
      {effects.note && (
        <p className="effects-note" data-testid="effects-note">
          {effects.note}
        </p>
      )}
      {shown?.status === "loading" && <p className="empty">Loading the diff…</p>}
      {shown?.status === "failed" && <p className="error">Could not load the diff of {shown.path}: {shown.error}</p>}
      {shown?.status === "ready" && <FileDiffView diff={shown.diff} layout={layout} />}
    </div>
  );
}
