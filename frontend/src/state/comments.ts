// Comments on lines of a session's diffs (a pending change, the Changes
// view, the Branch view): kept by Go with the session, written here as
// drafts (each saved as it is typed), and sent as one review: a pending
// change is decided first with its comments (a rejected hunk's comment is
// the model's reason), then the drafts go to the model as one message once
// the turn has ended.
import type { Backend } from "../lib/backend";
import { errorText } from "../lib/format";
import type { CommentOrigin, LineComment } from "../lib/wire.gen";
import type { LineAnchor } from "../lib/commentAnchors";
import { useEffect } from "react";
import { Store, useStoreSelect } from "./store";

export interface SessionComments {
  status: "loading" | "ready" | "failed";
  list: LineComment[];
  /** What went wrong last (a read, a save, the review), as a sentence. */
  error: string | null;
  /** The review is decided and waits for the turn to end, or is being sent. */
  review: "idle" | "waiting" | "sending";
  /** The comment whose text box has focus (a Shift-click on + extends it). */
  editing: number | null;
}

export type CommentsState = Record<number, SessionComments>;

const none: SessionComments = { status: "loading", list: [], error: null, review: "idle", editing: null };

/** How long typing rests before a draft is saved. */
const SAVE_AFTER_MS = 400;

/** What the comments need of the rest of the window. */
export interface CommentDeps {
  /** Whether the session's turn is running (a review then waits for its end). */
  running(sessionId: number): boolean;
  /** The pending change the review decides, with its comments, or null when none is waiting. */
  decideChange(sessionId: number, comments: LineComment[]): Promise<boolean> | null;
}

export class CommentActions {
  readonly store = new Store<CommentsState>({});
  private timers = new Map<number, ReturnType<typeof setTimeout>>();
  private saving = new Map<number, Promise<void>>();

  constructor(
    private readonly backend: Backend,
    private readonly deps: CommentDeps,
  ) {}

  of(sessionId: number): SessionComments {
    return this.store.getState()[sessionId] ?? none;
  }

  private patch(sessionId: number, fn: (s: SessionComments) => SessionComments) {
    this.store.setState((st) => ({ ...st, [sessionId]: fn(st[sessionId] ?? none) }));
  }

  private setList(sessionId: number, fn: (list: LineComment[]) => LineComment[]) {
    this.patch(sessionId, (s) => ({ ...s, list: fn(s.list) }));
  }

  /** Reads a session's comments (again: after a restart, a review sent). */
  async load(sessionId: number): Promise<void> {
    try {
      const list = (await this.backend.lineComments(sessionId)) ?? [];
      this.patch(sessionId, (s) => ({ ...s, status: "ready", list, error: null }));
    } catch (err) {
      this.patch(sessionId, (s) => ({ ...s, status: "failed", error: `The comments could not be read: ${errorText(err)}` }));
    }
  }

  /** The + of a line: a new draft on it, or (extend) the draft being written stretched to it. */
  async add(sessionId: number, at: LineAnchor, origin: CommentOrigin, originRef: string, extend: boolean): Promise<void> {
    const s = this.of(sessionId);
    const open = s.list.find((c) => c.id === s.editing && c.state === "draft");
    if (extend && open && open.path === at.path && at.line > open.line) {
      this.edit(sessionId, { ...open, endLine: at.line });
      return;
    }
    const draft: LineComment = { id: 0, sessionId, path: at.path, line: at.line, lineText: at.text, text: "", origin, originRef, state: "draft" };
    try {
      const saved = await this.backend.saveLineComment(draft);
      this.patch(sessionId, (x) => ({ ...x, list: [...x.list, saved], editing: saved.id, error: null }));
    } catch (err) {
      this.patch(sessionId, (x) => ({ ...x, error: `The comment was not added: ${errorText(err)}` }));
    }
  }

  /** A draft changed (its text typed, its range): shown at once, saved when typing rests. */
  edit(sessionId: number, c: LineComment) {
    this.setList(sessionId, (list) => list.map((x) => (x.id === c.id ? c : x)));
    const t = this.timers.get(c.id);
    if (t) clearTimeout(t);
    this.timers.set(
      c.id,
      setTimeout(() => void this.save(sessionId, c.id), SAVE_AFTER_MS),
    );
  }

