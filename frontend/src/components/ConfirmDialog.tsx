import type { ReactNode } from "react";
import Modal from "./Modal";
import FormNote from "./FormNote";

/**
 * Test ids a confirmation carries as well as the confirm-* ones (the quit
 * question keeps its quit-* ids): each on a wrapper around the element with
 * the confirm-* id, so both name the same dialog and click the same button.
 */
export interface ConfirmAliases {
  dialog: string;
  accept: string;
  cancel: string;
}

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
  aliases?: ConfirmAliases;
  onAccept: () => void;
  onCancel: () => void;
}

interface ActionProps {
  testId: string;
  alias?: string;
  className?: string;
  busy?: boolean;
  /** The button that runs the action says it is busy (aria-busy). */
  runs?: boolean;
  onClick: () => void;
  children: ReactNode;
}

/** One of the two buttons; with an alias, the wrapper carrying it takes the click (a click on the button reaches it too). */
function Action({ testId, alias, className, busy, runs, onClick, children }: ActionProps) {
  const button = (
    <button type="button" className={className} data-testid={testId} disabled={busy} aria-busy={runs ? busy : undefined} onClick={alias ? undefined : onClick}>
      {children}
    </button>
  );
  if (!alias) return button;
  return (
    <span className="confirm-alias" data-testid={alias} onClick={() => !busy && onClick()}>
      {button}
    </span>
  );
}

/** Any confirmation: a sentence of what will happen, Cancel (focused first, and Esc) and the action. */
export default function ConfirmDialog({ title, children, acceptLabel, cancelLabel = "Cancel", danger, busy, error, aliases, onAccept, onCancel }: Props) {
  return (
    <Modal title={title} onClose={() => !busy && onCancel()} testId="confirm-dialog" outerTestId={aliases?.dialog}>
      <div className="confirm-text">{children}</div>
      <FormNote text={error} />
      <div className="modal-actions">
        <Action testId="confirm-cancel" alias={aliases?.cancel} busy={busy} onClick={onCancel}>
          {cancelLabel}
        </Action>
        <Action testId="confirm-accept" alias={aliases?.accept} className={danger ? "danger" : "primary"} busy={busy} runs onClick={onAccept}>
          {acceptLabel}
        </Action>
      </div>
    </Modal>
  );
}
