// The change ledger's state in the window: the open session's ledger as
// last loaded, and where a restore (revert or rewind) stands. Data only;
// ledger.ts loads it and runs the restores.
import type { Conflict, Ledger, Resolution, RewindMode } from "../lib/wire.gen";
import type { LoadStatus } from "./loadStatus";

export interface LedgerState {
  sessionId: number | null;
  status: LoadStatus;
  /** The last ledger loaded (kept while a refresh runs). */
  ledger: Ledger | null;
  error: string | null;
}

export const noLedger: LedgerState = { sessionId: null, status: "idle", ledger: null, error: null };

export type RestoreRequest =
  | { kind: "checkpoint"; sessionId: number; checkpointId: number }
  | { kind: "file"; sessionId: number; path: string }
  | { kind: "rewind"; sessionId: number; messageId: number; mode: RewindMode };

export type RestoreFlow =
  | { phase: "idle" }
  /** The rewind menu is open for a user message. */
  | { phase: "choosing"; sessionId: number; messageId: number }
  | { phase: "running"; request: RestoreRequest; resolutions: Record<string, Resolution> }
  | { phase: "conflicts"; request: RestoreRequest; conflicts: Conflict[]; resolutions: Record<string, Resolution> };

export const idleRestore: RestoreFlow = { phase: "idle" };
