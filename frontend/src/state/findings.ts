// The findings of /review, per session, as the window last read them
// (the backend keeps them with the session: Reviews in backend/service).
// One store per backend; views read it through useFindings.
import { useEffect, useSyncExternalStore } from "react";
import type { Backend } from "../lib/backend";
import type { ReviewFinding, ReviewResult, ReviewScope } from "../lib/wire.gen";

type FindingsBackend = Pick<Backend, "reviewFindings" | "runReview" | "dismissFinding" | "fixFinding">;

const none: readonly ReviewFinding[] = [];

export class Findings {
  private bySession = new Map<number, readonly ReviewFinding[]>();
  private listeners = new Set<() => void>();

  constructor(private readonly backend: FindingsBackend) {}

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  /** A session's findings as last read (none until load). */
  of(sessionId: number): readonly ReviewFinding[] {
    return this.bySession.get(sessionId) ?? none;
  }

  private put(sessionId: number, list: readonly ReviewFinding[]) {
    this.bySession.set(sessionId, list);
    for (const l of this.listeners) l();
  }

  /** Reads a session's findings from the backend. */
  async load(sessionId: number): Promise<void> {
    this.put(sessionId, await this.backend.reviewFindings(sessionId));
  }

  /** Runs /review for a session and reads its findings again. */
  async run(sessionId: number, scope: ReviewScope): Promise<ReviewResult> {
    const res = await this.backend.runReview(sessionId, scope);
    await this.load(sessionId);
    return res;
  }

  private replace(f: ReviewFinding) {
    this.put(
      f.sessionId,
      this.of(f.sessionId).map((x) => (x.id === f.id ? f : x)),
    );
  }

  /** Dismisses a finding (stored). */
  async dismiss(id: number): Promise<void> {
    this.replace(await this.backend.dismissFinding(id));
  }

  /** Asks the session's agent to fix a finding: a turn whose change is reviewed. */
  async fix(id: number): Promise<void> {
    this.replace(await this.backend.fixFinding(id));
  }
}

const stores = new WeakMap<FindingsBackend, Findings>();

/** The findings store of a backend. */
export function findingsOf(backend: FindingsBackend): Findings {
  let s = stores.get(backend);
  if (!s) {
    s = new Findings(backend);
    stores.set(backend, s);
  }
  return s;
}

/** A session's findings, read once the view shows them, and kept current. */
export function useFindings(store: Findings, sessionId: number | null): readonly ReviewFinding[] {
  useEffect(() => {
    if (sessionId !== null) store.load(sessionId).catch((err: unknown) => console.warn("could not read the findings of /review", err));
  }, [store, sessionId]);
  return useSyncExternalStore(store.subscribe, () => (sessionId === null ? none : store.of(sessionId)));
}

/** What /review needs of the controller. */
export interface ReviewHost {
  readonly backend: FindingsBackend;
  fail(what: string, err: unknown): void;
  openSession(id: number): Promise<void>;
  readonly layout: { showPanel(tab: "changes" | "branch"): void };
}

/** What "/review" and "/review SCOPE" review: SCOPE as given, else a worktree session's branch or the project's uncommitted changes. */
export function reviewScope(text: string, worktree: boolean): ReviewScope | null {
  const m = /^\/review(?:\s+(branch|uncommitted|session))?$/.exec(text.trim());
  if (!m) return null;
  return (m[1] as ReviewScope | undefined) ?? (worktree ? "branch" : "uncommitted");
}

/**
 * /review in the prompt box: reviews scope for the session, reopens the
 * session (the review is in its transcript) and shows the view its
 * findings are on (Branch for a branch, else Changes).
 */
export async function reviewNow(c: ReviewHost, sessionId: number, scope: ReviewScope): Promise<void> {
  try {
    await findingsOf(c.backend).run(sessionId, scope);
  } catch (err) {
    c.fail("", err); // the backend's sentences say what failed and what to do
    return;
  }
  await c.openSession(sessionId);
  c.layout.showPanel(scope === "branch" ? "branch" : "changes");
}
