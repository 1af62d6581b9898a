import { useEffect, useState, type RefObject } from "react";
import { chooseLayout } from "./diffFit";

/** The diff font's character width when it cannot be measured (12px monospace). */
const FALLBACK_CHAR = 7.2;

/** The width of one character of the diff font inside el (a probe measures 100 of them). */
function charWidth(el: HTMLElement): number {
  const probe = document.createElement("span");
  probe.className = "diff-char-probe";
  probe.textContent = "0".repeat(100);
  el.appendChild(probe);
  const w = probe.getBoundingClientRect().width / 100;
  probe.remove();
  return w > 0 ? w : FALLBACK_CHAR;
}

/**
 * Side by side or unified for the diffs inside ref, from its width (watched
 * with a ResizeObserver) and the diff's widest line (cols, in characters).
 * Until the first measurement it is side by side.
 */
export function useDiffLayout(ref: RefObject<HTMLElement | null>, cols?: number): "split" | "unified" {
  const [layout, setLayout] = useState<"split" | "unified">("split");
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const cw = charWidth(el);
    const ro = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width;
      if (w) setLayout(chooseLayout(w, cw, cols));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, cols]);
  return layout;
}
