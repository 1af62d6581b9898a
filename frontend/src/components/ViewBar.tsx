// The top bar of a narrow window: the sidebar drawer's button and one tab
// each for the chat, the review, the session's changes, its background jobs
// (once it has any) and the file tree (one shows at a time).
import type { KeyboardEvent } from "react";
import type { PanelTab } from "../state/appState";
import { useApp, useController } from "../state/context";
import { jobsOf, runningCount } from "../state/jobs";
import { changedCount } from "../state/ledger";
import { hasWorktree, shownTab } from "../state/layout";
import InboxOpener from "./inbox/InboxOpener";
import { useJobs } from "./jobs/useJobs";

type View = "chat" | PanelTab;

export default function ViewBar() {
  const c = useController();
  const view = useApp((s) => s.layout.view);
  const tab = useApp(shownTab);
  const drawer = useApp((s) => s.layout.drawer);
  const pending = useApp((s) => s.session?.pending.length ?? 0);
  const changed = useApp(changedCount);
  const worktree = useApp(hasWorktree);
  const sessionId = useApp((s) => s.session?.id ?? null);
  const jobCount = useJobs((s) => jobsOf(s, sessionId).list.length);
  const running = useJobs((s) => runningCount(jobsOf(s, sessionId)));
  const current: View = view === "chat" ? "chat" : tab;
  const jobs = jobCount > 0 || tab === "jobs";

  const show = (v: View) => (v === "chat" ? c.layout.showChat() : c.layout.showPanel(v));
  const order: View[] = ["chat", "review", "changes", ...(worktree ? (["branch"] as const) : []), ...(jobs ? (["jobs"] as const) : []), "files"];
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    const next = order[(order.indexOf(current) + step + order.length) % order.length]!;
    show(next);
    document.getElementById(`view-${next}`)?.focus();
  };

  const tabButton = (v: View, label: string, controls: string) => (
    <button
      type="button"
      role="tab"
      id={`view-${v}`}
      data-testid={`view-${v}`}
      aria-selected={current === v}
      aria-controls={controls}
      tabIndex={current === v ? 0 : -1}
      className={`tab${current === v ? " active" : ""}`}
      onClick={() => show(v)}
    >
      {label}
      {v === "review" && pending > 0 && (
        <span className="count" aria-label={`${pending} waiting`}>
          {pending}
        </span>
      )}
      {v === "jobs" && running > 0 && (
        <span className="count running" aria-label={`${running} running`}>
          {running}
        </span>
      )}
      {v === "changes" && changed > 0 && (
        <span className="count neutral" aria-label={`${changed} files changed`}>
          {changed}
        </span>
      )}
    </button>
  );

  return (
    <nav className="viewbar" aria-label="Views">
      <button
        type="button"
        className="icon-button"
        data-testid="sidebar-toggle"
        aria-expanded={drawer}
        aria-controls="sidebar"
        title="Projects and sessions (Ctrl+B)"
        onClick={() => c.layout.toggleSidebar()}
      >
        <span aria-hidden="true">☰</span>
        <span className="sr-only">Projects and sessions</span>
      </button>
      <div className="viewbar-tabs" role="tablist" aria-label="View" onKeyDown={onKeyDown}>
        {tabButton("chat", "Chat", "chat")}
        {tabButton("review", "Review", "tabpanel-review")}
        {tabButton("changes", "Changes", "tabpanel-changes")}
        {worktree && tabButton("branch", "Branch", "tabpanel-branch")}
        {jobs && tabButton("jobs", "Jobs", "tabpanel-jobs")}
        {tabButton("files", "Files", "tabpanel-files")}
      </div>
      <InboxOpener />
    </nav>
  );
}
