import { memo, useCallback } from "react";
import type { Hunk } from "../../lib/wire.gen";
import { rowsBodyOf } from "../../lib/diffLayout";

export type DiffLayout = "split" | "unified";

/**
 * A hunk's lines as a table: side by side (before | after, both halves of a
 * line pair in one row so they stay aligned when lines wrap) or unified.
 * The rows are built once per hunk (rowsBodyOf: highlighted, escaped) and
 * moved into the table each time it is shown.
 */
function DiffTable({ hunk, lang, layout }: { hunk: Hunk; lang: string; layout: DiffLayout }) {
  const fill = useCallback(
    (table: HTMLTableElement | null) => {
      if (!table) return;
      const body = rowsBodyOf(hunk, lang, layout);
      // The same hunk shown twice at once: the second table gets a copy.
      table.replaceChildren(body.isConnected && body.parentElement !== table ? body.cloneNode(true) : body);
    },
    [hunk, lang, layout],
  );
  return <table ref={fill} className={`diff-table ${layout}`} />;
}

export default memo(DiffTable);
