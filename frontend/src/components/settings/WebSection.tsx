import { useEffect, useState } from "react";
import type { WebSearchInput, WebSearchTest, WebSearchView } from "../../lib/wire.gen";
import { errorText } from "../../lib/format";
import { useController } from "../../state/context";
import FormNote from "../FormNote";
import Visible from "../Visible";

interface Form {
  backend: string;
  url: string;
  apiKey: string;
  clearKey: boolean;
  perSession: string;
  providerSearch: boolean;
}

function formOf(v: WebSearchView): Form {
  return { backend: v.backend, url: v.url, apiKey: "", clearKey: false, perSession: String(v.perSession), providerSearch: v.providerSearch };
}

function inputOf(f: Form): WebSearchInput {
  return { backend: f.backend, url: f.url.trim(), apiKey: f.apiKey.trim(), clearKey: f.clearKey, perSession: Number(f.perSession) || 0, providerSearch: f.providerSearch };
}

/**
 * Settings › Web: the search service of the web_search tool (none: the
 * tool is not offered), its address and API key (kept in the key store,
 * shown masked), the searches a session may make, Save, and Test, which
 * sends one search with the form as it is and shows what came back or,
 * in a sentence, what is wrong. Results are the service's: shown with
 * every character visible.
 */
export default function WebSection() {
  const c = useController();
  const [view, setView] = useState<WebSearchView | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [note, setNote] = useState<{ text: string; kind: "error" | "done" } | null>(null);
  const [busy, setBusy] = useState<"" | "saving" | "testing">("");
  const [tested, setTested] = useState<WebSearchTest | null>(null);

  useEffect(() => {
    let live = true;
    c.backend
      .getWebSearch()
      .then((v) => {
        if (!live) return;
        setView(v);
        setForm(formOf(v));
      })
      .catch((err: unknown) => live && setFailed(errorText(err)));
    return () => {
      live = false;
    };
  }, [c]);

  if (failed) return <p className="error">Could not read the web search settings: {failed}</p>;
  if (!view || !form) return <p className="muted">Reading the web search settings…</p>;

  const chosen = view.backends.find((b) => b.id === form.backend);
  const edit = (patch: Partial<Form>) => {
    setForm({ ...form, ...patch });
    setNote(null);
    setTested(null);
  };
  const save = async () => {
    setBusy("saving");
    try {
      const v = await c.backend.saveWebSearch(inputOf(form));
      setView(v);
      setForm(formOf(v));
      setNote({ kind: "done", text: v.backend ? "Saved: the agent can search the web from its next call." : "Saved: web search is off; the agent is not offered web_search." });
    } catch (err) {
      setNote({ kind: "error", text: errorText(err) });
    } finally {
      setBusy("");
    }
  };
  const test = async () => {
    setBusy("testing");
    setTested(null);
    try {
      setTested(await c.backend.testWebSearch(inputOf(form)));
    } catch (err) {
      setTested({ query: "", results: [], error: errorText(err) });
    } finally {
      setBusy("");
    }
  };

  return (
    <div className="web-search" data-testid="settings-web">
      <p className="muted small-text">
        The agent&apos;s web_search tool asks the service you choose here. The first search in a session asks you, naming the service&apos;s host; the model reads the pages it
        finds with web_fetch.
      </p>
      <fieldset>
        <legend>Search service</legend>
        <label className="check">
          <input type="radio" name="web-backend" data-testid="web-backend" data-backend="" checked={form.backend === ""} onChange={() => edit({ backend: "" })} /> None: web_search is not
          offered
        </label>
        {view.backends.map((b) => (
          <label className="check" key={b.id}>
            <input type="radio" name="web-backend" data-testid="web-backend" data-backend={b.id} checked={form.backend === b.id} onChange={() => edit({ backend: b.id, url: b.id === view.backend ? view.url : "" })} />{" "}
            {b.name}
            {b.needsKey ? (b.hasKey ? ` (key saved: ${b.keyHint ?? "…"})` : " (needs an API key)") : " (your own instance)"}
          </label>
        ))}
      </fieldset>
      {chosen && (
        <>
          <label>
            {chosen.needsUrl ? "Instance address" : "Endpoint (leave empty for the service's)"}
            <input data-testid="web-url" value={form.url} placeholder={chosen.needsUrl ? "http://localhost:8080" : chosen.defaultUrl} onChange={(e) => edit({ url: e.target.value })} />
          </label>
          {chosen.needsUrl && <p className="muted small-text">The instance must allow the JSON format: search.formats: [html, json] in its settings.yml.</p>}
          {chosen.needsKey && (
            <>
              <label>
                API key
                <input type="password" autoComplete="off" data-testid="web-key" value={form.apiKey} placeholder={chosen.hasKey ? "saved; type a new one to replace it" : ""} onChange={(e) => edit({ apiKey: e.target.value })} />
              </label>
              {chosen.hasKey && (
                <label className="check">
                  <input type="checkbox" data-testid="web-clear-key" checked={form.clearKey} onChange={(e) => edit({ clearKey: e.target.checked })} /> Remove the saved key
                </label>
              )}
            </>
          )}
          <label>
            Searches per session
            <input type="number" min={1} max={500} data-testid="web-per-session" value={form.perSession} onChange={(e) => edit({ perSession: e.target.value })} />
          </label>
        </>
      )}
      <label>
        <input type="checkbox" data-testid="web-provider-search" checked={form.providerSearch} onChange={(e) => edit({ providerSearch: e.target.checked })} /> Let the model&apos;s provider
        search the web itself (Anthropic&apos;s API, OpenRouter), without asking each time. Its searches count toward the same cap and show as web_search cards with their
        sources. Off: the provider searches only where a rule allows web_search on its host.
      </label>
      <div className="ls-actions">
        <button type="button" className="small" data-testid="web-save" disabled={busy !== ""} onClick={() => void save()}>
          Save
        </button>
        {chosen && (
          <button type="button" className="small" data-testid="web-test" disabled={busy !== ""} onClick={() => void test()}>
            {busy === "testing" ? "Searching…" : "Test"}
          </button>
        )}
      </div>
      <FormNote text={note?.kind === "error" ? note.text : null} testId="web-error" />
      <FormNote text={note?.kind === "done" ? note.text : null} kind="done" testId="web-saved" />
      {tested &&
        (tested.error ? (
          <FormNote text={tested.error} testId="web-test-error" />
        ) : (
          <div data-testid="web-test-result" role="status">
            <p className="muted">
              {tested.results.length} results for “{tested.query}”:
            </p>
            <ol>
              {tested.results.map((r) => (
                <li key={r.url}>
                  <Visible text={r.title} /> <span className="muted">(<Visible text={r.url} />)</span>
                </li>
              ))}
            </ol>
          </div>
        ))}
    </div>
  );
}
