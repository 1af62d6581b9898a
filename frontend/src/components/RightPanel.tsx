import type { KeyboardEvent } from "react";
import { useApp, useController } from "../state/context";
import FilesPanel from "./files/FilesPanel";
import ReviewPanel from "./review/ReviewPanel";

export default function RightPanel() {
  const c = useController();
  const tab = useApp((s) => s.panelTab);
  const pendingCount = useApp((s) => s.session?.pending.length ?? 0);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") c.layout.showPanel(tab === "review" ? "files" : "review");
  };

  return (
    <aside className="panel" aria-label="Review and files">
      <div className="panel-tabs" role="tablist" aria-label="Panel" onKeyDown={onKeyDown}>
        <button
          type="button"
          role="tab"
          id="tab-review"
          aria-selected={tab === "review"}
          aria-controls="tabpanel-review"
          tabIndex={tab === "review" ? 0 : -1}
          className={`tab${tab === "review" ? " active" : ""}`}
          data-testid="tab-review"
          onClick={() => c.layout.showPanel("review")}
        >
          Review
          {pendingCount > 0 && <span className="count" aria-label={`${pendingCount} waiting`}>{pendingCount}</span>}
        </button>
        <button
          type="button"
          role="tab"
          id="tab-files"
          aria-selected={tab === "files"}
          aria-controls="tabpanel-files"
          tabIndex={tab === "files" ? 0 : -1}
          className={`tab${tab === "files" ? " active" : ""}`}
          data-testid="tab-files"
          onClick={() => c.layout.showPanel("files")}
        >
          Files
        </button>
      </div>
      <div role="tabpanel" id="tabpanel-review" aria-labelledby="tab-review" className="tabpanel" hidden={tab !== "review"}>
        <ReviewPanel />
      </div>
      <div role="tabpanel" id="tabpanel-files" aria-labelledby="tab-files" className="tabpanel" hidden={tab !== "files"}>
        <FilesPanel />
      </div>
    </aside>
  );
}
