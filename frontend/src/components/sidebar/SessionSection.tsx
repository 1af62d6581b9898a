import { Suspense, useEffect, useRef, useState } from "react";
import type { SearchHit } from "../../lib/wire.gen";
import { errorText } from "../../lib/format";
import { later } from "../../lib/later";
import { useDebounced } from "../../lib/useDebounced";
import { useReportError } from "../../lib/useReportError";
import { useApp, useController } from "../../state/context";
import SessionItem from "./SessionItem";

// Loaded when first asked for (or when the window is idle: lib/later.ts).
const WorktreeDialog = later(() => import("./WorktreeDialog"));

type Search =
  | { status: "idle" }
  | { status: "searching"; query: string }
  | { status: "done"; query: string; hits: SearchHit[] } // each snippet already sanitized
  | { status: "failed"; query: string; error: string };

const kindLabel: Record<SearchHit["kind"], string> = {
  message: "message",
  tool_input: "tool input",
  tool_output: "tool output",
  path: "path",
  web_page: "web page",
};

/** "Show older sessions": a button that also fires when it scrolls into view. */
function MoreSessions() {
  const c = useController();
  const loading = useApp((s) => s.sessionsStatus === "loading");
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void c.sessions.loadMore();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [c]);
  return (
    <button type="button" ref={ref} className="small more" data-testid="session-more" disabled={loading} onClick={() => void c.sessions.loadMore()}>
      {loading ? "Loading…" : "Show older sessions"}
    </button>
  );
}

export default function SessionSection() {
  const c = useController();
  const project = useApp((s) => s.project);
  const sessions = useApp((s) => s.sessions);
  const status = useApp((s) => s.sessionsStatus);
  const more = useApp((s) => s.sessionsMore);
  const openId = useApp((s) => s.session?.id ?? null);
  const [query, setQuery] = useState("");
  const debounced = useDebounced(query.trim(), 250);
  const [search, setSearch] = useState<Search>({ status: "idle" });
  const [askWorktree, setAskWorktree] = useState(false);
  useReportError("sessions", search.status === "failed" ? `Search failed: ${search.error}` : null);

  useEffect(() => {
    if (!project || !debounced) {
      setSearch({ status: "idle" });
      return;
    }
    let live = true;
    setSearch({ status: "searching", query: debounced });
    // The sanitizer (DOMPurify) loads with the first search, not with the window.
    Promise.all([c.backend.searchSessions(project.id, debounced), import("../../lib/sanitize")])
      .then(([hits, { sanitizeSnippet }]) => live && setSearch({ status: "done", query: debounced, hits: hits.map((h) => ({ ...h, snippet: sanitizeSnippet(h.snippet) })) }))
      .catch((err: unknown) => live && setSearch({ status: "failed", query: debounced, error: errorText(err) }));
    return () => {
      live = false;
    };
  }, [c, project, debounced]);

  if (!project) return null;

  return (
    <section className="sidebar-section grow sessions" aria-labelledby="sessions-h">
      <div className="section-head">
        <h2 id="sessions-h">Sessions</h2>
        <div className="new-session" role="group" aria-label="New session">
          <button
            type="button"
            className="small"
            data-testid="session-new"
            title="New session in this folder"
            onClick={() => {
              // The new session must show: a search left on would hide the list.
              setQuery("");
              void c.newSession();
            }}
          >
            + New
          </button>
          <button
            type="button"
            className="small"
            data-testid="session-new-worktree"
            title="New session in a new git worktree, on its own branch"
            aria-label="New session in a new worktree"
            onClick={() => {
              setQuery("");
              setAskWorktree(true);
            }}
          >
            + Worktree
          </button>
        </div>
      </div>
      {askWorktree && (
        <Suspense fallback={null}>
          <WorktreeDialog onClose={() => setAskWorktree(false)} />
        </Suspense>
      )}
      <input
        type="search"
        data-testid="session-search"
        className="search"
        placeholder="Search past sessions"
        aria-label="Search past sessions"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => e.key === "Escape" && setQuery("")}
      />
      {query.trim() ? (
        <div className="scroll" aria-live="polite">
          {search.status === "searching" && <p className="empty">Searching…</p>}
          {search.status === "failed" && <p className="error">Search failed: {search.error}</p>}
          {search.status === "done" && search.hits.length === 0 && <p className="empty">Nothing found for “{search.query}”.</p>}
          {search.status === "done" && search.hits.length > 0 && (
            <ul className="search-results" data-testid="search-results" aria-label="Search results">
              {search.hits.map((h, i) => (
                <li key={`${h.sessionId}-${h.messageId}-${i}`} data-testid="search-hit" data-session-id={h.sessionId}>
                  <button type="button" className="list-button" onClick={() => void c.openSession(h.sessionId, h.messageId)}>
                    <span className="item-title">{h.sessionTitle || "Untitled session"}</span>
                    <span className="hit-kind">{kindLabel[h.kind]}</span>
                    <span className="snippet" dangerouslySetInnerHTML={{ __html: h.snippet }} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : (
        <div className="scroll">
          {status === "loading" && sessions.length === 0 && <p className="empty">Loading sessions…</p>}
          {status === "ready" && sessions.length === 0 && <p className="empty">No sessions yet. Write a prompt to start one.</p>}
          <ul className="session-list" data-testid="session-list" aria-label="Sessions">
            {sessions.map((s) => (
              <SessionItem key={s.id} s={s} active={s.id === openId} />
            ))}
          </ul>
          {more && <MoreSessions />}
        </div>
      )}
    </section>
  );
}
