import type { ReactNode } from "react";
import Modal from "./Modal";

interface Props {
  title: string;
  /** What accepting does, in sentences: name what it touches. */
  children: ReactNode;
  acceptLabel: string;
  cancelLabel?: string;
  /** Accepting destroys something: the button says so. */
  danger?: boolean;
  /** The accepted action runs: both buttons wait. */
  busy?: boolean;
  /** Why the action failed, shown under the text (the dialog stays open to try again). */
  error?: string | null;
  onAccept: () => void;
  onCancel: () => void;
}

/** Any confirmation: a sentence of what will happen, Cancel (focused first, and Esc) and the action. */
export default function ConfirmDialog({ title, children, acceptLabel, cancelLabel = "Cancel", danger, busy, error, onAccept, onCancel }: Props) {
  return (
    <Modal title={title} onClose={() => !busy && onCancel()} testId="confirm-dialog">
      <div className="confirm-text">{children}</div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" data-testid="confirm-cancel" disabled={busy} onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className={danger ? "danger" : "primary"} data-testid="confirm-accept" disabled={busy} aria-busy={busy} onClick={onAccept}>
          {acceptLabel}
        </button>
      </div>
    </Modal>
  );
}
