import { useEffect } from "react";
import { useBackend } from "./backend";

/**
 * Writes an error shown in a part of the window to the log (once per
 * message): every error the user sees is also in logs/pilot.log.
 */
export function useReportError(where: string, message: string | null | undefined, sessionId = 0) {
  const backend = useBackend();
  useEffect(() => {
    if (!message) return;
    backend.reportError(where, sessionId, message).catch((err: unknown) => console.warn("could not log an error", err));
  }, [backend, where, message, sessionId]);
}
