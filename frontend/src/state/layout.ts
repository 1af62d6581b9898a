// How the window is laid out: three columns when wide; when narrow (200%
// scaling, a small window) one view at a time (chat, or review and files)
// with the sidebar as a drawer. The agent asking for approval brings the
// review forward; the last decision takes a narrow window back to the chat.
// In a wide window a waiting change takes room in proportion to its diff
// (reviewPlacement): beside the chat when it fits or is small, the whole
// window only when it is big and too wide to read beside it (f toggles).
import { diffSize, splitPx, unifiedPx, type DiffSize } from "../lib/reviewSize";
import type { ActionContext } from "./actions";
import type { AppState, Layout, PanelTab } from "./appState";

/** Where the wide sidebar's shown/hidden choice is remembered. */
export const SIDEBAR_KEY = "pilot.sidebar";

/** The remembered wide-sidebar choice (shown unless hidden before). */
export function rememberedSidebar(storage: Pick<Storage, "getItem"> | undefined): boolean {
  try {
    return storage?.getItem(SIDEBAR_KEY) !== "hidden";
  } catch {
    return true; // storage can be disabled; the default is fine
  }
}


/** The chat keeps at least this width beside a review (px; the grid's own minimum is 360). */
export const CHAT_ROOM_PX = 480;
/** A review beside the chat is at least this wide: its buttons and feedback field need it (px). */
export const PANEL_MIN_PX = 420;
/** A change of at most this many added and removed lines never takes the whole window. */
export const SMALL_CHANGE_LINES = 20;

/** The sidebar's width in a wide window (styles.css: 260 px, 220 px up to 1100 px, the rail 44 px). */
const sidebarPx = (l: Layout) => (!l.sidebar ? 44 : l.width <= 1100 ? 220 : 260);

export interface ReviewPlacement {
  /** The diff's size (its widest line in columns, its changed lines). */
  size: DiffSize;
  /** The diff needs the whole window (before the user's f or button). */
  whole: boolean;
  /** The panel's width beside the chat (the grid keeps the chat at its minimum if this is more than there is). */
  panelPx: number;
}

/**
 * Where the waiting changes go in a wide window, from their diff:
 *  - side by side fits beside the chat (leaving it CHAT_ROOM_PX): beside
 *    it, as wide as the side-by-side diff (splitPx);
 *  - else a small change (SMALL_CHANGE_LINES at most): beside the chat,
 *    unified, as wide as that needs (unifiedPx, PANEL_MIN_PX at least);
 *  - else the whole window, side by side, with the user's request and the
 *    agent's reason pinned above the hunks (ReviewReason).
 */
export function reviewPlacement(st: AppState): ReviewPlacement {
  const l = st.layout;
  const changes = (st.session?.pending ?? []).filter((a) => a.kind === "change").map((a) => st.reviews[a.id]?.change);
  const size = diffSize(changes);
  const room = l.width - sidebarPx(l) - CHAT_ROOM_PX;
  const split = splitPx(size);
  if (split <= room) return { size, whole: false, panelPx: Math.max(PANEL_MIN_PX, split) };
  if (size.changed <= SMALL_CHANGE_LINES) return { size, whole: false, panelPx: Math.max(PANEL_MIN_PX, unifiedPx(size)) };
  return { size, whole: true, panelPx: split };
}

/** A change waits and has the whole window (wide windows only). */
export const reviewFocused = (st: AppState): boolean => {
  const l = st.layout;
  if (l.narrow || !st.session?.pending.some((a) => a.kind === "change")) return false;
  return l.reviewFocus === "on" || (l.reviewFocus === "auto" && reviewPlacement(st).whole);
};

/** The chat is on screen (when wide, unless a waiting change has the whole window). */
export const chatShown = (st: AppState): boolean => (st.layout.narrow ? st.layout.view === "chat" : !reviewFocused(st));

/** The open session works in its own git worktree (it has a Branch view). */
export const hasWorktree = (st: AppState): boolean => !!(st.session?.summary?.worktree || st.session?.summary?.branch);

/** The panel tab shown: the Review tab stands in for Branch when the open session has no worktree. */
export const shownTab = (st: AppState): PanelTab => (st.panelTab === "branch" && !hasWorktree(st) ? "review" : st.panelTab);

/** A panel tab is on screen. */
export const panelShown = (st: AppState, tab: PanelTab): boolean => shownTab(st) === tab && (!st.layout.narrow || st.layout.view === "panel");

export class LayoutActions {
  constructor(
    private readonly ctx: ActionContext,
    private readonly storage: Pick<Storage, "setItem"> | undefined,
  ) {}

  private patch(p: Partial<Layout>) {
    this.ctx.store.setState((st) => {
      const next = { ...st.layout, ...p };
      const same = (Object.keys(p) as (keyof Layout)[]).every((k) => st.layout[k] === next[k]);
      return same ? st : { ...st, layout: next };
    });
  }

  setNarrow(narrow: boolean) {
    this.patch(narrow ? { narrow } : { narrow, drawer: false });
  }

  showChat() {
    this.patch({ view: "chat" });
  }

  /** Shows a panel tab (and, in a narrow window, the panel). */
  showPanel(tab: PanelTab) {
    this.ctx.store.setState((st) => ({ ...st, panelTab: tab, layout: { ...st.layout, view: "panel" } }));
  }

  /** Ctrl+B and the sidebar buttons: the drawer when narrow, else the column. */
  toggleSidebar() {
    const l = this.ctx.store.getState().layout;
    if (l.narrow) {
      this.patch({ drawer: !l.drawer });
      return;
    }
    this.patch({ sidebar: !l.sidebar });
    try {
      this.storage?.setItem(SIDEBAR_KEY, l.sidebar ? "hidden" : "shown");
    } catch {
      // not remembered; the window still works
    }
  }

  /** The window's width in CSS px (App follows resizes). */
  setWidth(width: number) {
    this.patch({ width });
  }

  /** A waiting change in the whole window (wide windows), or back to the three columns. */
  toggleFocusReview() {
    this.patch({ reviewFocus: reviewFocused(this.ctx.store.getState()) ? "off" : "on" });
  }

  closeDrawer() {
    this.patch({ drawer: false });
  }

  /** After an approval is settled: a narrow window with nothing left to review goes back to the chat. */
  settled() {
    const st = this.ctx.store.getState();
    const left = st.session?.pending ?? [];
    if (st.layout.narrow && st.layout.view === "panel" && st.panelTab === "review" && left.length === 0) this.showChat();
    if (!left.some((a) => a.kind === "change")) this.patch({ reviewFocus: "auto" });
  }
}
