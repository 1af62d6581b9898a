import { Suspense, useState } from "react";
import { later } from "../../lib/later";
import { useController } from "../../state/context";
import FileTree from "./FileTree";

// Loaded when a file is first opened: it brings highlight.js.
const FilePreview = later(() => import("./FilePreview"));

export default function FilesPanel() {
  const c = useController();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="files-panel">
      <div className="tree-wrap" hidden={open !== null}>
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
