// What the window remembers of each session while the user is in another
// one: the prompt being written and where the conversation was scrolled.
// Plain maps, outside the store: nothing re-renders when they change; a
// view reads its session's entry when the session is shown again. (The
// review's decisions are kept in the store's reviews, by approval id.)
import type { Attached } from "../lib/images";

export interface Draft {
  text: string;
  attachments: string[];
  images: Attached[];
}

/** Where the conversation was: the first row in view and how far into it; stick when it followed the end. */
export interface ScrollPlace {
  stick: boolean;
  key: string;
  offset: number;
}

export class SessionMemory {
  private drafts = new Map<number, Draft>();
  private places = new Map<number, ScrollPlace>();

  /** Keeps the prompt a session was left with (an empty one is forgotten). */
  keepDraft(id: number, d: Draft) {
    if (d.text || d.attachments.length || d.images.length) this.drafts.set(id, d);
    else this.drafts.delete(id);
  }

  /** The prompt the session was left with, if any. */
  draft(id: number): Draft | undefined {
    return this.drafts.get(id);
  }

  keepPlace(id: number, p: ScrollPlace) {
    this.places.set(id, p);
  }

  place(id: number): ScrollPlace | undefined {
    return this.places.get(id);
  }

  /** Forgets a deleted session. */
  forget(id: number) {
    this.drafts.delete(id);
    this.places.delete(id);
  }
}
