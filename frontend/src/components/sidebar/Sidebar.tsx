// The projects-and-sessions column. Wide windows show it as a column that
// Ctrl+B (or its button) folds into a slim rail; narrow windows show it as
// a drawer over the window, closed by Esc, the backdrop, or opening a session.
import { useEffect, useRef, type KeyboardEvent } from "react";
import { useApp, useController } from "../../state/context";
import InboxOpener from "../inbox/InboxOpener";
import ProjectSection from "./ProjectSection";
import SessionSection from "./SessionSection";

function Rail() {
  const c = useController();
  const project = useApp((s) => s.project);
  return (
    <aside id="sidebar" className="sidebar rail" aria-label="Projects and sessions">
      <button
        type="button"
        className="icon-button"
        data-testid="sidebar-toggle"
        aria-expanded={false}
        title="Show projects and sessions (Ctrl+B)"
        onClick={() => c.layout.toggleSidebar()}
      >
        <span aria-hidden="true">»</span>
        <span className="sr-only">Show projects and sessions</span>
      </button>
      <InboxOpener />
      {project && (
        <button type="button" className="icon-button" title="New session" onClick={() => void c.newSession()}>
          <span aria-hidden="true">+</span>
          <span className="sr-only">New session</span>
        </button>
      )}
    </aside>
  );
}

export default function Sidebar() {
  const c = useController();
  const { narrow, sidebar, drawer } = useApp((s) => s.layout);
  const ref = useRef<HTMLElement>(null);

  // The drawer takes the focus when it opens and gives it back when it closes.
  useEffect(() => {
    if (!narrow || !drawer) return;
    const back = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // The session search when a project is open (finding a session is what the drawer is for), else the path field.
    const el = ref.current;
    (el?.querySelector<HTMLElement>("[data-testid=session-search]") ?? el?.querySelector<HTMLElement>("input"))?.focus();
    return () => {
      if (back?.isConnected) back.focus();
    };
  }, [narrow, drawer]);

  if (narrow && !drawer) return null;
  if (!narrow && !sidebar) return <Rail />;

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (narrow && e.key === "Escape" && !e.defaultPrevented) {
      e.preventDefault();
      c.layout.closeDrawer();
    }
  };

  return (
    <>
      {narrow && <div className="drawer-backdrop" data-testid="drawer-backdrop" aria-hidden="true" onClick={() => c.layout.closeDrawer()} />}
      <aside id="sidebar" ref={ref} className={`sidebar${narrow ? " drawer" : ""}`} aria-label="Projects and sessions" onKeyDown={onKeyDown}>
        <header className="brand">
          <span className="brand-mark" aria-hidden="true">
            P
          </span>
          <span className="brand-name">Pilot</span>
          <span className="spacer" />
          {!narrow && <InboxOpener />}
          <button
            type="button"
            className="icon-button"
            data-testid={narrow ? "drawer-close" : "sidebar-toggle"}
            aria-expanded={true}
            title={narrow ? "Close (Esc)" : "Hide projects and sessions (Ctrl+B)"}
            onClick={() => c.layout.toggleSidebar()}
          >
            <span aria-hidden="true">{narrow ? "✕" : "«"}</span>
            <span className="sr-only">{narrow ? "Close projects and sessions" : "Hide projects and sessions"}</span>
          </button>
        </header>
        <ProjectSection />
        <SessionSection />
      </aside>
    </>
  );
}
