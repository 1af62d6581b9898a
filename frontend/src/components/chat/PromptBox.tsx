import { useCallback, useRef, useState, useLayoutEffect, type ClipboardEvent, type DragEvent, type KeyboardEvent } from "react";
import { useReclaimFocus } from "../../lib/focus";
import { imageFiles, readImage, type Attached } from "../../lib/images";
import { useApp, useController } from "../../state/context";
import { reviewNow, reviewScope } from "../../state/findings";
import { chatShown, hasWorktree } from "../../state/layout";
import { lastUserPrompt } from "../../state/chat";
import FilePicker from "./FilePicker";
import ModeSelect from "../plan/ModeSelect";
import ModelPicker from "./ModelPicker";
import SlashPicker, { builtinCommands, matchCommands } from "./SlashPicker";
import { pickerKey } from "./pickerKey";
import type { PickerCommand } from "../../lib/types";
import type { SlashCommand } from "../../lib/wire.gen";

const mentionRe = /(^|\s)@([^\s@]*)$/;
const slashRe = /^\/(\S*)$/;

export default function PromptBox() {
  const c = useController();
  const project = useApp((s) => s.project);
  const sessionId = useApp((s) => s.session?.id ?? null);
  const worktree = useApp(hasWorktree);
  const turn = useApp((s) => s.session?.turn ?? "idle");
  const queued = useApp((s) => (sessionId !== null ? s.queued[sessionId] : undefined));
  const [text, setText] = useState("");
  const [attachments, setAttachments] = useState<string[]>([]);
  const [images, setImages] = useState<Attached[]>([]);
  const [imageError, setImageError] = useState("");
  const [dragging, setDragging] = useState(false);
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const results = useRef<string[]>([]);
  const [slash, setSlash] = useState<string | null>(null);
  const [custom, setCustom] = useState<SlashCommand[] | null>(null);
  const slashItems = slash === null || custom === null ? null : matchCommands(custom, slash);
  const ref = useRef<HTMLTextAreaElement>(null);
  // Where a pick puts the caret: set in the same commit as the new text
  // (a layout effect runs before the browser handles the next key), so
  // what the user types next lands after the inserted text, in order.
  const caretAt = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (caretAt.current === null || !el) return;
    el.setSelectionRange(caretAt.current, caretAt.current);
    caretAt.current = null;
  });
  // Each session keeps its own draft: left in one, found again on return.
  // What was typed before any session existed stays, for the session it starts.
  const draft = useRef({ text, attachments, images });
  draft.current = { text, attachments, images };
  const shown = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (sessionId === null) return;
    const d = c.memory.draft(sessionId);
    if (d || shown.current !== null) {
      setText(d?.text ?? "");
      setAttachments(d?.attachments ?? []);
      setImages(d?.images ?? []);
    }
    shown.current = sessionId;
    return () => c.memory.keepDraft(sessionId, draft.current);
  }, [c, sessionId]);
  const running = turn !== "idle";
  useReclaimFocus(ref, useApp(chatShown));

  const onResults = useCallback((r: string[]) => {
    results.current = r;
    setActive(0);
  }, []);

  const updateSlash = (value: string, caret: number) => {
    const m = slashRe.exec(value.slice(0, caret));
    if (!m) {
      setSlash(null);
      return;
    }
    // A bare "/" preselects nothing, so Enter cannot run a command the
    // user did not choose; the first match is preselected once they type.
    if (m[1] !== slash) setActive(m[1] ? 0 : -1);
    if (slash === null) {
      setCustom(null);
      c.backend
        .listSlashCommands(sessionId ?? 0)
        .then(setCustom)
        .catch(() => setCustom([]));
    }
    setSlash(m[1] ?? "");
  };

  /** Runs a built-in command; false when text is not one. */
  const runBuiltin = (name: string): boolean => {
    if (name === "compact") void c.chat.compact();
    else if (name === "new") void c.newSession();
    // A command of the user's named review replaces the built-in one, as for /init.
    else if (name === "review" && sessionId !== null && !custom?.some((o) => o.name === "review")) void reviewNow(c, sessionId, reviewScope("/review", worktree)!);
    else return false;
    setText("");
    setSlash(null);
    return true;
  };

  const pickCommand = (cmd: PickerCommand) => {
    if (cmd.source === "builtin" && runBuiltin(cmd.name)) return;
    const next = `/${cmd.name} `;
    setText(next);
    setSlash(null);
    caretAt.current = next.length;
  };

  const updateMention = (value: string, caret: number) => {
    const m = mentionRe.exec(value.slice(0, caret));
    if (m && project) setMention({ start: caret - (m[2]?.length ?? 0) - 1, query: m[2] ?? "" });
    else setMention(null);
  };

  const pick = (path: string) => {
    const el = ref.current;
    if (!mention || !el) return;
    const caret = el.selectionStart ?? text.length;
    const next = `${text.slice(0, mention.start)}@${path} ${text.slice(caret)}`;
    setText(next);
    setAttachments((a) => (a.includes(path) ? a : [...a, path]));
    setMention(null);
    caretAt.current = mention.start + path.length + 2;
  };

  /** Attaches the images of a paste or a drop; reports true when there were any. */
  const attach = (dt: DataTransfer | null): boolean => {
    const files = imageFiles(dt);
    if (files.length === 0) return false;
    setImageError("");
    for (const f of files)
      readImage(f).then(
        (img) => setImages((x) => [...x, img]),
        (err: unknown) => setImageError(err instanceof Error ? err.message : String(err)),
      );
    return true;
  };
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    if (attach(e.clipboardData)) e.preventDefault(); // text pastes as usual
  };
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    setDragging(false);
    if (imageFiles(e.dataTransfer).length === 0) return;
    e.preventDefault();
    attach(e.dataTransfer);
  };

  const submit = () => {
    const t = text.trim();
    if (!t && images.length === 0) return;
    const only = /^\/(\S+)$/.exec(t);
    const scope = images.length === 0 ? reviewScope(t, worktree) : null;
    if (scope && !only && sessionId !== null && !custom?.some((o) => o.name === "review")) {
      void reviewNow(c, sessionId, scope);
      setText("");
      return;
    }
    if (images.length === 0 && only && builtinCommands.some((b) => b.name === only[1]) && runBuiltin(only[1]!)) return;
    void c.chat.submitPrompt({ text: t, attachments, images: images.map(({ mediaType, data }) => ({ mediaType, data })) });
    setText("");
    setAttachments([]);
    setImages([]);
    setImageError("");
    setMention(null);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (e.key === "Tab" && e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey) {
      e.preventDefault();
      void c.plan.cycle();
      return;
    }
    if (slash !== null && slashItems) {
      const items = slashItems;
      const n = items.length;
      // Nothing is chosen after a bare "/" (-1): ↑ goes to the last, Enter picks nothing.
      const up = (a: number) => (a < 0 ? n - 1 : (a - 1 + n) % n);
      const choose = () => {
        if (active >= 0) pickCommand(items[Math.min(active, n - 1)]!);
      };
      if (pickerKey(e, { n, setActive, up, pick: choose, close: () => setSlash(null) })) return;
    }
    if (mention) {
      const n = results.current.length;
      if (pickerKey(e, { n, setActive, up: (a) => (a - 1 + n) % n, pick: () => pick(results.current[Math.min(active, n - 1)]!), close: () => setMention(null) })) return;
    }
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      submit();
      return;
    }
    if (e.key === "ArrowUp" && text === "") {
      const s = c.state.session;
      const last = (sessionId !== null ? c.state.lastPrompt[sessionId] : undefined) ?? (s ? lastUserPrompt(s) : null);
      if (last) {
        e.preventDefault();
        setText(last.text);
        setAttachments(last.attachments);
      }
    }
  };

  return (
    <div
      className={`prompt${dragging ? " dragging" : ""}`}
      onDragOver={(e) => {
        if ([...e.dataTransfer.types].includes("Files")) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {queued && (
        <div className="queued" data-testid="queued" role="status">
          <span className="queued-label">Queued — sent when this turn ends:</span>
          <span className="queued-text">{queued.text}</span>
          <button
            type="button"
            className="small"
            onClick={() => {
              const q = sessionId !== null ? c.chat.unqueue(sessionId) : null;
              if (q && !text) {
                setText(q.text);
                setAttachments(q.attachments);
              }
            }}
          >
            Edit
          </button>
        </div>
      )}
      {attachments.length > 0 && (
        <ul className="attachments" aria-label="Attached files">
          {attachments.map((a) => (
            <li key={a} className="chip" data-testid="attachment">
              <span>{a}</span>
              <button type="button" className="icon" aria-label={`Remove ${a}`} onClick={() => setAttachments((x) => x.filter((p) => p !== a))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {images.length > 0 && (
        <ul className="attachments image-attachments" aria-label="Attached images">
          {images.map((img, i) => (
            <li key={`${i}-${img.name}`} className="thumb">
              <img data-testid="image-attachment" src={img.url} alt={img.name} title={img.name} />
              <button type="button" className="icon" aria-label={`Remove ${img.name}`} onClick={() => setImages((x) => x.filter((_, j) => j !== i))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {imageError && (
        <p className="image-error" role="alert" data-testid="image-error">
          {imageError}
        </p>
      )}
      <div className="prompt-box">
        {slash !== null && <SlashPicker items={slashItems} query={slash} active={active} onPick={pickCommand} />}
        {mention && project && (
          <FilePicker projectId={project.id} query={mention.query} active={active} onResults={onResults} onPick={pick} />
        )}
        <textarea
          ref={ref}
          id="prompt-input"
          data-testid="chat-input"
          aria-label="Message"
          placeholder={running ? "The agent is working — type to queue a message" : "Ask or describe a change (@ file, / command)"}
          value={text}
          rows={Math.min(10, text.split("\n").length)}
          aria-expanded={mention || slash !== null ? true : undefined}
          aria-controls={slash !== null ? "slash-picker" : mention ? "file-picker" : undefined}
          aria-activedescendant={slash !== null ? (active >= 0 ? `slash-${active}` : undefined) : mention ? `pick-${active}` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            const caret = e.target.selectionStart ?? e.target.value.length;
            updateMention(e.target.value, caret);
            updateSlash(e.target.value, caret);
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={() => {
            setMention(null);
            setSlash(null);
          }}
        />
        <div className="prompt-actions">
          <ModelPicker onDone={() => ref.current?.focus()} />
          <ModeSelect />
          {running && (
            <button type="button" className="danger-outline" data-testid="chat-cancel" onClick={() => void c.chat.cancel()} title="Stop (Esc)">
              ■ Stop
            </button>
          )}
          <button type="button" className="primary" data-testid="chat-send" disabled={running || (!text.trim() && images.length === 0)} onClick={submit}>
            Send
          </button>
        </div>
      </div>
    </div>
  );
}
