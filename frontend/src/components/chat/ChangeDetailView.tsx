import { useEffect, useRef, useState } from "react";
import { useReportError } from "../../lib/useReportError";
import { errorText } from "../../lib/format";
import { langForPath } from "../../lib/highlight";
import type { ChangeDetail, ChangeSummary } from "../../lib/wire.gen";
import { useDiffLayout } from "../../lib/useDiffLayout";
import { useApp, useController } from "../../state/context";
import FileDiffView, { ReadonlyHunk } from "../review/FileDiffView";
import LayoutToggle, { type LayoutChoice } from "../review/LayoutToggle";

type State = { status: "loading" } | { status: "ready"; detail: ChangeDetail } | { status: "failed"; error: string };

/**
 * A decided file change, expanded: per file the diff that was written (the
 * user's edit marked as theirs), then the proposed hunks that were not
 * written, marked rejected.
 */
export default function ChangeDetailView({ callId, summary }: { callId: string; summary: ChangeSummary }) {
  const c = useController();
  const ref = useRef<HTMLDivElement>(null);
  const auto = useDiffLayout(ref);
  const [choice, setChoice] = useState<LayoutChoice>("auto");
  const layout = choice === "auto" ? auto : choice;
  const sessionId = useApp((s) => s.session?.id ?? 0);
  const [st, setSt] = useState<State>({ status: "loading" });
  useReportError("change card", st.status === "failed" ? `Could not load the change: ${st.error}` : null);

  // The summary changes when the change is reverted: fetch again then.
  useEffect(() => {
    let live = true;
    setSt({ status: "loading" });
    c.backend
      .getChangeDetail(sessionId, callId)
      .then((detail) => live && setSt({ status: "ready", detail }))
      .catch((err: unknown) => live && setSt({ status: "failed", error: errorText(err) }));
    return () => {
      live = false;
    };
  }, [c, sessionId, callId, summary]);

  return (
    <div className="change-detail" ref={ref} data-testid="change-detail">
      <LayoutToggle choice={choice} auto={auto} onChange={setChoice} />
      {st.status === "loading" && <p className="empty">Loading what was applied…</p>}
      {st.status === "failed" && <p className="error">Could not load the change: {st.error}</p>}
      {st.status === "ready" &&
        st.detail.summary.files.map((f, i) => {
          const applied = st.detail.applied[i];
          const proposed = st.detail.proposed[i];
          const notApplied = f.edited ? [] : (proposed?.hunks ?? []).filter((_, h) => f.decisions[h] !== "approved");
          const lang = langForPath(f.path);
          if (!applied) return null;
          return (
            <FileDiffView key={f.path} diff={applied} layout={layout} tone={f.edited ? "edited" : undefined}>
              {!f.written && <p className="empty">Nothing was written to this file.</p>}
              {notApplied.map((h) => (
                <ReadonlyHunk key={`p${h.index}`} hunk={h} lang={lang} layout={layout} tone="rejected" />
              ))}
            </FileDiffView>
          );
        })}
    </div>
  );
}
