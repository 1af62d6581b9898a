import { useEffect, useState, type ReactNode } from "react";
import { useBackend } from "../../lib/backend";
import { errorText } from "../../lib/format";
import { useReportError } from "../../lib/useReportError";
import type { CommitResult } from "../../lib/wire.gen";
import Modal from "../Modal";
import FormNote from "../FormNote";

interface Props {
  sessionId: number;
  title: string;
  /** What the commit takes and where it goes. */
  children: ReactNode;
  onClose: () => void;
  onDone: (r: CommitResult) => void;
}

/**
 * A commit of a session's work: the message is drafted by the session's
 * model (DraftCommitMessage) and stays the user's to edit; typing before the
 * draft arrives keeps what was typed.
 */
export default function CommitDialog({ sessionId, title, children, onClose, onDone }: Props) {
  const backend = useBackend();
  const [message, setMessage] = useState("");
  const [drafting, setDrafting] = useState(true);
  const [draftError, setDraftError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useReportError("commit", error, sessionId);

  useEffect(() => {
    let live = true;
    backend
      .draftCommitMessage(sessionId)
      .then((m) => live && setMessage((typed) => (typed === "" ? m : typed)))
      .catch((err: unknown) => live && setDraftError(`No message was drafted: ${errorText(err)} Write one below.`))
      .finally(() => live && setDrafting(false));
    return () => {
      live = false;
    };
  }, [backend, sessionId]);

  const commit = async () => {
    setBusy(true);
    setError(null);
    try {
      onDone(await backend.commitSession(sessionId, message));
    } catch (err) {
      setError(`Nothing was committed: ${errorText(err)}`);
      setBusy(false);
    }
  };

  return (
    <Modal title={title} onClose={() => !busy && onClose()} testId="commit-dialog" wide>
      <div className="confirm-text">{children}</div>
      <label className="commit-message">
        <span>Commit message{drafting ? " (the model is drafting one…)" : ""}</span>
        <textarea
          data-testid="commit-message"
          rows={8}
          spellCheck
          value={message}
          disabled={busy}
          aria-busy={drafting}
          placeholder={drafting ? "Drafting…" : "What this commit does, and why"}
          onChange={(e) => setMessage(e.target.value)}
        />
      </label>
      <p className="muted" data-testid="commit-no-hooks">
        Pilot's git runs none of the repository's hooks (pre-commit, commit-msg…) nor the programs its own configuration names (filters, a
        signing program): they are code the project folder controls. Commit in a terminal to run them.
      </p>
      {draftError && (
        <p className="muted" data-testid="commit-draft-error">
          {draftError}
        </p>
      )}
      <FormNote text={error} />
      <div className="modal-actions">
        <button type="button" data-testid="commit-cancel" disabled={busy} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" data-testid="commit-accept" disabled={busy || message.trim() === ""} aria-busy={busy} onClick={() => void commit()}>
          {busy ? "Committing…" : "Commit"}
        </button>
      </div>
    </Modal>
  );
}
