import { memo, type ReactNode } from "react";
import { langForPath } from "../../lib/highlight";
import type { FileDiff, Hunk } from "../../lib/wire.gen";
import DiffTable, { type DiffLayout } from "./DiffTable";
import DiffPath from "./DiffPath";

/** How a hunk of a decided change ended: written, rejected (not written), or the user's own text. */
export type HunkTone = "applied" | "rejected" | "edited";

const toneLabel: Record<HunkTone, string> = { applied: "applied", rejected: "rejected — not applied", edited: "your edit" };

/** One hunk without decisions: its range, an optional note, its lines. */
export const ReadonlyHunk = memo(function ReadonlyHunk({
  hunk,
  lang,
  layout,
  tone,
  path,
}: {
  hunk: Hunk;
  lang: string;
  layout: DiffLayout;
  tone?: HunkTone;
  /** The file, for the notes under its lines (lineNotes.tsx); without it the hunk shows none. */
  path?: string;
}) {
  return (
    <div className={`diff-hunk readonly${tone ? ` tone-${tone}` : ""}`} data-testid="readonly-hunk" data-tone={tone}>
      <div className="hunk-head">
        <span className="hunk-range">
          @@ −{hunk.oldStart},{hunk.oldLines} +{hunk.newStart},{hunk.newLines} @@
        </span>
        {tone && <span className={`hunk-note ${tone}`}>{toneLabel[tone]}</span>}
      </div>
      <DiffTable hunk={hunk} lang={lang} layout={layout} path={path} />
    </div>
  );
});

function counts(hunks: Hunk[]): { adds: number; dels: number } {
  let adds = 0;
  let dels = 0;
  for (const h of hunks) for (const l of h.lines) l.kind === "add" ? adds++ : l.kind === "del" ? dels++ : 0;
  return { adds, dels };
}

interface Props {
  diff: FileDiff;
  layout: DiffLayout;
  /** A note on every hunk of this diff. */
  tone?: HunkTone;
  /** More under the diff (a change's rejected hunks). */
  children?: ReactNode;
  /** Buttons in the file's header. */
  actions?: ReactNode;
}

/** Two states of one file, read only: its header (path, created/deleted, counts) and its hunks. */
function FileDiffView({ diff, layout, tone, children, actions }: Props) {
  const lang = langForPath(diff.path);
  const { adds, dels } = counts(diff.hunks);
  return (
    <section className="diff-view" data-testid="file-diff" data-path={diff.path} data-layout={layout} aria-label={`Diff of ${diff.path}`}>
      <header className="diff-file-head">
        <DiffPath path={diff.path} />
        {!diff.oldExists && diff.newExists && <span className="badge add">created</span>}
        {diff.oldExists && !diff.newExists && <span className="badge del">deleted</span>}
        <span className="diff-counts">
          <span className="adds">+{adds}</span> <span className="dels">−{dels}</span>
        </span>
        {actions}
      </header>
      {diff.missing ? (
        <p className="empty">{diff.missing}</p>
      ) : diff.binary ? (
        <p className="empty">Binary file, not shown.</p>
      ) : diff.hunks.length === 0 ? (
        <p className="empty">No textual changes.</p>
      ) : (
        diff.hunks.map((h) => <ReadonlyHunk key={h.index} hunk={h} lang={lang} layout={layout} tone={tone} path={diff.path} />)
      )}
      {children}
    </section>
  );
}

export default memo(FileDiffView);
