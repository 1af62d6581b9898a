import { memo, useCallback, useEffect, useRef, type RefCallback } from "react";
import type { Hunk } from "../../lib/wire.gen";
import type { HunkDecision } from "../../state/review";
import DiffTable, { type DiffLayout } from "./DiffTable";

export type { DiffLayout };

interface Props {
  hunk: Hunk;
  /** The file, for the notes under its lines (lineNotes.tsx). */
  path: string;
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

/** Approves or rejects one hunk (pressed again: undecided again), focusing the hunk; the click goes no further. */
function HunkButton({
  to,
  verb,
  mark,
  index,
  decision,
  locked,
  onFocus,
  toggle,
}: {
  to: "approved" | "rejected";
  verb: string;
  mark: string;
  index: number;
  decision: HunkDecision;
  locked: boolean;
  onFocus: (index: number) => void;
  toggle: (d: HunkDecision) => void;
}) {
  const on = decision === to;
  const name = verb.toLowerCase();
  return (
    <button
      type="button"
      className={`small ${name}${on ? " on" : ""}`}
      data-testid={`hunk-${name}`}
      aria-pressed={on}
      aria-label={`${verb} hunk ${index + 1}`}
      disabled={locked}
      onClick={(e) => {
        e.stopPropagation();
        onFocus(index);
        toggle(to);
      }}
    >
      {`${mark} ${verb}`}
    </button>
  );
}

function DiffHunk({ hunk, path, index, lang, layout, decision, focused, locked, onDecide, onFocus, ref: measure }: Props) {
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
  const toggleProps = { index, decision, locked, onFocus, toggle };

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
        <HunkButton to="approved" verb="Approve" mark="✓" {...toggleProps} />
        <HunkButton to="rejected" verb="Reject" mark="✕" {...toggleProps} />
      </div>
      {hunk.note ? <p className="hunk-note">{hunk.note}</p> : <DiffTable hunk={hunk} lang={lang} layout={layout} path={path} />}
    </div>
  );
}

export default memo(DiffHunk);
