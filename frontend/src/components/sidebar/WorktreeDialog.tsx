import { useState, type FormEvent } from "react";
import { errorText } from "../../lib/format";
import { useController } from "../../state/context";
import Modal from "../Modal";

interface Props {
  onClose: () => void;
}

/**
 * "New session in a new worktree": asks for the worktree's name (it
 * becomes the branch pilot/NAME and the folder under Pilot's data), then
 * starts the session there. The backend checks the name; its sentence (a
 * bad or taken name, a folder outside git, no git) shows here and what
 * was typed stays.
 */
export default function WorktreeDialog({ onClose }: Props) {
  const c = useController();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const trimmed = name.trim();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!trimmed || busy) return;
    setBusy(true);
    setError(null);
    try {
      await c.newWorktreeSession(trimmed);
      onClose();
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <Modal title="New session in a new worktree" onClose={onClose} testId="worktree-dialog">
      <form className="worktree-form" onSubmit={(e) => void submit(e)}>
        <p className="hint">
          The session works in its own git worktree, on a new branch made from the project's current commit. Your folder stays as it is until you
          merge the branch.
        </p>
        <label htmlFor="worktree-name">Worktree name</label>
        <input
          id="worktree-name"
          data-testid="worktree-name"
          autoFocus
          autoComplete="off"
          spellCheck={false}
          placeholder="fix-login"
          value={name}
          aria-invalid={error ? "true" : undefined}
          aria-describedby={error ? "worktree-error" : "worktree-branch"}
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
        />
        <p className="hint" id="worktree-branch">
          Branch: <code>pilot/{trimmed || "NAME"}</code>
        </p>
        {error && (
          <p className="field-error" id="worktree-error" data-testid="worktree-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" data-testid="worktree-create" disabled={!trimmed || busy}>
            {busy ? "Making the worktree…" : "Start session"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
