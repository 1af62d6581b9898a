import { useEffect, useState } from "react";
import { useBackend } from "./lib/backend";
import type { AppReadyPayload } from "./lib/events";
import AboutDialog from "./components/AboutDialog";
import StatusBar from "./components/StatusBar";

export default function App() {
  const backend = useBackend();
  const [ready, setReady] = useState<AppReadyPayload | null>(null);
  const [aboutOpen, setAboutOpen] = useState(false);

  useEffect(() => {
    const off = backend.on("app:ready", setReady);
    backend.frontendReady().catch((err: unknown) => console.error("FrontendReady failed", err));
    return off;
  }, [backend]);

  return (
    <div className="app" data-ready={ready ? "true" : "false"}>
      <aside className="sidebar" aria-label="Projects and sessions">
        <header className="brand">
          <span className="brand-mark" aria-hidden="true">P</span>
          <span className="brand-name">Pilot</span>
        </header>
        <section className="sidebar-section">
          <h2>Projects</h2>
          <p className="empty">No project open yet.</p>
        </section>
        <section className="sidebar-section grow">
          <h2>Sessions</h2>
          <p className="empty">Sessions of the open project appear here.</p>
        </section>
      </aside>

      <main className="chat" aria-label="Chat">
        <div className="transcript">
          <div className="welcome">
            <h1>Pilot</h1>
            <p>A coding agent that proposes every change as a diff you approve, hunk by hunk.</p>
          </div>
        </div>
      </main>

      <aside className="panel" aria-label="Review and files">
        <div className="panel-tabs" role="tablist">
          <span role="tab" aria-selected="true" className="tab active">Review</span>
        </div>
        <p className="empty">Proposed changes wait here for your decision.</p>
      </aside>

      <StatusBar ready={ready} onAbout={() => setAboutOpen(true)} />
      {aboutOpen && <AboutDialog onClose={() => setAboutOpen(false)} />}
    </div>
  );
}
