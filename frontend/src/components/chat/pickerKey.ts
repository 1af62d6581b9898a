import type { Dispatch, KeyboardEvent, SetStateAction } from "react";

/** A picker open under the prompt, listing n items. */
export interface Picker {
  n: number;
  setActive: Dispatch<SetStateAction<number>>;
  /** The item ↑ makes active after a. */
  up: (a: number) => number;
  /** Picks the active item. */
  pick: () => void;
  close: () => void;
}

/**
 * A key pressed in the prompt while a picker (the / commands, the @ files)
 * is open: ↓ and ↑ move round the list, Enter or Tab picks, Escape closes
 * the picker and goes no further (the chat's Escape would stop the turn).
 * The arrows, Enter and Tab are the picker's only when it lists something.
 * True when the key was the picker's.
 */
export function pickerKey(e: KeyboardEvent, p: Picker): boolean {
  const { n } = p;
  if (e.key === "ArrowDown" && n) {
    e.preventDefault();
    p.setActive((a) => (a + 1) % n);
  } else if (e.key === "ArrowUp" && n) {
    e.preventDefault();
    p.setActive(p.up);
  } else if ((e.key === "Enter" || e.key === "Tab") && n) {
    e.preventDefault();
    p.pick();
  } else if (e.key === "Escape") {
    e.preventDefault();
    e.stopPropagation();
    p.close();
  } else return false;
  return true;
}
