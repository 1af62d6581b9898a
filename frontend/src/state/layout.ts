// How the window is laid out: three columns when wide; when narrow (200%
// scaling, a small window) one view at a time (chat, or review and files)
// with the sidebar as a drawer. The agent asking for approval brings the
// review forward; the last decision takes a narrow window back to the chat.
// A wide window too cramped for a side-by-side diff beside the chat gives a
// waiting change the whole window in the same way (f toggles it).
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


/** A change waits and has the whole window (wide windows only). */
export const reviewFocused = (st: AppState): boolean => {
  const l = st.layout;
  if (l.narrow || !st.session?.pending.some((a) => a.kind === "change")) return false;
  return l.reviewFocus === "on" || (l.reviewFocus === "auto" && l.cramped);
};

/** The chat is on screen (when wide, unless a waiting change has the whole window). */
export const chatShown = (st: AppState): boolean => (st.layout.narrow ? st.layout.view === "chat" : !reviewFocused(st));

/** A panel tab is on screen. */
export const panelShown = (st: AppState, tab: PanelTab): boolean => st.panelTab === tab && (!st.layout.narrow || st.layout.view === "panel");

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

  setCramped(cramped: boolean) {
    this.patch({ cramped });
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
