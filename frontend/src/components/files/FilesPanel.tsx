import { Suspense, useEffect, useState } from "react";
import { later } from "../../lib/later";
import { useApp, useController } from "../../state/context";
import { useViewRoot } from "../useViewRoot";
import type { ViewRoot } from "../../state/viewRoot";
import FileTree from "./FileTree";

// Loaded when a file is first opened: it brings highlight.js.
const FilePreview = later(() => import("./FilePreview"));

export default function FilesPanel() {
  const c = useController();
  const root = useViewRoot();
  const [open, setOpen] = useState<string | null>(null);
  // A session in another folder: the open file was the other folder's.
  useEffect(() => setOpen(null), [root.key]);
  return (
    <div className="files-panel">
      <div className="tree-wrap" hidden={open !== null}>
        <TreeRoot root={root} />
        <FileTree onOpen={setOpen} onDiff={(path) => c.ledger.showChanges(path)} />
      </div>
      {open !== null && (
        <Suspense fallback={null}>
          <FilePreview path={open} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </div>
  );
}

/** Says which folder the tree shows: the session's worktree and its branch, or the project folder. */
function TreeRoot({ root }: { root: ViewRoot }) {
  const folder = useApp((s) => s.project?.path ?? "");
  if (root.worktree)
    return (
      <div className="tree-root muted" data-testid="file-tree-root" data-root="worktree" data-branch={root.branch} title={`This session works in its own worktree, ${root.worktree}, on the branch ${root.branch}.`}>
        ⎇ {root.branch} · worktree
      </div>
    );
  const why = root.discarded
    ? `This session's worktree was discarded with its branch; the project folder, ${folder}, is shown.`
    : `The project folder, ${folder}.`;
  return (
    <div className="tree-root muted" data-testid="file-tree-root" data-root="folder" title={why}>
      {root.discarded ? "Worktree discarded · project folder" : "Project folder"}
    </div>
  );
}
