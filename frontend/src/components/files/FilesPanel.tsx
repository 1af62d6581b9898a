import { useState } from "react";
import FilePreview from "./FilePreview";
import FileTree from "./FileTree";

export default function FilesPanel() {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="files-panel">
      <div className="tree-wrap" hidden={open !== null}>
        <FileTree onOpen={setOpen} />
      </div>
      {open !== null && <FilePreview path={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
