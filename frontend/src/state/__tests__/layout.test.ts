import { describe, expect, it } from "vitest";
import type { Approval, ChangeView } from "../../lib/wire.gen";
import { FakeBackend } from "../../test/fakeBackend";
import { initialState, type AppState } from "../appState";
import { AppController } from "../controller";
import { reviewFocused, reviewPlacement } from "../layout";
import { loadingReview } from "../review";
import { emptySession } from "../sessionState";

const change: Approval = { id: "ap1", kind: "change", toolCallId: "t1", tool: "patch_file" };
const command: Approval = { id: "c1", kind: "command", toolCallId: "t2", tool: "run_bash", command: "ls" };

/** A change of `lines` lines replaced by lines of `cols` characters (2 × lines changed lines). */
function diff(lines: number, cols: number): ChangeView {
  const text = (c: string) => c.repeat(cols);
  return {
    approvalId: "ap1",
    tool: "patch_file",
    files: [
      {
        path: "a.txt",
        isNew: false,
        emptied: false,
        hunks: [
          {
            index: 0,
            oldStart: 1,
            oldLines: lines,
            newStart: 1,
            newLines: lines,
            lines: [
              ...Array.from({ length: lines }, (_, i) => ({ kind: "del" as const, text: text("o"), oldNo: i + 1 })),
              ...Array.from({ length: lines }, (_, i) => ({ kind: "add" as const, text: text("n"), newNo: i + 1 })),
            ],
          },
        ],
      },
    ],
  };
}

function state(pending: Approval[], layout: Partial<AppState["layout"]>, change: ChangeView = diff(30, 100)): AppState {
  return {
    ...initialState,
    session: { ...emptySession(1), pending },
    reviews: { ap1: { ...loadingReview("ap1"), phase: "deciding", change } },
    layout: { ...initialState.layout, ...layout },
  };
}

describe("where a waiting change goes in a wide window", () => {
  it.each([
    // [window, sidebar shown, lines replaced, their width] → whole window?, panel px
    { width: 1280, sidebar: true, lines: 1, cols: 4, whole: false, px: 434 }, // beta → BETA: unified beside the chat, (40 + 12) × 7.2 + 60
    { width: 1280, sidebar: true, lines: 10, cols: 100, whole: false, px: 722 }, // 20 changed lines: small, never the whole window (unified; the grid keeps the chat 360)
    { width: 1280, sidebar: true, lines: 11, cols: 100, whole: true, px: 1212 }, // 22 changed lines of 100 characters
    { width: 1280, sidebar: true, lines: 30, cols: 30, whole: true, px: 766 }, // split 2 × (40 + 9) × 7.2 + 60 = 766 > 1280 − 260 − 480
    { width: 1300, sidebar: false, lines: 30, cols: 30, whole: false, px: 766 }, // the rail leaves room: side by side beside the chat
    { width: 1600, sidebar: true, lines: 30, cols: 40, whole: false, px: 766 },
    { width: 1900, sidebar: true, lines: 30, cols: 100, whole: true, px: 1212 }, // two columns of 80 need 1212 > 1160
    { width: 1960, sidebar: true, lines: 30, cols: 100, whole: false, px: 1212 },
  ])("$width px, sidebar $sidebar, $lines lines of $cols: whole window $whole, panel $px px", ({ width, sidebar, lines, cols, whole, px }) => {
    const st = state([change], { width, sidebar }, diff(lines, cols));
    expect(reviewPlacement(st)).toMatchObject({ whole, panelPx: px });
    expect(reviewFocused(st)).toBe(whole);
  });

  it("the whole window only for a change, only wide, and the user's choice wins", () => {
    expect(reviewFocused(state([change], { width: 1280 }))).toBe(true);
    expect(reviewFocused(state([command], { width: 1280 }))).toBe(false);
    expect(reviewFocused(state([change], { width: 1280, narrow: true }))).toBe(false);
    expect(reviewFocused(state([change], { width: 1280, reviewFocus: "off" }))).toBe(false);
    expect(reviewFocused(state([change], { width: 1280, reviewFocus: "on" }, diff(1, 4)))).toBe(true);
  });

  it("f toggles it until the changes are settled", () => {
    const c = new AppController(new FakeBackend(), undefined);
    c.store.setState(() => state([change], { width: 1280 }));
    expect(reviewFocused(c.state)).toBe(true);
    c.layout.toggleFocusReview();
    expect(c.state.layout.reviewFocus).toBe("off");
    expect(reviewFocused(c.state)).toBe(false);
    c.layout.toggleFocusReview();
    expect(reviewFocused(c.state)).toBe(true);
    c.layout.toggleFocusReview();
    c.store.setState((st) => ({ ...st, session: st.session && { ...st.session, pending: [] } }));
    c.layout.settled();
    expect(c.state.layout.reviewFocus).toBe("auto");
  });
});
