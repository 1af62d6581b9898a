// /review of the fake backend: the findings a test plants per session, a
// review that reports them (runReview), Dismiss and Fix as the Go side
// stores them (Reviews in backend/service).
import type { ReviewFinding, ReviewResult, ReviewScope } from "../lib/wire.gen";

export class FakeFindings {
  /** The findings runReview reports next, by session (a test sets them). */
  next: Record<number, Omit<ReviewFinding, "id" | "sessionId" | "state">[]> = {};
  stored: ReviewFinding[] = [];
  private id = 0;

  list(sessionId: number): ReviewFinding[] {
    return this.stored.filter((f) => f.sessionId === sessionId);
  }

  run(sessionId: number, scope: ReviewScope): ReviewResult {
    const added = (this.next[sessionId] ?? []).map((f) => ({ ...f, id: ++this.id, sessionId, state: "open" as const }));
    this.stored.push(...added);
    return { sessionId, scope, findings: added, notes: [] };
  }

  set(id: number, state: ReviewFinding["state"]): ReviewFinding {
    const f = this.stored.find((x) => x.id === id);
    if (!f) throw new Error(`finding ${id}: not found`);
    f.state = state;
    return { ...f };
  }
}
