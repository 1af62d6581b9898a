import { useMemo } from "react";
import { useApp } from "../state/context";
import { viewRoot, type ViewRoot } from "../state/viewRoot";

/** viewRoot of the app state, re-rendering when it changes. */
export function useViewRoot(): ViewRoot {
  const sessionId = useApp((s) => viewRoot(s).sessionId);
  const key = useApp((s) => viewRoot(s).key);
  const branch = useApp((s) => viewRoot(s).branch);
  const discarded = useApp((s) => viewRoot(s).discarded);
  return useMemo(
    () => ({ sessionId, key, branch, worktree: key.startsWith("worktree:") ? key.slice("worktree:".length) : "", discarded }),
    [sessionId, key, branch, discarded],
  );
}
