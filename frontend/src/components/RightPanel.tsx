import { Suspense, useSyncExternalStore, type KeyboardEvent, type ReactNode } from "react";
import { later } from "../lib/later";
import type { PanelTab } from "../state/appState";
import { useApp, useController } from "../state/context";
import { jobsOf, runningCount } from "../state/jobs";
import { changedCount } from "../state/ledger";
import { hasWorktree, shownTab } from "../state/layout";
import { useJobs } from "./jobs/useJobs";
import FindingNotes from "./review/FindingNotes";
import ReviewPanel from "./review/ReviewPanel";

// Loaded after the first paint: the changes (shown only on their tab) bring
// highlight.js with their diffs, the file tree the virtual list.
const ChangesPanel = later(() => import("./changes/ChangesPanel"));
const FilesPanel = later(() => import("./files/FilesPanel"));
const BranchPanel = later(() => import("./branch/BranchPanel"));
const JobsPanel = later(() => import("./jobs/JobsPanel"));

/** The panel's tabs, in order (the arrow keys move along it); Branch only for a worktree session, Jobs once the session has any. */
const tabsOf = (worktree: boolean, jobs: boolean): PanelTab[] => [
  "review",
  "changes",
  ...(worktree ? (["branch"] as const) : []),
  ...(jobs ? (["jobs"] as const) : []),
  "files",
];

/**
 * The body of one tab, hidden while another is shown. A lazy one (loaded
 * after the first paint) shows nothing until loaded, and is either made
 * only while shown or kept once made.
 */
function TabPanel({ id, tab, lazy, children }: { id: PanelTab; tab: PanelTab; lazy?: "while shown" | "kept"; children: ReactNode }) {
  const shown = tab === id;
  return (
    <div role="tabpanel" id={`tabpanel-${id}`} aria-labelledby={`tab-${id}`} className="tabpanel" hidden={!shown}>
      {lazy ? (lazy === "kept" || shown) && <Suspense fallback={null}>{children}</Suspense> : children}
    </div>
  );
}

export default function RightPanel() {
  const c = useController();
  const tab = useApp(shownTab);
  const pendingCount = useApp((s) => s.session?.pending.length ?? 0);
  const changed = useApp(changedCount);
  const worktree = useApp(hasWorktree);
  const sessionId = useApp((s) => s.session?.id ?? null);
  /** Whether the Branch view will paint at once from the branch read ahead (data-cache). */
  const branchCache = useSyncExternalStore(c.branches.subscribe, () => c.branches.state(sessionId ?? 0));
  const jobCount = useJobs((s) => jobsOf(s, sessionId).list.length);
  const running = useJobs((s) => runningCount(jobsOf(s, sessionId)));
  const jobs = jobCount > 0 || tab === "jobs";
  const panelTabs = tabsOf(worktree, jobs);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    const next = panelTabs[(panelTabs.indexOf(tab) + step + panelTabs.length) % panelTabs.length]!;
    c.layout.showPanel(next);
    document.getElementById(`tab-${next}`)?.focus();
  };

  const tabButton = (t: PanelTab, label: string, testId: string, count: number, countLabel: string, title?: string, cache?: string) => (
    <button
      data-cache={cache}
      type="button"
      role="tab"
      id={`tab-${t}`}
      aria-selected={tab === t}
      aria-controls={`tabpanel-${t}`}
      tabIndex={tab === t ? 0 : -1}
      className={`tab${tab === t ? " active" : ""}`}
      data-testid={testId}
      title={title}
      onClick={() => c.layout.showPanel(t)}
    >
      {label}
      {count > 0 && (
        <span className={`count${t === "changes" ? " neutral" : t === "jobs" ? " running" : ""}`} aria-label={countLabel}>
          {count}
        </span>
      )}
    </button>
  );

  return (
    <aside className="panel" aria-label="Review, changes, jobs and files">
      <div className="panel-tabs" role="tablist" aria-label="Panel" onKeyDown={onKeyDown}>
        {tabButton("review", "Review", "tab-review", pendingCount, `${pendingCount} waiting`)}
        {tabButton("changes", "Changes", "changes-open", changed, `${changed} files changed`, "Everything this session changed, and undo")}
        {worktree && tabButton("branch", "Branch", "branch-open", 0, "", "The session's branch against its base: review it hunk by hunk, then merge, commit or discard", branchCache)}
        {jobs && tabButton("jobs", "Jobs", "jobs-open", running, `${running} running`, "The session's background jobs: their live output, and Stop")}
        {tabButton("files", "Files", "tab-files", 0, "")}
      </div>
      <TabPanel id="review" tab={tab}>
        <ReviewPanel />
      </TabPanel>
      <TabPanel id="changes" tab={tab} lazy="while shown">
        <FindingNotes>
          <ChangesPanel />
        </FindingNotes>
      </TabPanel>
      {worktree && (
        <TabPanel id="branch" tab={tab} lazy="while shown">
          <FindingNotes>
            <BranchPanel />
          </FindingNotes>
        </TabPanel>
      )}
      {jobs && (
        <TabPanel id="jobs" tab={tab} lazy="while shown">
          <JobsPanel />
        </TabPanel>
      )}
      <TabPanel id="files" tab={tab} lazy="kept">
        <FilesPanel />
      </TabPanel>
    </aside>
  );
}
