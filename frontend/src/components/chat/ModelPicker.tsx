import { useEffect, useState, type KeyboardEvent, type SetStateAction } from "react";
import { errorText, formatTokens } from "../../lib/format";
import { factPhrases } from "../../lib/modelFacts";
import type { ModelFacts } from "../../lib/wire.gen";
import { useApp, useController } from "../../state/context";
import { pickerKey } from "./pickerKey";

/** The server's models as last asked for one session, or why they could not be listed. */
type Listed = { sessionId: number } & ({ s: "loading"; facts: ModelFacts[] } | { s: "ok"; facts: ModelFacts[] } | { s: "failed"; error: string });

/** One row of the list: a model the server lists, or the id the user typed. */
type Item = { kind: "model"; f: ModelFacts } | { kind: "typed"; id: string };

/** Whether every word of the query is in the model's id. */
function matches(id: string, query: string): boolean {
  const lower = id.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .every((w) => lower.includes(w));
}

function FactsRow({ f }: { f: ModelFacts }) {
  const loaded = f.loaded ?? 0;
  return (
    <span className="model-facts">
      {factPhrases(f).map((p) => (
        <span key={p.key} className={`model-fact${p.source === "guess" ? " guessed" : ""}`} data-fact={p.key} data-source={p.source} title={p.title}>
          {p.text}
        </span>
      ))}
      {loaded > 0 && (
        <span
          className={`model-fact${loaded < f.window ? " guessed" : ""}`}
          data-fact="loaded"
          title={`The server has this model loaded with ${loaded} tokens of context; Pilot says so in the chat before a conversation longer than that is cut.`}
        >
          loaded with {formatTokens(loaded)}
        </span>
      )}
    </span>
  );
}

/**
 * The session's model, beside its mode in the prompt box: a button
 * naming it, opening the server's models with their window, answer limit
 * and prices (each with where it came from), searchable, the current one
 * checked. Choosing one changes this session only, from its next request;
 * an id the server does not list can be typed. onDone gives the focus
 * back to the prompt.
 */
