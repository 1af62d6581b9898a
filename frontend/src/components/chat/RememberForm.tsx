import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useApp, useController } from "../../state/context";
import { useRead } from "../../lib/useRead";

/** Where a note goes: the project's instruction file (/remember) or the user's own, for every project (/remember-user). */
export type RememberScope = "project" | "user";

const commandOf: Record<RememberScope, string> = { project: "/remember", user: "/remember-user" };

/** How much of a message the form starts with: a note is a line, not a transcript. */
export const rememberLimit = 2000;

/** The message's text as the form starts with it: trimmed, and a long one cut at a word before the limit. */
export function rememberDraft(text: string): { text: string; cutFrom: number | null } {
  const t = text.trim();
  if (t.length <= rememberLimit) return { text: t, cutFrom: null };
  const head = t.slice(0, rememberLimit);
  const space = head.search(/\s\S*$/);
  return { text: (space > rememberLimit / 2 ? head.slice(0, space) : head).trimEnd(), cutFrom: t.length };
}

/** The message the form sends: the built-in command of the scope with the note after it. */
export function rememberPrompt(scope: RememberScope, note: string): string {
  return `${commandOf[scope]} ${note.trim()}`;
}

/** Gives the focus back to the prompt box (PromptBox's textarea). */
function focusPrompt() {
  document.getElementById("prompt-input")?.focus();
}

/**
 * "Remember" on a message, opened in place under it: the note (the
 * message's text to start with), where it goes, and Propose, which sends
 * /remember or /remember-user the way the prompt box sends a message
 * (queued while a turn runs). The agent proposes the edit; the review
 * shows it before anything is written.
 */
export default function RememberForm({ text, onClose }: { text: string; onClose: () => void }) {
  const c = useController();
  const queued = useApp((s) => (s.session ? s.session.id in s.queued : false));
  const sessionId = useApp((s) => s.session?.id ?? 0);
  // The files the two scopes add to, as the backend names them (null until known, or when it cannot say).
  const files = useRead(() => c.backend.rememberFiles(sessionId), [c, sessionId]).value;
  const [start] = useState(() => rememberDraft(text));
  const [note, setNote] = useState(start.text);
  const [scope, setScope] = useState<RememberScope>("project");
  const ref = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus({ preventScroll: true });
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);

  const empty = note.trim() === "";
  const close = () => {
    onClose();
    focusPrompt();
  };
  const propose = () => {
    if (empty) return;
    void c.chat.submitPrompt({ text: rememberPrompt(scope, note), attachments: [], images: [] });
    close();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      propose();
    }
  };

  return (
    <form
      className="remember-form"
      data-testid="memory-remember-form"
      aria-label="Remember"
      onKeyDown={onKeyDown}
      onSubmit={(e) => {
        e.preventDefault();
        propose();
      }}
    >
      <label className="remember-label" htmlFor={`${id}-text`}>
        Remember
      </label>
      <textarea id={`${id}-text`} ref={ref} data-testid="memory-remember-text" rows={Math.min(6, Math.max(2, note.split("\n").length))} value={note} onChange={(e) => setNote(e.target.value)} />
      {start.cutFrom !== null && (
        <p className="hint" data-testid="memory-remember-cut">
          Cut to its first {start.text.length.toLocaleString("en")} of {start.cutFrom.toLocaleString("en")} characters: keep what should be remembered.
        </p>
      )}
      {empty && (
        <p className="field-error" role="alert" data-testid="memory-remember-empty">
          Nothing to remember: write the note first, an empty one is not sent.
        </p>
      )}
      <fieldset className="remember-scope" data-testid="memory-remember-scope">
        <legend className="sr-only">Where to remember it</legend>
        <label>
          <input type="radio" name={`${id}-scope`} value="project" checked={scope === "project"} onChange={() => setScope("project")} />
          This project{files ? ` (${files.project})` : ""}
        </label>
        <label>
          <input type="radio" name={`${id}-scope`} value="user" checked={scope === "user"} onChange={() => setScope("user")} />
          All my projects{files ? ` (${files.user})` : ""}
        </label>
      </fieldset>
      <div className="remember-actions">
        <span className="hint">
          {queued ? "A message is already queued: this one replaces it. " : ""}The agent proposes the edit; you review it before anything is written.
        </span>
        <button type="button" className="small" data-testid="memory-remember-cancel" onClick={close} title="Cancel (Esc)">
          Cancel
        </button>
        <button type="submit" className="small primary" data-testid="memory-remember-send" disabled={empty} title="Propose (Ctrl+Enter)">
          Propose
        </button>
      </div>
    </form>
  );
}
