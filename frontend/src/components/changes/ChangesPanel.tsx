import { useApp, useController } from "../../state/context";
import FileHistory from "./FileHistory";
import KindBadge from "./KindBadge";

/** Everything the open session changed: its files (net effect), one file's history on click. */
export default function ChangesPanel() {
  const c = useController();
  const sessionId = useApp((s) => s.session?.id ?? null);
  const { status, ledger, error } = useApp((s) => s.ledger);
  const path = useApp((s) => s.changesPath);

  if (sessionId === null) return <p className="empty pad">Open a session to see what it changed.</p>;
  const file = path === null ? undefined : ledger?.files.find((f) => f.path === path);
  const changed = ledger?.files.filter((f) => f.kind !== "").length ?? 0;

  return (
    <div className="changes-panel" data-testid="changes-view" data-status={status}>
      <div className="changes-list-wrap" hidden={path !== null}>
        {status === "failed" && (
          <p className="error pad">
            Could not load the changes: {error}{" "}
            <button type="button" className="small" onClick={() => void c.ledger.load(sessionId)}>
              Try again
            </button>
          </p>
        )}
        {!ledger && status === "loading" && <p className="empty pad">Loading the changes…</p>}
        {ledger && ledger.files.length === 0 && <p className="empty pad">Nothing changed yet. Approved changes and commands are listed here, to review and undo.</p>}
        {ledger && ledger.files.length > 0 && (
          <>
            <p className="muted small-text pad">
              {changed} file{changed === 1 ? "" : "s"} changed by this session · {ledger.checkpoints.length} step{ledger.checkpoints.length === 1 ? "" : "s"}
            </p>
            <ul className="changes-list" aria-label="Changed files">
              {ledger.files.map((f) => (
                <li key={f.path}>
                  <button
                    type="button"
                    className="changes-file"
                    data-testid="changes-file"
                    data-path={f.path}
                    data-kind={f.kind}
                    title={`Show the changes to ${f.path}`}
                    onClick={() => c.ledger.showChanges(f.path)}
                  >
                    <KindBadge kind={f.kind} />
                    <span className="changes-path">{f.path}</span>
                    <span className="muted small-text">
                      {f.checkpoints.length} step{f.checkpoints.length === 1 ? "" : "s"}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      {path !== null && ledger && file && <FileHistory file={file} ledger={ledger} />}
      {path !== null && ledger && !file && (
        <div className="pad">
          <p className="empty">{path} was not changed in this session.</p>
          <button type="button" className="small" onClick={() => c.ledger.showChanges(null)}>
            ← Changes
          </button>
        </div>
      )}
    </div>
  );
}