export default function ModelPicker({ onDone }: { onDone: () => void }) {
  const c = useController();
  const sessionId = useApp((s) => s.session?.id ?? null);
  const model = useApp((s) => s.session?.summary?.model || "");
  const running = useApp((s) => (s.session?.turn ?? "idle") !== "idle");
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  // The row the user moved to (null: none yet, the current model's row is active).
  const [moved, setMoved] = useState<number | null>(null);
  const [listed, setListed] = useState<Listed | null>(null);

  const mine = listed && listed.sessionId === sessionId ? listed : null;
  const facts = mine && mine.s !== "failed" ? mine.facts : [];
  const q = query.trim();
  const items: Item[] = facts.filter((f) => matches(f.id, q)).map((f) => ({ kind: "model", f }));
  if (q && !facts.some((f) => f.id === q)) items.push({ kind: "typed", id: q });
  const active = moved ?? Math.max(0, items.findIndex((it) => it.kind === "model" && it.f.id === model));
  const setActive = (u: SetStateAction<number>) => setMoved((m) => (typeof u === "function" ? u(m ?? active) : u));

  useEffect(() => {
    if (!open || sessionId === null) return;
    let live = true;
    setListed((l) => ({ sessionId, s: "loading", facts: l && l.sessionId === sessionId && l.s !== "failed" ? l.facts : [] }));
    c.backend
      .sessionModels(sessionId)
      .then((list) => {
        if (!live) return;
        setListed({ sessionId, s: "ok", facts: list.facts ?? [] });
      })
      .catch((err: unknown) => live && setListed({ sessionId, s: "failed", error: errorText(err) }));
    // Asked each time the list opens: a server's models come and go.
    return () => {
      live = false;
    };
  }, [c, open, sessionId]);

  useEffect(() => {
    if (open) document.getElementById(`model-opt-${active}`)?.scrollIntoView?.({ block: "nearest" });
  }, [open, active]);

  // Another session's list is not this one's.
  useEffect(() => setOpen(false), [sessionId]);

  const show = () => {
    setQuery("");
    setMoved(null);
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) onDone();
  };
  const choose = (id: string) => {
    close(true);
    if (sessionId !== null && id !== model) void c.models.setModel(sessionId, id);
  };
  const chooseItem = (it: Item) => choose(it.kind === "model" ? it.f.id : it.id);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (e.key === "Tab") {
      close(false);
      return;
    }
    const n = items.length;
    pickerKey(e, { n, setActive, up: (a) => (a - 1 + n) % n, pick: () => chooseItem(items[Math.min(active, n - 1)]!), close: () => close(true) });
  };

  const label = model || "default model";
  const title =
    sessionId === null
      ? "Start a session to choose its model; new sessions use the model of Settings › Provider & model."
      : `This session's model: ${label}. Choosing another changes this session only.${running ? " The turn under way keeps its model; your next message uses the new one." : ""}`;

  return (
    <div
      className="model-picker"
      onBlur={(e) => {
        if (open && !e.currentTarget.contains(e.relatedTarget as Node | null)) close(false);
      }}
    >
      <button
        type="button"
        className="model-picker-button"
        data-testid="model-picker"
        data-model={model}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={`This session's model: ${label}`}
        title={title}
        disabled={sessionId === null}
        // A click keeps the focus where it is (in the search field while open), so it only opens or closes the list.
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => (open ? close(true) : show())}
      >
        <span className="model-picker-name">{label}</span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="model-popup" data-testid="model-list">
          <input
            autoFocus
            className="model-search"
            data-testid="model-search"
            role="combobox"
            aria-label="Search the models, or type a model's id"
            aria-expanded="true"
            aria-controls="model-options"
            aria-activedescendant={items.length ? `model-opt-${Math.min(active, items.length - 1)}` : undefined}
            placeholder="Search models, or type an id"
            spellCheck={false}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setMoved(e.target.value.trim() ? 0 : null);
            }}
            onKeyDown={onKeyDown}
          />
          <p className="model-scope muted">
            This session only{running ? "; the turn under way keeps its model, your next message uses the new one" : ""}. Set a fact marked “guessed” in{" "}
            <button
              type="button"
              className="link"
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                close(false);
                c.setDialog("settings", "models");
              }}
            >
              Settings › Models
            </button>
            .
          </p>
          {mine?.s === "failed" && (
            <p className="field-error" role="alert" data-testid="model-picker-error">
              Could not list the server&apos;s models: {mine.error} Type a model&apos;s id above to use it anyway.
            </p>
          )}
          <div className="model-options" role="listbox" id="model-options" aria-label="Models">
            {mine?.s === "loading" && facts.length === 0 && <div className="picker-empty">Asking the server for its models…</div>}
            {mine?.s === "ok" && items.length === 0 && <div className="picker-empty">The server lists no models; type a model&apos;s id above.</div>}
            {items.map((it, i) => {
              const id = it.kind === "model" ? it.f.id : it.id;
              const current = it.kind === "model" && id === model;
              const typed = it.kind !== "model";
              return (
                <div
                  key={`${it.kind}/${id}`}
                  id={`model-opt-${i}`}
                  role="option"
                  aria-selected={i === active}
                  className={`model-option picker-item${i === active ? " active" : ""}`}
                  data-testid={typed ? "model-option-typed" : "model-option"}
                  data-model={id}
                  data-window={it.kind === "model" ? it.f.window : undefined}
                  data-current={current || undefined}
                  onMouseDown={(e) => e.preventDefault()}
                  onMouseMove={() => i !== active && setActive(i)}
                  onClick={() => chooseItem(it)}
                >
                  <span className="model-check" aria-hidden="true">
                    {current ? "✓" : ""}
                  </span>
                  {it.kind === "model" ? (
                    <span className="model-main">
                      <span className="picker-name">
                        {id}
                        {current && <span className="sr-only"> (current)</span>}
                      </span>
                      <FactsRow f={it.f} />
                    </span>
                  ) : (
                    <span className="model-main">
                      <span className="picker-name">Use “{id}”</span>
                      <span className="model-facts">not listed by the server: its facts are guessed until it answers or you set them</span>
                    </span>
                  )}
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
