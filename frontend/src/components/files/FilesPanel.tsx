import { useState } from "react";
import { useController } from "../../state/context";
import FilePreview from "./FilePreview";
import FileTree from "./FileTree";

export default function FilesPanel() {
  const c = useController();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="files-panel">
      <div className="tree-wrap" hidden={open !== null}>
        <FileTree onOpen={setOpen} onDiff={(path) => c.ledger.showChanges(path)} />
      </div>
      {open !== null && <FilePreview path={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
