import { useEffect, type RefObject } from "react";

/** The focus is nowhere useful: on the page itself, or on an element that is no longer shown. */
export function focusIsLost(): boolean {
  const a = document.activeElement;
  return !a || a === document.body || a.getClientRects().length === 0;
}

/**
 * Focuses the element when `active` turns true and the focus is lost (say
 * the review replaced the chat in a narrow window): keys keep working
 * without a click, and a focus the user placed elsewhere is never taken.
 */
export function useReclaimFocus(ref: RefObject<HTMLElement | null>, active: boolean): void {
  useEffect(() => {
    if (active && focusIsLost()) ref.current?.focus({ preventScroll: true });
  }, [ref, active]);
}