  focus(sessionId: number, id: number | null) {
    this.patch(sessionId, (s) => ({ ...s, editing: id }));
  }

  private save(sessionId: number, id: number): Promise<void> {
    this.timers.delete(id);
    const c = this.of(sessionId).list.find((x) => x.id === id);
    if (!c) return Promise.resolve();
    const done = this.backend.saveLineComment(c).then(
      () => this.patch(sessionId, (s) => ({ ...s, error: null })),
      (err) => this.patch(sessionId, (s) => ({ ...s, error: `The comment was not saved: ${errorText(err)}` })),
    );
    this.saving.set(id, done);
    return done;
  }

  /** Saves every draft being typed now, and waits for the saves under way. */
  private async flush(sessionId: number): Promise<void> {
    for (const [id, t] of this.timers) {
      clearTimeout(t);
      void this.save(sessionId, id);
    }
    await Promise.all(this.saving.values());
    this.saving.clear();
  }

  async remove(sessionId: number, id: number): Promise<void> {
    const t = this.timers.get(id);
    if (t) clearTimeout(t);
    this.timers.delete(id);
    try {
      await this.backend.deleteLineComment(sessionId, id);
      this.setList(sessionId, (list) => list.filter((x) => x.id !== id));
    } catch (err) {
      this.patch(sessionId, (s) => ({ ...s, error: `The comment was not deleted: ${errorText(err)}` }));
    }
  }

  /** The drafts made in one view (origin) on one thing (ref: a change's approval id). */
  on(sessionId: number, origin: CommentOrigin, ref: string): LineComment[] {
    return this.of(sessionId).list.filter((c) => c.state === "draft" && c.origin === origin && c.originRef === ref);
  }

  /** Drafts of a session that a review would send (with text). */
  drafts(sessionId: number): LineComment[] {
    return this.of(sessionId).list.filter((c) => c.state === "draft" && c.text.trim() !== "");
  }

  /**
   * Sends the drafts as one review. A pending change is decided first with
   * its hunks' verdicts and its comments (the same action decides it); the
   * message then goes when the turn has ended.
   */
  async submit(sessionId: number): Promise<void> {
    const s = this.of(sessionId);
    if (s.review !== "idle") return;
    await this.flush(sessionId);
    const drafts = this.drafts(sessionId);
    if (drafts.length === 0) {
      this.patch(sessionId, (x) => ({ ...x, error: "There is no comment to send: write one on a line (the + beside its number) first." }));
      return;
    }
    this.patch(sessionId, (x) => ({ ...x, review: "waiting", error: null }));
    const decided = this.deps.decideChange(sessionId, drafts);
    if (decided && !(await decided)) {
      this.patch(sessionId, (x) => ({ ...x, review: "idle" })); // the change's card says why
      return;
    }
    if (decided || this.deps.running(sessionId)) return; // turnEnded sends it
    await this.send(sessionId);
  }

  /** A turn ended: a review waiting for it is sent. */
  turnEnded(sessionId: number) {
    if (this.of(sessionId).review === "waiting") void this.send(sessionId);
  }

  private async send(sessionId: number): Promise<void> {
    this.patch(sessionId, (x) => ({ ...x, review: "sending" }));
    try {
      await this.backend.sendReview(sessionId);
      this.patch(sessionId, (x) => ({ ...x, review: "idle", error: null, editing: null }));
    } catch (err) {
      this.patch(sessionId, (x) => ({ ...x, review: "idle", error: errorText(err) }));
    }
    await this.load(sessionId);
  }
}

/** A session's comments, read the first time a view asks for them. */
export function useSessionComments(c: CommentActions, sessionId: number): SessionComments {
  const s = useStoreSelect(c.store, (st) => st[sessionId]);
  useEffect(() => {
    if (c.store.getState()[sessionId]) return;
    c.store.setState((st) => (st[sessionId] ? st : { ...st, [sessionId]: none }));
    void c.load(sessionId);
  }, [c, sessionId]);
  return s ?? none;
}
