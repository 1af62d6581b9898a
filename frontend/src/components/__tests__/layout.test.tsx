import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend, summary } from "../../test/fakeBackend";
import type { Approval, ChangeView } from "../../lib/wire.gen";
import { SIDEBAR_KEY } from "../../state/layout";
import css from "../../styles.css?raw";

/** A matchMedia whose max-width queries follow `width`; resize() fires change. */
function fakeViewport(initial: number) {
  let width = initial;
  const lists = new Set<{ query: string; fire: () => void }>();
  const matches = (q: string) => {
    const m = /max-width:\s*(\d+)px/.exec(q);
    return m ? width <= Number(m[1]) : false;
  };
  window.matchMedia = (query: string) => {
    const listeners = new Set<() => void>();
    const entry = { query, fire: () => listeners.forEach((l) => l()) };
    lists.add(entry);
    return {
      get matches() {
        return matches(query);
      },
      media: query,
      onchange: null,
      addEventListener: (_: string, l: () => void) => listeners.add(l),
      removeEventListener: (_: string, l: () => void) => listeners.delete(l),
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    } as unknown as MediaQueryList;
  };
  return {
    resize(w: number) {
      width = w;
      act(() => lists.forEach((l) => l.fire()));
    },
  };
}

const app = () => document.querySelector<HTMLElement>(".app")!;
const change: Approval = { id: "ap1", kind: "change", toolCallId: "t1", tool: "patch_file", paths: ["a.go"] };
const proposal: ChangeView = {
  approvalId: "ap1",
  tool: "patch_file",
  files: [
    {
      path: "a.go",
      isNew: false,
      emptied: false,
      hunks: [{ index: 0, oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [{ kind: "del", text: "a", oldNo: 1 }, { kind: "add", text: "b", newNo: 1 }] }],
    },
  ],
};

// The window's own style sheet: which view a narrow window hides is CSS.
const sheet = document.createElement("style");
sheet.textContent = css;
document.head.append(sheet);

beforeEach(() => localStorage.clear());
afterEach(() => {
  // @ts-expect-error jsdom has no matchMedia; each test installs its own
  delete window.matchMedia;
});

describe("narrow window (200% scaling)", () => {
  it("shows one view at a time and the sessions in a drawer", async () => {
    fakeViewport(640);
    const b = new FakeBackend();
    b.sessions = [summary(1), summary(2)];
    b.details[2] = detail(2);
    renderApp(b);
    const toggle = await screen.findByTestId("sidebar-toggle");
    expect(app().dataset.layout).toBe("narrow");
    expect(app().dataset.view).toBe("chat");
    expect(screen.queryByTestId("session-list")).toBeNull();

    toggle.focus(); // as a real click does
    fireEvent.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const list = await screen.findByTestId("session-list");
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("session-search")));
    fireEvent.keyDown(list, { key: "Escape" });
    expect(screen.queryByTestId("session-list")).toBeNull();
    expect(document.activeElement).toBe(toggle);

    fireEvent.click(toggle);
    fireEvent.click(within(await screen.findByTestId("session-list")).getByText("Session 2"));
    expect(screen.queryByTestId("session-list")).toBeNull();
    await waitFor(() => expect(b.callsOf("getSession")).toEqual([[2, 0]]));

    fireEvent.click(screen.getByTestId("view-files"));
    expect(app().dataset.view).toBe("panel");
    expect(screen.getByTestId("view-files").getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(screen.getByTestId("view-files"), { key: "ArrowRight" });
    expect(app().dataset.view).toBe("chat");
    expect(document.activeElement).toBe(screen.getByTestId("view-chat"));
  });

  it("brings the review forward for a waiting change, with the focus, and goes back to the chat when it is settled", async () => {
    fakeViewport(640);
    const b = new FakeBackend();
    b.changes.ap1 = proposal;
    renderApp(b);
    fireEvent.click(await screen.findByTestId("sidebar-toggle"));
    fireEvent.click(within(await screen.findByTestId("session-list")).getByText("Session 1"));
    await waitFor(() => expect(b.callsOf("getSession")).toHaveLength(1));
    expect(app().dataset.view).toBe("chat");

    act(() => b.emit("agent:approval", { sessionId: 1, seq: 1, approval: change }));
    await waitFor(() => expect(app().dataset.view).toBe("panel"));
    expect(screen.getByTestId("view-review").getAttribute("aria-selected")).toBe("true");
    expect(screen.getByTestId("view-review").textContent).toContain("1");
    // The prompt the user sent from is gone from view: y/n/a work at once.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("change-review")));

    act(() => b.emit("agent:approval_done", { sessionId: 1, seq: 2, approvalId: "ap1", outcome: "approved" }));
    await waitFor(() => expect(app().dataset.view).toBe("chat"));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("chat-input")));
  });

  it("leaves the user on the files tab when an approval is settled", async () => {
    fakeViewport(640);
    const b = new FakeBackend();
    b.details[1] = detail(1, { pending: [change], state: "awaiting_approval" });
    renderApp(b);
    fireEvent.click(await screen.findByTestId("sidebar-toggle"));
    fireEvent.click(within(await screen.findByTestId("session-list")).getByText("Session 1"));
    await waitFor(() => expect(app().dataset.view).toBe("panel"));
    fireEvent.click(screen.getByTestId("view-files"));
    act(() => b.emit("agent:approval_done", { sessionId: 1, seq: 1, approvalId: "ap1", outcome: "rejected" }));
    await waitFor(() => expect(screen.getByTestId("view-review").textContent).not.toContain("1"));
    expect(app().dataset.view).toBe("panel");
    expect(screen.getByTestId("view-files").getAttribute("aria-selected")).toBe("true");
  });

  it("goes back to three columns when the window widens, the drawer closed", async () => {
    const vp = fakeViewport(640);
    renderApp(new FakeBackend());
    fireEvent.click(await screen.findByTestId("sidebar-toggle"));
    expect(app().dataset.sidebar).toBe("drawer");
    vp.resize(1280);
    expect(app().dataset.layout).toBe("wide");
    expect(app().dataset.sidebar).toBe("shown");
    expect(screen.queryByTestId("view-chat")).toBeNull();
    vp.resize(640);
    expect(app().dataset.sidebar).toBe("hidden");
  });
});

