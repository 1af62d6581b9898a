import { useEffect, useMemo, useState } from "react";
import { useBackend } from "./lib/backend";
import type { AppReadyPayload } from "./lib/events";
import { AppController } from "./state/controller";
import { ControllerContext, useApp, useController } from "./state/context";
import AboutDialog from "./components/AboutDialog";
import StatusBar from "./components/StatusBar";
import Sidebar from "./components/sidebar/Sidebar";
import ChatView from "./components/chat/ChatView";
import Onboarding from "./components/chat/Onboarding";
import RightPanel from "./components/RightPanel";
import SettingsDialog from "./components/settings/SettingsDialog";

function Centre() {
  const onboarding = useApp((s) => s.settings?.needsOnboarding ?? false);
  const project = useApp((s) => s.project);
  const c = useController();
  if (onboarding) return <Onboarding />;
  if (!project)
    return (
      <main className="chat" aria-label="Chat">
        <div className="welcome">
          <h1>Pilot</h1>
          <p>A coding agent that proposes every change as a diff you approve, hunk by hunk.</p>
          <button type="button" className="primary" onClick={() => void c.pickProject()}>
            Open a project folder…
          </button>
        </div>
      </main>
    );
  return <ChatView />;
}

function Dialogs() {
  const c = useController();
  const dialog = useApp((s) => s.dialog);
  if (dialog === "settings") return <SettingsDialog />;
  if (dialog === "about") return <AboutDialog onClose={() => c.setDialog("none")} />;
  return null;
}

export default function App() {
  const backend = useBackend();
  const controller = useMemo(() => new AppController(backend), [backend]);
  const [ready, setReady] = useState<AppReadyPayload | null>(null);

  useEffect(() => {
    const off = backend.on("app:ready", setReady);
    backend.frontendReady().catch((err: unknown) => console.error("FrontendReady failed", err));
    return off;
  }, [backend]);

  useEffect(() => controller.start(), [controller]);

  return (
    <ControllerContext.Provider value={controller}>
      <div className="app" data-ready={ready ? "true" : "false"}>
        <Sidebar />
        <Centre />
        <RightPanel />
        <StatusBar ready={ready} />
        <Dialogs />
      </div>
    </ControllerContext.Provider>
  );
}
