import { Fragment, memo, useCallback, useMemo, useState, type MouseEvent } from "react";
import { createPortal } from "react-dom";
import type { Hunk } from "../../lib/wire.gen";
import { newSideRows, rowsBodyOf } from "../../lib/diffLayout";
import { useLineNotes } from "./lineNotes";

export type DiffLayout = "split" | "unified";

/** The cells under lines that have notes, by new-side line. */
type NoteCells = ReadonlyMap<number, HTMLTableCellElement>;
const noCells: NoteCells = new Map();

/**
 * A hunk's lines as a table: side by side (before | after, both halves of a
 * line pair in one row so they stay aligned when lines wrap) or unified.
 * The rows are built once per hunk (rowsBodyOf: highlighted, escaped) and
 * moved into the table each time it is shown. path: the file, for the
 * notes under its lines (lineNotes.tsx): a hunk with notes gets a copy of
 * its rows with a row under each noted line, which the notes render into.
 */
function DiffTable({ hunk, lang, layout, path }: { hunk: Hunk; lang: string; layout: DiffLayout; path?: string }) {
  const { byLine, onAdd } = useLineNotes(path);
  const addable = onAdd !== undefined;
  const lines = useMemo(() => newSideRows(hunk, layout), [hunk, layout]);
  // The noted lines of this hunk, as a key: the rows are rebuilt only when it changes.
  const noted = lines.flatMap((l) => (l?.newNo !== undefined && byLine.has(l.newNo) ? [l.newNo] : [])).join(",");
  const [cells, setCells] = useState<NoteCells>(noCells);
  const fill = useCallback(
    (table: HTMLTableElement | null) => {
      if (!table) return;
      const body = rowsBodyOf(hunk, lang, layout, addable);
      if (noted === "") {
        // The same hunk shown twice at once: the second table gets a copy.
        table.replaceChildren(body.isConnected && body.parentElement !== table ? body.cloneNode(true) : body);
        setCells(noCells);
        return;
      }
      const copy = body.cloneNode(true) as HTMLTableSectionElement;
      const rows = Array.from(copy.rows);
      const at = new Map<number, HTMLTableCellElement>();
      const want = new Set(noted.split(",").map(Number));
      lines.forEach((l, i) => {
        if (l?.newNo === undefined || !want.has(l.newNo) || at.has(l.newNo)) return;
        const tr = document.createElement("tr");
        tr.className = "line-notes";
        const td = tr.insertCell();
        td.colSpan = layout === "split" ? 4 : 3;
        rows[i]?.after(tr);
        at.set(l.newNo, td);
      });
      table.replaceChildren(copy);
      setCells(at);
    },
    [hunk, lang, layout, addable, noted, lines],
  );
  const click = (e: MouseEvent<HTMLTableElement>) => {
    const b = (e.target as Element).closest<HTMLElement>("button.line-add");
    if (!b || !onAdd || path === undefined) return;
    const no = Number(b.dataset.line);
    const line = hunk.lines.find((l) => l.kind !== "del" && l.newNo === no);
    onAdd({ path, line: no, text: line?.text ?? "" }, e.shiftKey);
  };
  return (
    <>
      <table ref={fill} className={`diff-table ${layout}`} onClick={addable ? click : undefined} />
      {Array.from(cells, ([line, td]) =>
        createPortal(
          (byLine.get(line) ?? []).map((n) => <Fragment key={n.key}>{n.node}</Fragment>),
          td,
          `line-${line}`,
        ),
      )}
    </>
  );
}

export default memo(DiffTable);
