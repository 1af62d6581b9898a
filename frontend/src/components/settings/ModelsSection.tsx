import { useEffect, useState, type KeyboardEvent } from "react";
import { errorText, formatTokens } from "../../lib/format";
import { factPhrases, perMillion, pricesText } from "../../lib/modelFacts";
import type { ModelFacts, ModelOverride, SettingsView } from "../../lib/wire.gen";
import { useApp, useController } from "../../state/context";
import FormNote from "../FormNote";

/** An override as typed: every field a string, "" for not stated. */
interface Draft {
  id: string;
  window: string;
  maxOutput: string;
  input: string;
  output: string;
  cacheRead: string;
  cacheWrite: string;
}

/** What is wrong with a draft, and the field it is in (none: the backend's sentence, about the whole override). */
interface Problem {
  text: string;
  field?: keyof Draft;
}

/** A draft's field that cannot be a value. */
class FieldProblem extends Error {
  constructor(
    readonly field: keyof Draft,
    text: string,
  ) {
    super(text);
  }
}

const empty: Draft = { id: "", window: "", maxOutput: "", input: "", output: "", cacheRead: "", cacheWrite: "" };

const price = (n: number | undefined) => (n ? String(n) : "");

function toDraft(o: ModelOverride): Draft {
  const p = o.prices;
  return {
    id: o.id,
    window: o.window ? String(o.window) : "",
    maxOutput: o.maxOutput ? String(o.maxOutput) : "",
    input: p ? String(p.input) : "",
    output: p ? String(p.output) : "",
    cacheRead: price(p?.cacheRead),
    cacheWrite: price(p?.cacheWrite),
  };
}

/** A count of tokens as typed ("262144", "262,144", "262k", "1M"); 0 when empty. */
function parseTokens(s: string, what: string, field: keyof Draft): number {
  const t = s.replace(/[\s,_]/g, "");
  if (!t) return 0;
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(t);
  if (!m) throw new FieldProblem(field, `The ${what} “${s.trim()}” is not a number of tokens: write it like 262144 or 262k.`);
  const unit = m[2]?.toLowerCase() === "k" ? 1000 : m[2]?.toLowerCase() === "m" ? 1_000_000 : 1;
  return Math.round(Number(m[1]) * unit);
}

/** A price in US dollars per million tokens as typed ("3", "$0.30"); undefined when empty. */
function parsePrice(s: string, what: string, field: keyof Draft): number | undefined {
  const t = s.trim().replace(/^\$/, "");
  if (!t) return undefined;
  const n = Number(t);
  if (!Number.isFinite(n)) throw new FieldProblem(field, `The ${what} price “${s.trim()}” is not a number: write US dollars per million tokens, like 3 or 0.3.`);
  return n;
}

/** The override a draft states; throws a sentence saying what to fix. */
function fromDraft(d: Draft): ModelOverride {
  const id = d.id.trim();
  if (!id) throw new FieldProblem("id", "Give the model's id as the server names it, like qwen3-coder:30b.");
  const o: ModelOverride = { id, window: parseTokens(d.window, "window", "window"), maxOutput: parseTokens(d.maxOutput, "answer limit", "maxOutput") };
  const [input, output, cacheRead, cacheWrite] = [
    parsePrice(d.input, "input", "input"),
    parsePrice(d.output, "output", "output"),
    parsePrice(d.cacheRead, "cache read", "cacheRead"),
    parsePrice(d.cacheWrite, "cache write", "cacheWrite"),
  ];
  if ([input, output, cacheRead, cacheWrite].some((p) => p !== undefined)) {
    if (input === undefined || output === undefined) throw new FieldProblem(input === undefined ? "input" : "output", "Give both the input and the output price, or no price at all.");
    o.prices = { input, output, ...(cacheRead !== undefined && { cacheRead }), ...(cacheWrite !== undefined && { cacheWrite }) };
  }
  if (!o.window && !o.maxOutput && !o.prices) throw new FieldProblem("window", "Nothing is stated: fill in a window, an answer limit or prices (or remove the override).");
  return o;
}