describe("wide window", () => {
  it("folds the sidebar into a rail with Ctrl+B and remembers it", async () => {
    fakeViewport(1280);
    const first = renderApp(new FakeBackend());
    await screen.findByTestId("session-list");
    fireEvent.keyDown(window, { key: "b", ctrlKey: true });
    expect(app().dataset.sidebar).toBe("rail");
    expect(screen.queryByTestId("session-list")).toBeNull();
    expect(localStorage.getItem(SIDEBAR_KEY)).toBe("hidden");
    first.unmount();

    renderApp(new FakeBackend());
    const toggle = await screen.findByTestId("sidebar-toggle");
    expect(app().dataset.sidebar).toBe("rail");
    fireEvent.click(toggle);
    expect(await screen.findByTestId("session-list")).toBeTruthy();
    expect(localStorage.getItem(SIDEBAR_KEY)).toBe("shown");
  });
});

describe("session list pages", () => {
  it("loads older sessions a page at a time until there are none", async () => {
    fakeViewport(1280);
    const b = new FakeBackend();
    b.sessions = Array.from({ length: 450 }, (_, i) => summary(i + 1));
    renderApp(b);
    const list = await screen.findByTestId("session-list");
    await waitFor(() => expect(within(list).getAllByTestId("session-item")).toHaveLength(200));
    expect(within(list).getAllByTestId("session-item")[0]!.getAttribute("data-session-id")).toBe("450");

    // A session updated meanwhile moves to the top; the next page neither repeats nor skips one.
    const moved = summary(100, { updatedAt: 1e9 });
    b.sessions = b.sessions.map((s) => (s.id === 100 ? moved : s));
    act(() => b.emit("session:updated", { session: moved }));

    fireEvent.click(screen.getByTestId("session-more"));
    await waitFor(() => expect(within(list).getAllByTestId("session-item")).toHaveLength(401));
    fireEvent.click(screen.getByTestId("session-more"));
    await waitFor(() => expect(within(list).getAllByTestId("session-item")).toHaveLength(450));
    expect(screen.queryByTestId("session-more")).toBeNull();
    const ids = within(list)
      .getAllByTestId("session-item")
      .map((el) => Number(el.getAttribute("data-session-id")));
    expect(new Set(ids).size).toBe(450);
    expect(ids[0]).toBe(100);
    expect(b.callsOf("listSessions").map((c) => c[2])).toEqual([0, 201, 401]);
  });
});
