// The change ledger of the open session (what it changed, for the Changes
// view and the cards), and undoing: reverting a change, a command or a
// file, and rewinding to before a user message. A restore that meets files
// changed outside Pilot stops with conflicts; the user resolves each (keep
// their file, or go back to the earlier version) and it runs again with the
// resolutions.
import { errorText } from "../lib/format";
import type { Resolution, RestoreResult, RewindMode } from "../lib/wire.gen";
import type { ActionContext } from "./actions";
import type { AppState } from "./appState";
import { idleRestore, noLedger, type RestoreRequest } from "./ledgerState";
import { mergeSessions } from "./sessionList";

/** Whether a checkpoint was undone by a later revert or rewind, as the ledger last said. */
export function checkpointUndone(st: AppState, id: number | undefined): boolean {
  if (id === undefined) return false;
  return st.ledger.ledger?.checkpoints.some((c) => c.id === id && c.undone) ?? false;
}

/** The number of files the session changed (net: back-to-original files do not count). */
export function changedCount(st: AppState): number {
  return st.ledger.ledger?.files.filter((f) => f.kind !== "").length ?? 0;
}

const failText: Record<RestoreRequest["kind"], string> = {
  checkpoint: "Could not revert the change",
  file: "Could not revert the file",
  rewind: "Could not rewind",
};

export class LedgerActions {
  private loadToken = 0;

  constructor(
    private readonly ctx: ActionContext,
    /** Opens a session (the fork a rewind of the conversation made). */
    private readonly open: (id: number) => Promise<void>,
  ) {}

  private get state(): AppState {
    return this.ctx.store.getState();
  }

  private set(update: (s: AppState) => AppState) {
    this.ctx.store.setState(update);
  }

  /** Loads a session's ledger; a refresh of the same session keeps the last one on screen meanwhile. */
  async load(sessionId: number): Promise<void> {
    const token = ++this.loadToken;
    this.set((st) => {
      const same = st.ledger.sessionId === sessionId;
      return { ...st, ledger: { sessionId, status: "loading", ledger: same ? st.ledger.ledger : null, error: null } };
    });
    try {
      const ledger = await this.ctx.backend.getLedger(sessionId);
      if (token !== this.loadToken) return;
      this.set((st) => ({ ...st, ledger: { sessionId, status: "ready", ledger, error: null } }));
    } catch (err) {
      if (token !== this.loadToken) return;
      this.set((st) => ({ ...st, ledger: { ...st.ledger, status: "failed", error: errorText(err) } }));
    }
  }

  /** A new session: nothing changed yet, nothing to ask. */
  reset(sessionId: number | null) {
    this.loadToken++;
    this.set((st) => ({
      ...st,
      ledger: sessionId === null ? { ...noLedger } : { sessionId, status: "ready", ledger: { sessionId, files: [], checkpoints: [] }, error: null },
      changesPath: null,
      restore: idleRestore,
    }));
  }

  /** The open session's ledger changed (ledger:updated): load it again, and the file tree. */
  updated(sessionId: number) {
    if (this.state.session?.id !== sessionId) return;
    this.set((st) => ({ ...st, filesVersion: st.filesVersion + 1 }));
    void this.load(sessionId);
  }

  /** Shows the Changes view: the list, or one file's history. */
  showChanges(path: string | null) {
    this.set((st) => ({ ...st, changesPath: path, panelTab: "changes", layout: { ...st.layout, view: "panel" } }));
  }

  dismissNotice() {
    this.set((st) => (st.notice === null ? st : { ...st, notice: null }));
  }

  revertCheckpoint(checkpointId: number): Promise<void> {
    const s = this.state.session;
    if (!s) return Promise.resolve();
    return this.run({ kind: "checkpoint", sessionId: s.id, checkpointId }, {});
  }

  revertFile(path: string): Promise<void> {
    const s = this.state.session;
    if (!s) return Promise.resolve();
    return this.run({ kind: "file", sessionId: s.id, path }, {});
  }

  /** Opens the rewind menu for a user message. */
  chooseRewind(messageId: number) {
    const s = this.state.session;
    if (s) this.set((st) => ({ ...st, restore: { phase: "choosing", sessionId: s.id, messageId } }));
  }

  rewind(mode: RewindMode): Promise<void> {
    const r = this.state.restore;
    if (r.phase !== "choosing") return Promise.resolve();
    return this.run({ kind: "rewind", sessionId: r.sessionId, messageId: r.messageId, mode }, {});
  }

  /** Resolves one conflict; the restore runs again once every conflict is resolved. */
  resolve(path: string, resolution: Resolution): Promise<void> {
    const r = this.state.restore;
    if (r.phase !== "conflicts") return Promise.resolve();
    const resolutions = { ...r.resolutions, [path]: resolution };
    this.set((st) => ({ ...st, restore: { ...r, resolutions } }));
    if (r.conflicts.every((c) => resolutions[c.path])) return this.run(r.request, resolutions);
    return Promise.resolve();
  }

  /** Closes the rewind menu or the conflicts without restoring anything. */
  cancel() {
    this.set((st) => (st.restore.phase === "running" ? st : { ...st, restore: idleRestore }));
  }

  private call(q: RestoreRequest, resolutions: Record<string, Resolution>): Promise<RestoreResult> {
    const b = this.ctx.backend;
    const input = { resolutions };
    if (q.kind === "checkpoint") return b.revertCheckpoint(q.checkpointId, input);
    if (q.kind === "file") return b.revertFile(q.sessionId, q.path, input);
    return b.rewind(q.sessionId, q.messageId, q.mode, input);
  }

  private async run(request: RestoreRequest, resolutions: Record<string, Resolution>): Promise<void> {
    if (this.state.restore.phase === "running") return;
    this.set((st) => ({ ...st, restore: { phase: "running", request, resolutions } }));
    let result: RestoreResult;
    try {
      result = await this.call(request, resolutions);
    } catch (err) {
      this.set((st) => ({ ...st, restore: idleRestore }));
      this.ctx.fail(failText[request.kind], err);
      return;
    }
    const conflicts = result.conflicts ?? [];
    if (!result.done && conflicts.length) {
      // Keep what was resolved for files still in conflict.
      const kept = Object.fromEntries(conflicts.filter((c) => resolutions[c.path]).map((c) => [c.path, resolutions[c.path]!]));
      this.set((st) => ({ ...st, restore: { phase: "conflicts", request, conflicts, resolutions: kept } }));
      return;
    }
    // A restore where the user kept every file changed nothing: not a success banner.
    const changed = (result.restored?.length ?? 0) > 0 || (request.kind === "rewind" && request.mode !== "code");
    this.set((st) => ({
      ...st,
      restore: idleRestore,
      notice: result.message || null,
      noticeTone: changed ? "done" : "unchanged",
      filesVersion: st.filesVersion + 1,
    }));
    if (result.sessionId && result.sessionId !== request.sessionId) {
      await this.open(result.sessionId);
      const sum = this.state.session?.id === result.sessionId ? this.state.session.summary : null;
      if (sum) this.set((st) => ({ ...st, sessions: mergeSessions(st.sessions, [sum]) }));
    } else if (this.state.session?.id === request.sessionId) {
      await this.load(request.sessionId);
    }
  }
}
