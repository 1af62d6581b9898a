import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from "react";
import { HeightIndex } from "./virtualList";
import { whenIdle } from "./whenIdle";

/**
 * How far beyond the view items are rendered, in px; the rendered items
 * change only when the view comes within KEEP px of their edge, so that
 * scrolling changes the DOM in one frame of several, not in every one.
 */
const OVERSCAN = 1200;
const KEEP = 300;
/** The view assumed before the scroll area is known. */
const FIRST_VIEW = 1000;

/** The nearest ancestor of el that scrolls vertically; null: the document does. */
function scrollParent(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (/auto|scroll/.test(getComputedStyle(p).overflowY)) return p;
  }
  return null;
}

interface View {
  /** The list's top inside the scrolled content, the view's top and height. */
  listTop: number;
  scrollTop: number;
  height: number;
}

function viewOf(list: HTMLElement, scroller: HTMLElement | null): View {
  if (!scroller) {
    const top = list.getBoundingClientRect().top + window.scrollY;
    return { listTop: top, scrollTop: window.scrollY, height: window.innerHeight };
  }
  const top = list.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
  return { listTop: top, scrollTop: scroller.scrollTop, height: scroller.clientHeight };
}

function scrollTo(scroller: HTMLElement | null, top: number) {
  if (scroller) scroller.scrollTop = top;
  else window.scrollTo(window.scrollX, top);
}

export interface VirtualList {
  /** The items to render, [first, last]; null: none is near the view. */
  first: number;
  last: number;
  /** The heights of the spacers above and below the rendered items. */
  before: number;
  after: number;
  /** The ref of each rendered item's element, to measure it. */
  measure: (el: HTMLElement | null) => (() => void) | undefined;
}

/**
 * Virtualises a list of count items inside listRef, which lies in a
 * scrolling ancestor (or the document): only the items near the view are
 * rendered, the others are spacers of their heights (measured once
 * rendered, estimate(i) until then). When focused changes, the scroll
 * area moves the least that shows that item whole. key: a new list (its
 * heights are estimated again); indexOf: the item a rendered element is.
 * viewFirst: until the first paint only the items in view are rendered
 * (the first frame pays for what it shows), the overscan comes once the
 * main thread is idle after it.
 */
export function useVirtualList(
  listRef: RefObject<HTMLElement | null>,
  count: number,
  estimate: (i: number) => number,
  indexOf: (el: HTMLElement) => number,
  key: unknown,
  focused: number | null,
  viewFirst = false,
): VirtualList {
  // A new index for a new list only (estimate may be a new function each render).
  const index = useMemo(() => new HeightIndex(count, estimate), [count, key]);
  const scroller = useRef<HTMLElement | null>(null);
  const wide = useRef(!viewFirst);
  /** The next update sets the range even when the rendered items still cover the view (the overscan has just come). */
  const force = useRef(false);
  const [range, setRange] = useState(() => index.range(0, FIRST_VIEW, wide.current ? OVERSCAN : 0));
  const [, setVersion] = useState(0);
  const indexOfRef = useRef(indexOf);
  indexOfRef.current = indexOf;

  const update = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    const v = viewOf(list, scroller.current);
    const top = v.scrollTop - v.listTop;
    // Before the first paint: the view only (its assumed height while the scroll area has none).
    const [keep, overscan, height] = wide.current ? [KEEP, OVERSCAN, v.height] : [0, 0, v.height > 0 ? v.height : FIRST_VIEW];
    const near = index.range(top, top + height, keep);
    const forced = force.current;
    force.current = false;
    setRange((r) => {
      if (!forced && r && near && r.first <= near.first && r.last >= near.last) return r;
      const next = index.range(top, top + height, overscan);
      return r?.first === next?.first && r?.last === next?.last ? r : next;
    });
  }, [index, listRef]);

  // After the first paint, when the main thread is idle: the overscan.
  useEffect(() => {
    if (wide.current) return;
    return whenIdle(() => {
      wide.current = true;
      force.current = true;
      update();
    });
  }, [update]);

  // The scroll area: follow its scrolling and its size.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const s = scrollParent(list);
    scroller.current = s;
    update();
    const target: HTMLElement | Window = s ?? window;
    target.addEventListener("scroll", update, { passive: true });
    const ro = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(update);
    if (s) ro?.observe(s);
    return () => {
      target.removeEventListener("scroll", update);
      ro?.disconnect();
    };
  }, [listRef, update]);

  // Rendered items report their heights. The item at the top of the view
  // keeps its place on screen: when heights above it change (measured, or
  // estimated again), the scroll position moves by as much.
  const observer = useMemo(() => {
    if (typeof ResizeObserver === "undefined") return null;
    return new ResizeObserver((entries) => {
      const list = listRef.current;
      if (!list) return;
      const v = viewOf(list, scroller.current);
      const top = v.scrollTop - v.listTop;
      const anchor = index.at(Math.max(0, top));
      const before = index.offset(anchor);
      let changed = false;
      for (const e of entries) {
        const el = e.target as HTMLElement;
        if (el.isConnected && index.set(indexOfRef.current(el), el.offsetHeight)) changed = true;
      }
      if (!changed) return;
      const moved = index.offset(anchor) - before;
      if (top > 0 && moved !== 0) scrollTo(scroller.current, v.scrollTop + moved);
      setVersion((x) => x + 1);
      update();
    });
  }, [index, listRef, update]);
  useEffect(() => () => observer?.disconnect(), [observer]);

  const measure = useCallback(
    (el: HTMLElement | null) => {
      if (!el || !observer) return undefined;
      observer.observe(el);
      return () => observer.unobserve(el);
    },
    [observer],
  );

  // Bring the focused item into view, rendered before the frame is painted.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (focused === null || !list || focused >= index.count) return;
    const v = viewOf(list, scroller.current);
    const top = index.reveal(focused, v.listTop, v.scrollTop, v.height);
    if (top !== v.scrollTop) scrollTo(scroller.current, top);
    update();
  }, [focused, index, listRef, update]);

  if (!range) return { first: 0, last: -1, before: 0, after: index.total(), measure };
  const last = Math.min(range.last, index.count - 1);
  return { first: range.first, last, before: index.offset(range.first), after: index.total() - index.offset(last + 1), measure };
}
