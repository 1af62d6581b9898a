import { memo, useCallback, useEffect, useRef, type RefCallback } from "react";
import type { Hunk } from "../../lib/wire.gen";
import type { HunkDecision } from "../../state/review";
import DiffTable, { type DiffLayout } from "./DiffTable";

export type { DiffLayout };

interface Props {
  hunk: Hunk;
  index: number;
  lang: string;
  layout: DiffLayout;
  decision: HunkDecision;
  focused: boolean;
  locked: boolean;
  onDecide: (index: number, d: HunkDecision) => void;
  onFocus: (index: number) => void;
  /** The virtualised list's measuring ref. */
  ref?: RefCallback<HTMLDivElement>;
}

function DiffHunk({ hunk, index, lang, layout, decision, focused, locked, onDecide, onFocus, ref: measure }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const setRef = useCallback(
    (el: HTMLDivElement | null) => {
      ref.current = el;
      return measure?.(el) ?? undefined;
    },
    [measure],
  );

  useEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: "nearest" });
  }, [focused]);

  const toggle = (d: HunkDecision) => onDecide(index, decision === d ? "pending" : d);

  return (
    <div
      ref={setRef}
      className={`diff-hunk decision-${decision}${focused ? " focused" : ""}`}
      data-testid="diff-hunk"
      data-hunk-index={index}
      data-decision={decision}
      onClick={() => onFocus(index)}
    >
      <div className="hunk-head">
        <span className="hunk-range">
          {hunk.note ? "whole file" : `@@ −${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`}
        </span>
        <span className="hunk-decision" aria-live="polite">
          {decision === "approved" ? "✓ approved" : decision === "rejected" ? "✕ rejected" : "undecided"}
        </span>
        <button
          type="button"
          className={`small approve${decision === "approved" ? " on" : ""}`}
          data-testid="hunk-approve"
          aria-pressed={decision === "approved"}
          aria-label={`Approve hunk ${index + 1}`}
          disabled={locked}
          onClick={(e) => {
            e.stopPropagation();
            onFocus(index);
            toggle("approved");
          }}
        >
          ✓ Approve
        </button>
        <button
          type="button"
          className={`small reject${decision === "rejected" ? " on" : ""}`}
          data-testid="hunk-reject"
          aria-pressed={decision === "rejected"}
          aria-label={`Reject hunk ${index + 1}`}
          disabled={locked}
          onClick={(e) => {
            e.stopPropagation();
            onFocus(index);
            toggle("rejected");
          }}
        >
          ✕ Reject
        </button>
      </div>
      {hunk.note ? <p className="hunk-note">{hunk.note}</p> : <DiffTable hunk={hunk} lang={lang} layout={layout} />}
    </div>
  );
}

export default memo(DiffHunk);
