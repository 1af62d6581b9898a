// The whole window's state. Explicit unions for every status; the open
// session lives in `session` (see sessionState.ts).
import type { GitStatus, ImageInput, Project, SessionSummary, SettingsView, WorkInFlight } from "../lib/wire.gen";
import { idleRestore, noLedger, type LedgerState, type RestoreFlow } from "./ledgerState";
import type { LiveSessions } from "./liveSessions";
import type { LoadStatus } from "./loadStatus";
import { emptyInbox, type InboxState } from "./inboxState";
import type { ReviewState } from "./review";
import type { SessionView } from "./sessionState";

export type { LoadStatus };
/** The right panel's tabs; "branch" only for a session in its own worktree, "jobs" once a session has background jobs. */
export type PanelTab = "review" | "files" | "changes" | "branch" | "jobs";
export type Dialog = "none" | "settings" | "about" | "inbox";
/** What fills a narrow window (under 960 CSS px: 200% scaling of a laptop screen). */
export type MainView = "chat" | "panel";

export interface Layout {
  /** One column: chat or panel at a time, the sidebar a drawer. */
  narrow: boolean;
  view: MainView;
  /** Wide windows: the sidebar is shown (else a slim rail). */
  sidebar: boolean;
  /** The window's width in CSS px (the review's place depends on it and on the diff: reviewPlacement in layout.ts). */
  width: number;
  /**
   * Whether a waiting change takes the whole window (chat and sidebar
   * hidden): "auto" does when the diff needs it (reviewPlacement); the
   * user's f or button says on or off until the changes are settled.
   */
  reviewFocus: "auto" | "on" | "off";
  /** Narrow windows: the sidebar drawer is open. */
  drawer: boolean;
}

export interface Prompt {
  text: string;
  attachments: string[];
  /** Pasted or dropped images. */
  images?: ImageInput[];
}

export interface AppState {
  projects: Project[];
  project: Project | null;
  sessions: SessionSummary[];
  sessionsStatus: LoadStatus;
  /** The store has older sessions than the list holds. */
  sessionsMore: boolean;
  session: SessionView | null;
  /** Every session's live state (agent state, what waits), from the events of all sessions. */
  live: LiveSessions;
  /** The open project folder's git state for the header (null: not read yet). */
  git: GitStatus | null;
  settings: SettingsView | null;
  settingsStatus: LoadStatus;
  /** A prompt typed while a turn ran, sent when it ends (per session). */
  queued: Record<number, Prompt>;
  /** The last prompt sent per session (retry and Up recall). */
  lastPrompt: Record<number, Prompt>;
  reviews: Record<string, ReviewState>;
  /** Every live session's waiting decisions, of every project (state/inbox.ts). */
  inbox: InboxState;
  /** The open session's change ledger. */
  ledger: LedgerState;
  /** A revert or rewind under way: choosing, running, or resolving conflicts. */
  restore: RestoreFlow;
  /** The file shown in the Changes view (null: the list). */
  changesPath: string | null;
  /** One sentence for the user after something finished (a revert, a rewind). */
  notice: string | null;
  /** How the notice reads: a restore that changed files ("done"), or one that changed none ("unchanged"). */
  noticeTone?: "done" | "unchanged";
  panelTab: PanelTab;
  layout: Layout;
  /** Bumped when project files may have changed (refreshes the file tree). */
  filesVersion: number;
  /** Bumped when the language servers' error counts of some files changed (agent:diagnostics: the tree's marks). */
  marksVersion: number;
  dialog: Dialog;
  /** The Settings section the dialog opens at (a SectionId of SettingsNav; null: the first). */
  settingsAt: string | null;
  /** Closing the window waits for the user: what it would stop (null: not asked). */
  quit: WorkInFlight | null;
  /** A failure of a bound call outside any session (shown in the error banner). */
  appError: string | null;
}

export const initialState: AppState = {
  projects: [],
  project: null,
  sessions: [],
  sessionsStatus: "idle",
  sessionsMore: false,
  session: null,
  live: {},
  git: null,
  settings: null,
  settingsStatus: "idle",
  queued: {},
  lastPrompt: {},
  reviews: {},
  inbox: emptyInbox,
  ledger: noLedger,
  restore: idleRestore,
  changesPath: null,
  notice: null,
  panelTab: "review",
  layout: { narrow: false, view: "chat", sidebar: true, drawer: false, width: 1280, reviewFocus: "auto" },
  filesVersion: 0,
  marksVersion: 0,
  dialog: "none",
  settingsAt: null,
  quit: null,
  appError: null,
};

export function sortSessions(list: SessionSummary[]): SessionSummary[] {
  return list.slice().sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id);
}

export function sortProjects(list: Project[]): Project[] {
  return list.slice().sort((a, b) => b.lastOpened - a.lastOpened);
}