/** What an override states, in short phrases. */
function stated(o: ModelOverride): string[] {
  const out: string[] = [];
  if (o.window) out.push(`${formatTokens(o.window)} window`);
  if (o.maxOutput) out.push(`${formatTokens(o.maxOutput)} answer limit`);
  if (o.prices) {
    const cache = [o.prices.cacheRead ? `${perMillion(o.prices.cacheRead)} cache read` : "", o.prices.cacheWrite ? `${perMillion(o.prices.cacheWrite)} cache write` : ""].filter(Boolean);
    out.push(`${pricesText(o.prices)}${cache.length ? ` (${cache.join(", ")})` : ""}`);
  }
  return out;
}

/** The fields of an override being added or edited. */
function OverrideForm({
  draft,
  adding,
  offered,
  known,
  error,
  saving,
  onChange,
  onSave,
  onCancel,
}: {
  draft: Draft;
  adding: boolean;
  offered: string[];
  known: ModelFacts | undefined;
  error: Problem | null;
  saving: boolean;
  onChange: (d: Draft) => void;
  onSave: () => void;
  onCancel: () => void;
}) {
  const field = (k: keyof Draft, label: string, testId: string, placeholder: string, focus = false) => (
    <label>
      <span>{label}</span>
      <input
        data-testid={testId}
        value={draft[k]}
        placeholder={placeholder}
        inputMode={k === "id" ? undefined : "decimal"}
        spellCheck={false}
        autoFocus={focus}
        aria-invalid={error?.field === k ? true : undefined}
        aria-describedby={error ? "model-override-error" : undefined}
        onChange={(e) => onChange({ ...draft, [k]: e.target.value })}
      />
    </label>
  );
  // Enter saves the override, not the whole Settings form around it.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Enter" && e.target instanceof HTMLInputElement) {
      e.preventDefault();
      onSave();
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    }
  };
  return (
    <div className="model-override-form" data-testid="model-override-form" role="group" aria-label={adding ? "A new model override" : `The override of ${draft.id}`} onKeyDown={onKeyDown}>
      {adding ? (
        <label className="wide">
          <span>Model id, as the server names it</span>
          <input
            data-testid="model-override-id"
            list="model-override-options"
            aria-invalid={error?.field === "id" ? true : undefined}
            aria-describedby={error ? "model-override-error" : undefined}
            value={draft.id} placeholder="e.g. qwen3-coder:30b" spellCheck={false} autoFocus onChange={(e) => onChange({ ...draft, id: e.target.value })} />
          <datalist id="model-override-options">
            {offered.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
        </label>
      ) : (
        <p className="wide model-override-id">{draft.id}</p>
      )}
      {known && (
        <p className="wide hint" data-testid="model-override-known">
          Now: {factPhrases(known).map((p) => p.text).join(" · ")}
        </p>
      )}
      {field("window", "Window (tokens)", "model-override-window", "e.g. 262144", !adding)}
      {field("maxOutput", "Answer limit (tokens)", "model-override-max-output", "e.g. 32768")}
      {field("input", "Input $ per M", "model-override-input", "e.g. 3")}
      {field("output", "Output $ per M", "model-override-output", "e.g. 15")}
      {field("cacheRead", "Cache read $ per M", "model-override-cache-read", "optional")}
      {field("cacheWrite", "Cache write $ per M", "model-override-cache-write", "as input")}
      {error && (
        <p className="wide field-error" id="model-override-error" role="alert" data-testid="model-override-error">
          {error.text}
        </p>
      )}
      <div className="wide model-override-actions">
        <button type="button" className="small" data-testid="model-override-cancel" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="small primary" data-testid="model-override-save" disabled={saving} onClick={onSave}>
          {saving ? "Saving…" : adding ? "Add override" : "Save override"}
        </button>
      </div>
    </div>
  );
}

/**
 * Settings › Models: the user's overrides of what Pilot knows of models
 * (window, answer limit, prices), each saved at once and used from a
 * session's next request; added (the session's server's models offered),
 * edited and removed here. A refused value keeps what was typed, with
 * the backend's sentence under it.
 */
