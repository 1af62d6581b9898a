import { memo } from "react";
import type { Hunk } from "../../lib/types";
import { rowsHtmlOf } from "../../lib/diffLayout";

export type DiffLayout = "split" | "unified";

/**
 * A hunk's lines as a table: side by side (before | after, both halves of a
 * line pair in one row so they stay aligned when lines wrap) or unified.
 * The rows are one HTML string (rowsHtml: highlighted, escaped), built once
 * per hunk and parsed at once.
 */
function DiffTable({ hunk, lang, layout }: { hunk: Hunk; lang: string; layout: DiffLayout }) {
  return (
    <table className={`diff-table ${layout}`}>
      <tbody dangerouslySetInnerHTML={{ __html: rowsHtmlOf(hunk, lang, layout) }} />
    </table>
  );
}

export default memo(DiffTable);
