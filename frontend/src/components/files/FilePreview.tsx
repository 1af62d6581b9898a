import { useEffect, useMemo, useState } from "react";
import type { FilePreview as Preview } from "../../lib/wire.gen";
import { errorText, formatBytes } from "../../lib/format";
import { highlight, langForPath } from "../../lib/highlight";
import { useReportError } from "../../lib/useReportError";
import { useApp, useController } from "../../state/context";
import { useViewRoot } from "../useViewRoot";
import DiffPath from "../review/DiffPath";

type State = { status: "loading" } | { status: "ready"; file: Preview } | { status: "failed"; error: string };

const MAX_HIGHLIGHT = 300_000;

export default function FilePreview({ path, onClose }: { path: string; onClose: () => void }) {
  const c = useController();
  const project = useApp((s) => s.project);
  const version = useApp((s) => s.filesVersion);
  const { sessionId } = useViewRoot();
  const [st, setSt] = useState<State>({ status: "loading" });

  useEffect(() => {
    if (!project) return;
    let live = true;
    setSt({ status: "loading" });
    c.backend
      .readProjectFile(project.id, sessionId, path)
      .then((file) => live && setSt({ status: "ready", file }))
      .catch((err: unknown) => live && setSt({ status: "failed", error: errorText(err) }));
    return () => {
      live = false;
    };
  }, [c, project, sessionId, path, version]);

  useReportError("files", st.status === "failed" ? `Could not read the file: ${st.error}` : null);

  const html = useMemo(() => {
    if (st.status !== "ready" || st.file.binary) return "";
    const t = st.file.text;
    return t.length > MAX_HIGHLIGHT ? highlight(t, "") : highlight(t, langForPath(path));
  }, [st, path]);

  const lines = st.status === "ready" ? st.file.text.split("\n").length : 0;
  return (
    <div className="file-preview" data-testid="file-preview" data-path={path}>
      <header className="preview-head">
        <button type="button" className="small" onClick={onClose} aria-label="Back to the file tree" autoFocus>
          ← Files
        </button>
        <DiffPath path={path} />
        {st.status === "ready" && <span className="muted">{formatBytes(st.file.size)}</span>}
      </header>
      {st.status === "loading" && <p className="empty">Loading…</p>}
      {st.status === "failed" && <p className="error">Could not read the file: {st.error}</p>}
      {st.status === "ready" && st.file.binary && <p className="empty">Binary file, not shown.</p>}
      {st.status === "ready" && !st.file.binary && (
        <div className="preview-body">
          <pre className="gutter" aria-hidden="true">
            {Array.from({ length: lines }, (_, i) => i + 1).join("\n")}
          </pre>
          <pre className="preview-code">
            <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} />
          </pre>
        </div>
      )}
      {st.status === "ready" && st.file.truncated && <p className="muted">The file is long; only its beginning is shown.</p>}
    </div>
  );
}
