import { afterEach, vi } from "vitest";
import { cleanup, configure } from "@testing-library/react";

afterEach(() => cleanup());

// jsdom has no layout: give elements a size so virtualised lists render a
// window of rows (containers 600px tall, rows 50px), and stub the APIs it lacks.
Object.defineProperty(HTMLElement.prototype, "offsetHeight", {
  configurable: true,
  get(this: HTMLElement) {
    return this.hasAttribute("data-index") ? 50 : 600;
  },
});
Object.defineProperty(HTMLElement.prototype, "clientHeight", {
  configurable: true,
  get(this: HTMLElement) {
    return this.hasAttribute("data-index") ? 50 : 600;
  },
});
for (const prop of ["offsetWidth", "clientWidth"] as const) {
  Object.defineProperty(HTMLElement.prototype, prop, {
    configurable: true,
    get() {
      return 800;
    },
  });
}

// Component tests render the whole window in jsdom, which is slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });
// findBy*/waitFor wait for their condition; Testing Library gives up after 1 s by default,
// which a loaded machine passes (findings.test.tsx failed so): the test's own timeout bounds them.
configure({ asyncUtilTimeout: 10_000 });

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

// Scrolling: scrollTop is kept per element and fires "scroll" like a browser;
// scrollHeight is the height style of the first child (the virtual list's
// inner box) so "stick to the bottom" can be observed.
const scrollTops = new WeakMap<Element, number>();
Object.defineProperty(Element.prototype, "scrollTop", {
  configurable: true,
  get(this: Element) {
    return scrollTops.get(this) ?? 0;
  },
  set(this: Element, v: number) {
    const max = Math.max(0, this.scrollHeight - this.clientHeight);
    const next = Math.max(0, Math.min(v, max));
    if (next === (scrollTops.get(this) ?? 0)) return;
    scrollTops.set(this, next);
    this.dispatchEvent(new Event("scroll"));
  },
});
Object.defineProperty(Element.prototype, "scrollHeight", {
  configurable: true,
  get(this: Element) {
    const inner = this.firstElementChild as HTMLElement | null;
    return Math.max(parseFloat(inner?.style?.height ?? "") || 0, this.clientHeight);
  },
});
Element.prototype.scrollIntoView = function scrollIntoView() {};
Element.prototype.scrollTo = function scrollTo(this: Element, opts?: ScrollToOptions | number) {
  if (typeof opts === "object" && opts?.top !== undefined) this.scrollTop = opts.top;
} as Element["scrollTo"];

if (!navigator.clipboard) {
  Object.defineProperty(navigator, "clipboard", {
    configurable: true,
    value: { writeText: () => Promise.resolve() },
  });
}

// jsdom lays nothing out: an element has one client rect unless it or an
// ancestor is hidden (the `hidden` attribute or display: none, from a style
// sheet a test loaded too).
Element.prototype.getClientRects = function getClientRects(this: Element) {
  for (let e: Element | null = this; e; e = e.parentElement) {
    if (e.hasAttribute("hidden") || getComputedStyle(e).display === "none") return [] as unknown as DOMRectList;
  }
  return [new DOMRect(0, 0, 10, 10)] as unknown as DOMRectList;
};
