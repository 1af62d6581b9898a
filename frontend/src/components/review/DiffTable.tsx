import { memo, useMemo } from "react";
import type { Hunk } from "../../lib/types";
import { splitRows, unifiedRows } from "../../lib/diffLayout";

export type DiffLayout = "split" | "unified";

const sign = { context: " ", add: "+", del: "−", empty: "" } as const;

/**
 * A hunk's lines as a table: side by side (before | after, both halves of a
 * line pair in one row so they stay aligned when lines wrap) or unified.
 */
function DiffTable({ hunk, lang, layout }: { hunk: Hunk; lang: string; layout: DiffLayout }) {
  const split = useMemo(() => (layout === "split" ? splitRows(hunk, lang) : null), [hunk, lang, layout]);
  const unified = useMemo(() => (layout === "unified" ? unifiedRows(hunk, lang) : null), [hunk, lang, layout]);
  return (
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
  );
}

export default memo(DiffTable);
