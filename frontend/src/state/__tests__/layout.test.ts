import { describe, expect, it } from "vitest";
import type { Approval } from "../../lib/types";
import { FakeBackend } from "../../test/fakeBackend";
import { initialState, type AppState } from "../appState";
import { AppController } from "../controller";
import { reviewFocused } from "../layout";
import { emptySession } from "../sessionState";

const change: Approval = { id: "ap1", kind: "change", toolCallId: "t1", tool: "patch_file" };
const command: Approval = { id: "c1", kind: "command", toolCallId: "t2", tool: "run_bash", command: "ls" };

function state(pending: Approval[], layout: Partial<AppState["layout"]>): AppState {
  return { ...initialState, session: { ...emptySession(1), pending }, layout: { ...initialState.layout, ...layout } };
}

describe("the review in the whole window", () => {
  it("comes by itself for a change when the window is too cramped for side by side beside the chat", () => {
    expect(reviewFocused(state([change], { cramped: true }))).toBe(true);
    expect(reviewFocused(state([change], { cramped: false }))).toBe(false);
    expect(reviewFocused(state([command], { cramped: true }))).toBe(false);
    expect(reviewFocused(state([change], { cramped: true, narrow: true }))).toBe(false);
    expect(reviewFocused(state([change], { cramped: true, reviewFocus: "off" }))).toBe(false);
    expect(reviewFocused(state([change], { cramped: false, reviewFocus: "on" }))).toBe(true);
  });

  it("f toggles it until the changes are settled", () => {
    const c = new AppController(new FakeBackend(), undefined);
    c.store.setState(() => state([change], { cramped: true }));
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
