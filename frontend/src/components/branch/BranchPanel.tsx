import { useApp } from "../../state/context";
import BranchReview from "./BranchReview";

/** The Branch view of the open session: its worktree branch against its base, to merge, commit or discard. */
export default function BranchPanel() {
  const id = useApp((s) => s.session?.id ?? null);
  const branch = useApp((s) => s.session?.summary?.branch ?? "");
  const worktree = useApp((s) => s.session?.summary?.worktree ?? "");
  if (id === null) return <p className="empty pad">Open a worktree session to review its branch.</p>;
  return <BranchReview key={id} sessionId={id} branch={branch} worktree={worktree} />;
}
