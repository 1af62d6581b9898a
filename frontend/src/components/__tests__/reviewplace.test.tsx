// Issue 28, point 1: the review takes room in proportion to its diff, and
// wherever the chat is out of view the user's request and the agent's
// reason stay above the hunks.
import { afterEach, describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import type { Approval, ChangeView, Hunk, Message, ToolCall } from "../../lib/wire.gen";
import css from "../../styles.css?raw";

/** A window `width` CSS px wide: innerWidth and max-width media queries follow it. */
function viewport(width: number) {
  Object.defineProperty(window, "innerWidth", { configurable: true, value: width });
  window.matchMedia = (query: string) => {
    const m = /max-width:\s*(\d+)px/.exec(query);
    return {
      matches: m ? width <= Number(m[1]) : false,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    } as unknown as MediaQueryList;
  };
}

const sheet = document.createElement("style");
sheet.textContent = css;
document.head.append(sheet);

afterEach(() => {
  // @ts-expect-error jsdom has no matchMedia; each test installs its own
  delete window.matchMedia;
});

const app = () => document.querySelector<HTMLElement>(".app")!;
const approval: Approval = { id: "ap1", kind: "change", toolCallId: "t1", tool: "patch_file", paths: ["a.txt"] };
const request = "capitalise beta in a.txt";
const reason = "The constant is spelled BETA everywhere else, so I will change this line to match.";

const messages: Message[] = [
  { id: 1, role: "user", blocks: [{ type: "text", text: request }], state: "complete", createdAt: 1 },
  { id: 2, role: "assistant", blocks: [{ type: "text", text: reason }, { type: "tool_use", id: "t1", name: "patch_file" }], state: "complete", createdAt: 2 },
];
const call: ToolCall = {
  id: "t1",
  messageId: 2,
  name: "patch_file",
  label: "Patching file: a.txt",
  input: {},
  status: "awaiting_approval",
  output: "",
  isError: false,
  approvalId: "ap1",
  startedAt: 2,
};

const oneLine: ChangeView = {
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
          oldLines: 2,
          newStart: 1,
          newLines: 2,
          lines: [
            { kind: "context", text: "alpha", oldNo: 1, newNo: 1 },
            { kind: "del", text: "beta", oldNo: 2 },
            { kind: "add", text: "BETA", newNo: 2 },
          ],
        },
      ],
    },
  ],
};

/** 30 lines of 100 characters rewritten: 60 changed lines, wider than two columns of 80 beside the chat. */
const wideHunk: Hunk = {
  index: 0,
  oldStart: 1,
  oldLines: 30,
  newStart: 1,
  newLines: 30,
  lines: [
    ...Array.from({ length: 30 }, (_, i) => ({ kind: "del" as const, text: `old ${i} `.padEnd(100, "x"), oldNo: i + 1 })),
    ...Array.from({ length: 30 }, (_, i) => ({ kind: "add" as const, text: `new ${i} `.padEnd(100, "y"), newNo: i + 1 })),
  ],
};
const big: ChangeView = { ...oneLine, files: [{ ...oneLine.files[0]!, hunks: [wideHunk] }] };

async function setup(width: number, change: ChangeView) {
  viewport(width);
  const b = new FakeBackend();
  b.details[1] = detail(1, { pending: [approval], state: "awaiting_approval", messages, toolCalls: [call] });
  b.changes.ap1 = change;
  renderApp(b);
  if (width < 960) {
    fireEvent.click(await screen.findByTestId("sidebar-toggle"));
    fireEvent.click(within(await screen.findByTestId("session-list")).getByText("Session 1"));
  } else {
    fireEvent.click(await screen.findByText("Session 1"));
  }
  await screen.findByTestId("diff-view");
  await screen.findAllByTestId("diff-hunk");
  return b;
}

describe("the review takes room in proportion to its diff", () => {
  it("a one-line change at 1280 px stays beside the chat in a column as narrow as it needs", async () => {
    await setup(1280, oneLine);
    await waitFor(() => expect(app().style.getPropertyValue("--review-width")).toBe("434px"));
    expect(app().dataset.focus).toBeUndefined();
    expect(screen.getByTestId("chat-input")).toBeTruthy();
    expect(screen.getByText(reason)).toBeTruthy(); // in the chat
    // The chat is in view, so the review does not repeat it.
    expect(screen.queryByTestId("review-reason")).toBeNull();
  });

  it("a big change wider than the room beside the chat takes the whole window, with the request and the reason pinned above the hunks; Show chat brings the chat back", async () => {
    await setup(1280, big);
    await waitFor(() => expect(app().dataset.focus).toBe("review"));
    const why = screen.getByTestId("review-reason");
    expect(why.textContent).toContain(`You asked${request}`);
    expect(why.textContent).toContain(reason);
    expect(why.textContent).toContain("too big to read beside the chat");
    // Above the hunks, in the same scrolling panel.
    const first = screen.getAllByTestId("diff-hunk")[0]!;
    expect(why.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(getComputedStyle(why).position).toBe("sticky");

    fireEvent.click(within(why).getByRole("button", { name: "Show the chat beside it" }));
    expect(app().dataset.focus).toBeUndefined();
    expect(screen.queryByTestId("review-reason")).toBeNull();
    fireEvent.keyDown(screen.getByTestId("change-review"), { key: "f" });
    expect(app().dataset.focus).toBe("review");
    expect(screen.getByTestId("review-reason")).toBeTruthy();
  });

  it("a wide window gives even a big change its side-by-side column beside the chat when it fits", async () => {
    const narrowLines: ChangeView = {
      ...big,
      files: [{ ...big.files[0]!, hunks: [{ ...wideHunk, lines: wideHunk.lines.map((l) => ({ ...l, text: l.text.slice(0, 40) })) }] }],
    };
    await setup(1600, narrowLines);
    // 40 columns: 2 × (40 + 9) × 7.2 + 60 = 766 px ≤ 1600 − 260 − 480.
    await waitFor(() => expect(app().style.getPropertyValue("--review-width")).toBe("766px"));
    expect(app().dataset.focus).toBeUndefined();
    expect(screen.queryByTestId("review-reason")).toBeNull();
  });

  it("at 200% scaling (640 px) the review view shows the request and the reason the chat tab holds", async () => {
    await setup(640, oneLine);
    await waitFor(() => expect(app().dataset.view).toBe("panel"));
    const why = await screen.findByTestId("review-reason");
    expect(why.textContent).toContain(request);
    expect(why.textContent).toContain(reason);
    act(() => fireEvent.click(screen.getByTestId("view-chat")));
    expect(screen.queryByTestId("review-reason")).toBeNull();
  });
});
