import { useRef } from "react";
import type { FileDiff } from "../../lib/wire.gen";
import { langForPath } from "../../lib/highlight";
import { rowCount } from "../../lib/diffLayout";
import { hunksSize } from "../../lib/reviewSize";
import { useDiffLayout } from "../../lib/useDiffLayout";
import { useVirtualList } from "../../lib/useVirtualList";
import { ReadonlyHunk } from "../review/FileDiffView";

/** A hunk's height before it is measured (as in the review's DiffView). */
const HEAD_PX = 29;
const ROW_PX = 18;

interface Props {
  /** The file on disk now → the version the restore would write. */
  diff: FileDiff;
  /** The two sides' names: the user's file, and the earlier version. */
  mine: string;
  theirs: string;
}

/**
 * The two versions of a conflicting file as a highlighted diff, the same
 * tables as the review: only the places where they differ (unchanged lines
 * folded away), side by side when there is room, and only the hunks near
 * the view rendered, so a file of thousands of lines stays quick.
 */
export default function ConflictDiff({ diff, mine, theirs }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const size = hunksSize(diff.hunks);
  const layout = useDiffLayout(box, size.cols);
  const lang = langForPath(diff.path);
  const v = useVirtualList(
    list,
    diff.hunks.length,
    (i) => HEAD_PX + ROW_PX * rowCount(diff.hunks[i]!, layout),
    (el) => Number(el.dataset.hunkIndex),
    layout,
    null,
  );
  const places = diff.hunks.length;
  let dels = 0;
  for (const h of diff.hunks) for (const l of h.lines) if (l.kind === "del") dels++;
  const adds = size.changed - dels;
  const n = (k: number) => `${k} line${k === 1 ? "" : "s"}`;
  return (
    <div className="conflict-diff" ref={box} data-layout={layout} data-testid="conflict-diff">
      <p className="conflict-legend muted">
        {places === 1 ? "1 place differs" : `${places} places differ`}; unchanged lines are folded. <span className="legend-del">− {n(dels)} only in yours</span>{" "}
        <span className="legend-add">+ {n(adds)} only in the earlier version</span>
      </p>
      {layout === "split" && (
        <div className="conflict-sides" aria-hidden="true">
          <span>{mine}</span>
          <span>{theirs}</span>
        </div>
      )}
      <div className="conflict-hunks">
        <div ref={list}>
        {v.before > 0 && <div className="diff-spacer" aria-hidden="true" style={{ height: v.before }} />}
        {diff.hunks.slice(v.first, v.last + 1).map((h, k) => (
          <div key={h.index} ref={v.measure} data-hunk-index={v.first + k}>
            <ReadonlyHunk hunk={h} lang={lang} layout={layout} />
          </div>
        ))}
        {v.after > 0 && <div className="diff-spacer" aria-hidden="true" style={{ height: v.after }} />}
        </div>
      </div>
    </div>
  );
}
