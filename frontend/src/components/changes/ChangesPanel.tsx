import { useState } from "react";
import { useApp, useController } from "../../state/context";
import { hasWorktree } from "../../state/layout";
import CommitDialog from "../git/CommitDialog";
import FileHistory from "./FileHistory";
import KindBadge from "./KindBadge";

/** Everything the open session changed: its files (net effect), one file's history on click. */
export default function ChangesPanel() {
  const c = useController();
  const sessionId = useApp((s) => s.session?.id ?? null);
  const { status, ledger, error } = useApp((s) => s.ledger);
  const path = useApp((s) => s.changesPath);
  const worktree = useApp(hasWorktree);
  const [committing, setCommitting] = useState(false);
  const [committed, setCommitted] = useState<string | null>(null);

  if (sessionId === null) return <p className="empty pad">Open a session to see what it changed.</p>;
  const file = path === null ? undefined : ledger?.files.find((f) => f.path === path);
  // What a commit would hold: not the files the ledger only listed (in .git folders, ignored).
  const changedFiles = ledger?.files.filter((f) => f.kind !== "" && !f.listed).map((f) => f.path) ?? [];
  const changed = changedFiles.length;

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
              {!worktree && changed > 0 && (
                <>
                  {" "}
                  <button
                    type="button"
                    className="small"
                    data-testid="changes-commit"
                    title="Stage only the files this session changed and commit them in your repository"
                    onClick={() => {
                      setCommitted(null);
                      setCommitting(true);
                    }}
                  >
                    Commit…
                  </button>
                </>
              )}
            </p>
            {committed && (
              <p className="notice-line pad" role="status" data-testid="changes-committed">
                {committed}
              </p>
            )}
            <ul className="changes-list" aria-label="Changed files">
              {ledger.files.map((f) => (
                <li key={f.path}>
                  <button
                    type="button"
                    className="changes-file"
                    data-testid="changes-file"
                    data-path={f.path}
                    data-kind={f.kind}
                    data-runs-code={f.runsCode ? "true" : "false"}
                    data-kept={f.listed ? "false" : "true"}
                    title={`Show the changes to ${f.path}`}
                    onClick={() => c.ledger.showChanges(f.path)}
                  >
                    <KindBadge kind={f.kind} />
                    <span className="changes-path">{f.path}</span>
                    {f.runsCode && (
                      <span className="badge runs-code" data-testid="runs-code" title={`Can run code: ${f.runsCode}`}>
                        can run code
                      </span>
                    )}
                    {f.listed && (
                      <span className="muted small-text" title="The ledger lists this file but did not keep its content: it cannot be undone from Pilot">
                        not kept
                      </span>
                    )}
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
      {committing && (
        <CommitDialog
          sessionId={sessionId}
          title="Commit this session's files"
          onClose={() => setCommitting(false)}
          onDone={(r) => {
            setCommitting(false);
            setCommitted(`Committed ${r.commit}: ${r.files.length} file${r.files.length === 1 ? "" : "s"} (${r.files.join(", ")}).`);
          }}
        >
          <p>
            Stages only the {changed === 1 ? "file" : `${changed} files`} this session changed and commits {changed === 1 ? "it" : "them"} in your repository; your other changes stay uncommitted.
          </p>
          <ul className="commit-files">
            {changedFiles.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        </CommitDialog>
      )}
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
