// The inbox's data (state/inbox.ts acts on it), apart so that appState.ts
// holds it without importing the actions.
import type { InboxItem } from "../lib/wire.gen";

export interface InboxState {
  /** Oldest first. */
  items: InboxItem[];
  /** The approval id of the item shown (null: none waits). */
  at: string | null;
  /** Why the last read failed ("" when it did not). */
  error: string;
}

export const emptyInbox: InboxState = { items: [], at: null, error: "" };
