import { describe, expect, it } from "vitest";
import { render, screen, waitFor } from "@testing-library/react";
import { useRef } from "react";
import { useVirtualList } from "../useVirtualList";

/** 100 items of 100 px in a list that scrolls with the document (jsdom's window: 768 px high). */
function List({ viewFirst }: { viewFirst: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const v = useVirtualList(ref, 100, () => 100, (el) => Number(el.dataset.i), "k", null, viewFirst);
  const items = [];
  for (let i = v.first; i <= v.last; i++) items.push(<div key={i} data-testid="item" data-i={i} ref={v.measure} />);
  return <div ref={ref}>{items}</div>;
}

describe("useVirtualList", () => {
  it.each([
    // The first frame shows the view only (1,000 px assumed before the view is measured: 10 items);
    // once idle, the view (768 px) and the overscan of 1,200 px below it: 20.
    { viewFirst: true, first: 10, then: 20 },
    // Otherwise the overscan is there from the first frame (1,000 + 1,200 px).
    { viewFirst: false, first: 22, then: 22 },
  ])("viewFirst $viewFirst renders $first items first, then $then", async ({ viewFirst, first, then }) => {
    render(<List viewFirst={viewFirst} />);
    expect(screen.getAllByTestId("item")).toHaveLength(first);
    await waitFor(() => expect(screen.getAllByTestId("item")).toHaveLength(then));
  });
});
