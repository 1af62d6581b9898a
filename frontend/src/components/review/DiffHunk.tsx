import { memo, useEffect, useMemo, useRef } from "react";
import type { Hunk } from "../../lib/types";
import { splitRows, unifiedRows } from "../../lib/diffLayout";
import type { HunkDecision } from "../../state/review";

export type DiffLayout = "split" | "unified";

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
}

const sign = { context: " ", add: "+", del: "−", empty: "" } as const;

function DiffHunk({ hunk, index, lang, layout, decision, focused, locked, onDecide, onFocus }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const split = useMemo(() => (layout === "split" ? splitRows(hunk, lang) : null), [hunk, lang, layout]);
  const unified = useMemo(() => (layout === "unified" ? unifiedRows(hunk, lang) : null), [hunk, lang, layout]);

  useEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: "nearest" });
  }, [focused]);

  const toggle = (d: HunkDecision) => onDecide(index, decision === d ? "pending" : d);

  return (
    <div
      ref={ref}
      className={`diff-hunk decision-${decision}${focused ? " focused" : ""}`}
      data-testid="diff-hunk"
      data-hunk-index={index}
      data-decision={decision}
      onClick={() => onFocus(index)}
    >
      <div className="hunk-head">
        <span className="hunk-range">
          @@ −{hunk.oldStart},{hunk.oldLines} +{hunk.newStart},{hunk.newLines} @@
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
      <table className={`diff-table ${layout}`}>
        <tbody>
          {split?.map((r, i) => (
            <tr key={i}>
              <td className={`ln ${r.left.kind}`}>{r.left.no ?? ""}</td>
              <td className={`code ${r.left.kind}`}>
                <span className="sign" aria-hidden="true">{sign[r.left.kind]}</span>
                <span dangerouslySetInnerHTML={{ __html: r.left.html }} />
              </td>
              <td className={`ln ${r.right.kind}`}>{r.right.no ?? ""}</td>
              <td className={`code ${r.right.kind}`}>
                <span className="sign" aria-hidden="true">{sign[r.right.kind]}</span>
                <span dangerouslySetInnerHTML={{ __html: r.right.html }} />
              </td>
            </tr>
          ))}
          {unified?.map((r, i) => (
            <tr key={i}>
              <td className={`ln ${r.kind}`}>{r.oldNo ?? ""}</td>
              <td className={`ln ${r.kind}`}>{r.newNo ?? ""}</td>
              <td className={`code ${r.kind}`}>
                <span className="sign" aria-hidden="true">{sign[r.kind]}</span>
                <span dangerouslySetInnerHTML={{ __html: r.html }} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default memo(DiffHunk);
