// A minimal external store: immutable state, subscribe, and a hook that
// selects a slice with useSyncExternalStore so a component re-renders only
// when the slice it reads changes (by reference).
import { useSyncExternalStore } from "react";

export class Store<S> {
  private state: S;
  private listeners = new Set<() => void>();

  constructor(initial: S) {
    this.state = initial;
  }

  getState = (): S => this.state;

  setState = (update: (s: S) => S): void => {
    const next = update(this.state);
    if (next === this.state) return;
    this.state = next;
    for (const l of this.listeners) l();
  };

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

export function useStoreSelect<S, T>(store: Store<S>, select: (s: S) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.getState()), () => select(store.getState()));
}