export default function ModelsSection({ view, offered }: { view: SettingsView; offered: string[] }) {
  const c = useController();
  const sessionId = useApp((s) => s.session?.id ?? null);
  const [known, setKnown] = useState<ModelFacts[]>([]);
  const [editing, setEditing] = useState<{ adding: boolean; draft: Draft } | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState("");

  const overrides = view.modelOverrides ?? [];
  // The open session's server's models, with what Pilot knows of them now (asked again once an override is saved).
  useEffect(() => {
    if (sessionId === null) return;
    let live = true;
    c.backend
      .sessionModels(sessionId)
      .then((l) => live && setKnown(l.facts ?? []))
      .catch(() => live && setKnown([]));
    return () => {
      live = false;
    };
  }, [c, sessionId, view.modelOverrides]);

  const ids = [...new Set([...known.map((f) => f.id), ...offered])].filter((m) => !overrides.some((o) => o.id === m)).sort();

  const start = (adding: boolean, draft: Draft) => {
    setEditing({ adding, draft });
    setError(null);
    setDone("");
  };

  const save = async (o: ModelOverride, what: string) => {
    setSaving(true);
    try {
      await c.models.setOverride(o);
      setEditing(null);
      setError(null);
      setDone(what);
    } catch (err) {
      setError({ text: errorText(err) });
    } finally {
      setSaving(false);
    }
  };

  const submit = () => {
    if (!editing) return;
    let o: ModelOverride;
    try {
      o = fromDraft(editing.draft);
    } catch (err) {
      setError(err instanceof FieldProblem ? { text: err.message, field: err.field } : { text: errorText(err) });
      return;
    }
    void save(o, `Saved the override of ${o.id}; sessions use it from their next request.`);
  };

  return (
    <div className="model-overrides-section" data-testid="model-overrides">
      {overrides.length === 0 && !editing && <p className="muted">No overrides: every model&apos;s facts come from its server or Pilot&apos;s table, or are guessed.</p>}
      <ul className="model-overrides">
        {overrides.map((o) =>
          editing && !editing.adding && editing.draft.id === o.id ? (
            <li key={o.id}>
              <OverrideForm draft={editing.draft} adding={false} offered={ids} known={known.find((f) => f.id === o.id)} error={error} saving={saving} onChange={(draft) => setEditing({ adding: false, draft })} onSave={submit} onCancel={() => setEditing(null)} />
            </li>
          ) : (
            <li key={o.id} className="model-override" data-testid="model-override" data-model={o.id}>
              <span className="model-override-id">{o.id}</span>
              <span className="model-override-facts">
                {stated(o).map((t) => (
                  <span key={t}>{t}</span>
                ))}
              </span>
              <span className="model-override-actions">
                <button type="button" className="small" data-testid="model-override-edit" aria-label={`Edit the override of ${o.id}`} onClick={() => start(false, toDraft(o))}>
                  Edit
                </button>
                <button
                  type="button"
                  className="small"
                  data-testid="model-override-remove"
                  aria-label={`Remove the override of ${o.id}`}
                  disabled={saving}
                  onClick={() => void save({ id: o.id, window: 0, maxOutput: 0 }, `Removed the override of ${o.id}.`)}
                >
                  Remove
                </button>
              </span>
            </li>
          ),
        )}
      </ul>
      {editing?.adding ? (
        <OverrideForm
          draft={editing.draft}
          adding
          offered={ids}
          known={known.find((f) => f.id === editing.draft.id.trim())}
          error={error}
          saving={saving}
          onChange={(draft) => setEditing({ adding: true, draft })}
          onSave={submit}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <button type="button" className="small" data-testid="model-override-add" onClick={() => start(true, empty)}>
          Add a model
        </button>
      )}
      {!editing && <FormNote text={error?.text} className="field-error" testId="model-override-error" />}
      <FormNote text={done} kind="done" />
      <p className="muted small-text">
        An override wins over what the server reports and Pilot&apos;s table: the window sets when a conversation is compacted, the answer limit each request&apos;s
        max_tokens, the prices the cost and the dollar budget. Empty fields keep the other sources. Each is saved at once and used from a session&apos;s next request.
      </p>
    </div>
  );
}
