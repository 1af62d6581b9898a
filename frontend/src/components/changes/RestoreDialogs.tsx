// The dialogs of undoing: the rewind menu of a user message, and the
// conflicts a revert or rewind met (files changed outside Pilot since):
// each file's two versions as a highlighted diff, and a choice in words.
import { Suspense } from "react";
import { later } from "../../lib/later";
import type { Conflict, FileDiff, Resolution, RewindMode } from "../../lib/wire.gen";
import { useApp, useController } from "../../state/context";
import type { RestoreFlow, RestoreRequest } from "../../state/ledgerState";
import Modal from "../Modal";
import DiffPath from "../review/DiffPath";

// Loaded with the first conflict shown as a diff: it brings highlight.js.
const ConflictDiff = later(() => import("./ConflictDiff"));

const choices: { mode: RewindMode; label: string; hint: string }[] = [
  { mode: "code", label: "Restore code only", hint: "The files go back to how they were before this message; the conversation stays as it is." },
  {
    mode: "both",
    label: "Restore code and conversation",
    hint: "The files go back, and the conversation continues in a fork from before this message. This branch stays in the session list.",
  },
  { mode: "conversation", label: "Restore conversation only", hint: "The conversation continues in a fork from before this message; the files stay as they are." },
];

function RewindMenu({ running }: { running: boolean }) {
  const c = useController();
  return (
    <Modal title="Rewind to before this message" onClose={() => c.ledger.cancel()} testId="rewind-menu">
      <div className="rewind-choices">
        {choices.map((ch) => (
          <button key={ch.mode} type="button" className="rewind-choice" data-testid={`rewind-${ch.mode}`} disabled={running} onClick={() => void c.ledger.rewind(ch.mode)}>
            <strong>{ch.label}</strong>
            <span className="muted">{ch.hint}</span>
          </button>
        ))}
      </div>
      <div className="modal-actions">
        {running && <span className="muted" role="status">Rewinding…</span>}
        <button type="button" onClick={() => c.ledger.cancel()} disabled={running}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}

/** One side of a conflict as text, where it cannot be a diff (deleted, binary, not kept). */
function Version({ title, diff, gone }: { title: string; diff: FileDiff; gone: string }) {
  return (
    <div className="version">
      <div className="version-title">{title}</div>
      {diff.missing ? (
        <p className="empty">{diff.missing}</p>
      ) : !diff.newExists ? (
        <p className="empty">{gone}</p>
      ) : diff.binary ? (
        <p className="empty">Binary file, not shown.</p>
      ) : (
        <pre className="version-text">{diff.newText || "(empty)"}</pre>
      )}
    </div>
  );
}

/** What the earlier version is, in the words of the restore the user asked for. */
const earlier: Record<RestoreRequest["kind"], { title: string; use: string }> = {
  rewind: { title: "Before this message", use: "Use the version from before this message" },
  checkpoint: { title: "Before this change", use: "Use the version from before this change" },
  file: { title: "Before this session", use: "Use the version from before this session" },
};

const MINE = "Yours, on disk now";

function ConflictRow({ conflict, resolution, kind }: { conflict: Conflict; resolution: Resolution | undefined; kind: RestoreRequest["kind"] }) {
  const c = useController();
  const pick = (r: Resolution) => void c.ledger.resolve(conflict.path, r);
  const then = earlier[kind];
  const d = conflict.checkpoint; // the file on disk now → the earlier version
  const asDiff = !d.missing && !d.binary && d.oldExists && d.newExists;
  return (
    <section className="conflict" data-testid="rewind-conflict" data-path={conflict.path} data-resolution={resolution} aria-label={`Conflict in ${conflict.path}`}>
      <header className="conflict-head">
        <DiffPath path={conflict.path} />
        <button type="button" className={`small${resolution === "mine" ? " primary" : ""}`} data-testid="rewind-keep-mine" aria-pressed={resolution === "mine"} onClick={() => pick("mine")}>
          Keep my current file
        </button>
        <button
          type="button"
          className={`small${resolution === "checkpoint" ? " primary" : ""}`}
          data-testid="rewind-take-checkpoint"
          aria-pressed={resolution === "checkpoint"}
          onClick={() => pick("checkpoint")}
        >
          {then.use}
        </button>
      </header>
      {asDiff ? (
        d.hunks.length === 0 ? (
          <p className="empty">The two versions are the same.</p>
        ) : (
          <Suspense fallback={null}>
            <ConflictDiff diff={d} mine={MINE} theirs={then.title} />
          </Suspense>
        )
      ) : (
        <div className="versions">
          <Version title={MINE} diff={conflict.mine} gone="No file: it is deleted on disk." />
          <Version title={then.title} diff={conflict.checkpoint} gone="No file: going back deletes it." />
        </div>
      )}
    </section>
  );
}

function Conflicts({ flow }: { flow: Extract<RestoreFlow, { phase: "conflicts" }> }) {
  const c = useController();
  const n = flow.conflicts.length;
  return (
    <Modal title={n === 1 ? "A file changed outside Pilot" : `${n} files changed outside Pilot`} onClose={() => c.ledger.cancel()} testId="restore-conflicts" wide className="conflicts">
      <p className="muted">
        Since Pilot last wrote {n === 1 ? "this file" : "these files"}, something else changed {n === 1 ? "it" : "them"}: you, in an editor, or another program. For each
        file, keep yours as it is now or go back to the earlier version; nothing is written until every file is decided.
      </p>
      {flow.conflicts.map((cf) => (
        <ConflictRow key={cf.path} conflict={cf} resolution={flow.resolutions[cf.path]} kind={flow.request.kind} />
      ))}
      <div className="modal-actions">
        <button type="button" onClick={() => c.ledger.cancel()}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}

/** Whichever dialog the restore under way needs. */
export default function RestoreDialogs() {
  const flow = useApp((s) => s.restore);
  if (flow.phase === "choosing") return <RewindMenu running={false} />;
  if (flow.phase === "running" && flow.request.kind === "rewind" && Object.keys(flow.resolutions).length === 0) return <RewindMenu running />;
  if (flow.phase === "conflicts") return <Conflicts flow={flow} />;
  return null;
}
