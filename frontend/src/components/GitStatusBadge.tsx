import { useEffect, useRef } from "react";
import { useApp, useController } from "../state/context";
import { useViewRoot } from "./useViewRoot";

/**
 * The branch and count of uncommitted paths of the folder the open
 * session works in, in the header: a worktree session's worktree (on
 * pilot/NAME), else the project folder. Read when the project opens, when
 * the open session works in another folder, after a turn or an applied
 * change, and when the window gets the focus back (the user may have
 * committed in a terminal).
 */
export default function GitStatusBadge() {
  const c = useController();
  const git = useApp((s) => s.git);
  const root = useViewRoot();
  useEffect(() => {
    const onFocus = () => c.refreshGit();
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, [c]);
  // Opening the project reads its folder's state; a session in another folder reads that one's.
  const shown = useRef(root.key);
  useEffect(() => {
    if (shown.current === root.key) return;
    shown.current = root.key;
    c.refreshGit();
  }, [c, root.key]);
  if (!git) return null;
  const where = root.worktree ? "This session's worktree" : "The project folder";
  if (!git.repo)
    return (
      <span className="git-status" data-testid="git-status" data-repo="false" title={git.why || `${where} is not in a git repository.`}>
        no git
      </span>
    );
  const branch = git.branch || "detached HEAD";
  const n = git.uncommitted;
  const what = n === 0 ? "nothing uncommitted" : n === 1 ? "1 uncommitted file" : `${n} uncommitted files`;
  return (
    <span
      className="git-status"
      data-testid="git-status"
      data-repo="true"
      data-branch={git.branch}
      data-uncommitted={n}
      data-worktree={root.worktree ? "true" : undefined}
      title={`${where} is on ${git.branch ? `the branch ${git.branch}` : "a detached HEAD"}, with ${what}.`}
    >
      ⎇ {branch}
      {root.worktree && <span className="muted"> · worktree</span>}
      {n > 0 && <span className="git-dirty"> · {n} uncommitted</span>}
    </span>
  );
}
