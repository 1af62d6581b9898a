import { Suspense, useEffect, useState, type CSSProperties } from "react";
import { later, usePrefetchWhenIdle } from "./lib/later";
import type { AppReadyPayload } from "./lib/wire.gen";
import type { Boot } from "./state/boot";
import { ControllerContext, useApp, useController } from "./state/context";
import AppErrorBanner from "./components/AppErrorBanner";
import StartError from "./components/StartError";
import StatusBar from "./components/StatusBar";
import Sidebar from "./components/sidebar/Sidebar";
import Onboarding from "./components/chat/Onboarding";
import RightPanel from "./components/RightPanel";
import ViewBar from "./components/ViewBar";
import { useMediaQuery } from "./lib/useMediaQuery";
import { reviewFocused, reviewPlacement } from "./state/layout";
import { useInboxTitle } from "./components/inbox/InboxOpener";

// What the first paint does not show loads when it is first shown: the
// chat (Markdown, highlighting, the sanitizer), Settings, About, the inbox,
// and the dialogs that wait for an event (MCP trust, a restore's
// conflicts, quitting with work in flight). The window's first call
// (FrontendReady) goes out before any of it (state/boot.ts).
const ChatView = later(() => import("./components/chat/ChatView"));
const SettingsDialog = later(() => import("./components/settings/SettingsDialog"));
const AboutDialog = later(() => import("./components/AboutDialog"));
const Inbox = later(() => import("./components/inbox/Inbox"));
const McpTrust = later(() => import("./components/mcp/McpTrust"));
const RestoreDialogs = later(() => import("./components/changes/RestoreDialogs"));
const QuitDialog = later(() => import("./components/QuitDialog"));

function Centre() {
  const onboarding = useApp((s) => s.settings?.needsOnboarding ?? false);
  const project = useApp((s) => s.project);
  const c = useController();
  if (onboarding) return <Onboarding />;
  if (!project)
    return (
      <main id="chat" className="chat" aria-label="Chat">
        <div className="welcome">
          <h1>Pilot</h1>
          <p>A coding agent that proposes every change as a diff you approve, hunk by hunk.</p>
          <button type="button" className="primary" onClick={() => void c.pickProject()}>
            Open a project folder…
          </button>
        </div>
      </main>
    );
  return (
    <Suspense fallback={<main id="chat" className="chat" aria-label="Chat" />}>
      <ChatView />
    </Suspense>
  );
}

function Dialogs() {
  const c = useController();
  const dialog = useApp((s) => s.dialog);
  if (dialog === "settings")
    return (
      <Suspense fallback={null}>
        <SettingsDialog />
      </Suspense>
    );
  if (dialog === "inbox")
    return (
      <Suspense fallback={null}>
        <Inbox />
      </Suspense>
    );
  if (dialog === "about")
    return (
      <Suspense fallback={null}>
        <AboutDialog onClose={() => c.setDialog("none")} />
      </Suspense>
    );
  return null;
}

/** Under this width (CSS px) the window shows one view at a time: 200% scaling of a 1280 px window is 640. */
export const NARROW_QUERY = "(max-width: 959px)";

/** The window's width in CSS px, following resizes. */
function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const on = () => setWidth(window.innerWidth);
    window.addEventListener("resize", on);
    return () => window.removeEventListener("resize", on);
  }, []);
  return width;
}

function Shell({ ready }: { ready: AppReadyPayload | null }) {
  const c = useController();
  const narrow = useMediaQuery(NARROW_QUERY);
  const width = useWindowWidth();
  const layout = useApp((s) => s.layout);
  const changeWaits = useApp((s) => s.session?.pending.some((a) => a.kind === "change") ?? false);
  const focused = useApp(reviewFocused);
  // A waiting change's panel is as wide as its diff needs (reviewPlacement).
  const reviewPx = useApp((s) => reviewPlacement(s).panelPx);

  useInboxTitle();
  useEffect(() => c.layout.setNarrow(narrow), [c, narrow]);
  useEffect(() => c.layout.setWidth(width), [c, width]);

  // Ctrl+B (Cmd+B) shows or hides the projects and sessions, as in editors.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "b") {
        e.preventDefault();
        c.layout.toggleSidebar();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [c]);

  return (
    <div
      className="app"
      data-ready={ready ? "true" : "false"}
      data-layout={layout.narrow ? "narrow" : "wide"}
      data-view={layout.view}
      data-sidebar={layout.narrow ? (layout.drawer ? "drawer" : "hidden") : layout.sidebar ? "shown" : "rail"}
      data-review={changeWaits ? "pending" : undefined}
      data-focus={focused ? "review" : undefined}
      style={changeWaits ? ({ "--review-width": `${reviewPx}px` } as CSSProperties) : undefined}
    >
      {layout.narrow && <ViewBar />}
      <Sidebar />
      <Centre />
      <RightPanel />
      <StatusBar ready={ready} />
      <Dialogs />
      <Suspense fallback={null}>
        <RestoreDialogs />
      </Suspense>
      <AppErrorBanner />
      <Suspense fallback={null}>
        <McpTrust />
      </Suspense>
      <Suspense fallback={null}>
        <QuitDialog />
      </Suspense>
    </div>
  );
}

/** The window, over a started controller and the first call already made (state/boot.ts). */
export default function App({ boot }: { boot: Boot }) {
  const [ready, setReady] = useState<AppReadyPayload | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  usePrefetchWhenIdle(ready !== null);
  useEffect(() => boot.hold(), [boot]);

  useEffect(() => {
    let live = true;
    void boot.ready.then((r) => {
      if (!live) return;
      if ("ok" in r) setReady(r.ok);
      else setStartError(r.error);
    });
    return () => {
      live = false;
    };
  }, [boot]);

  if (startError !== null) return <StartError message={startError} />;
  return (
    <ControllerContext.Provider value={boot.controller}>
      <Shell ready={ready} />
    </ControllerContext.Provider>
  );
}
