import { useEffect } from "react";
import { useApp, useController } from "../state/context";

/**
 * The project folder's branch and count of uncommitted paths, in the
 * header. Read when the project opens, after a turn or an applied change,
 * and when the window gets the focus back (the user may have committed
 * in a terminal).
 */
export default function GitStatusBadge() {
  const c = useController();
  const git = useApp((s) => s.git);
  useEffect(() => {
    const onFocus = () => c.refreshGit();
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, [c]);
  if (!git) return null;
  if (!git.repo)
    return (
      <span className="git-status" data-testid="git-status" data-repo="false" title={git.why || "This folder is not in a git repository."}>
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
      title={`The project folder is on ${git.branch ? `the branch ${git.branch}` : "a detached HEAD"}, with ${what}.`}
    >
      ⎇ {branch}
      {n > 0 && <span className="git-dirty"> · {n} uncommitted</span>}
    </span>
  );
}
