import { useEffect } from "react";
import { useApp, useController } from "../../state/context";
import ErrorBanner from "./ErrorBanner";
import PromptBox from "./PromptBox";
import Transcript from "./Transcript";
import TodoList from "../plan/TodoList";
import GitStatusBadge from "../GitStatusBadge";

export default function ChatView() {
  const c = useController();
  const title = useApp((s) => s.session?.summary?.title ?? "");
  const status = useApp((s) => s.session?.status ?? null);
  const loadError = useApp((s) => s.session?.loadError ?? null);
  const hasSession = useApp((s) => s.session !== null);
  const turn = useApp((s) => s.session?.turn ?? "idle");
  const dialog = useApp((s) => s.dialog);

  // Esc stops the running turn from anywhere in the window, unless a dialog is open.
  useEffect(() => {
    if (turn === "idle" || dialog !== "none") return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) void c.chat.cancel();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [c, turn, dialog]);

  return (
    <main id="chat" className="chat" aria-label="Chat">
      <header className="chat-head">
        <h1 className="chat-title">{hasSession ? title || "New session" : "New session"}</h1>
        <GitStatusBadge />
        {hasSession && (
          <button type="button" className="small" data-testid="compact-now" disabled={turn !== "idle"} onClick={() => void c.chat.compact()} title="Summarise older messages to free context">
            Compact now
          </button>
        )}
      </header>
      {status === "loading" ? (
        <div className="transcript-wrap">
          <p className="empty center">Loading the session…</p>
        </div>
      ) : status === "failed" ? (
        <div className="transcript-wrap">
          <p className="error center">Could not open the session: {loadError}</p>
        </div>
      ) : (
        <Transcript />
      )}
      <ErrorBanner />
      <TodoList />
      <PromptBox />
    </main>
  );
}
