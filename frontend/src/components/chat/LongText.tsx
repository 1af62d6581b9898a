import { useState } from "react";

/** Over this many characters or lines a message is shown folded. */
export const FOLD_CHARS = 3000;
export const FOLD_LINES = 40;

/** The part shown while folded: the first lines, at most FOLD_CHARS characters. */
export function foldedPart(text: string): string | null {
  const lines = text.split("\n");
  if (text.length <= FOLD_CHARS && lines.length <= FOLD_LINES) return null;
  let shown = lines.slice(0, Math.min(lines.length, 20)).join("\n");
  if (shown.length > FOLD_CHARS / 2) shown = shown.slice(0, FOLD_CHARS / 2);
  return shown;
}

/** A paragraph of the user's text; a long one (a pasted file) folds, with "Show all". */
export default function LongText({ text, className }: { text: string; className: string }) {
  const [open, setOpen] = useState(false);
  const folded = foldedPart(text);
  if (folded === null) return <p className={className}>{text}</p>;
  const lines = text.split("\n").length;
  const size = text.length >= 10_000 ? `${Math.round(text.length / 1000)}k characters` : `${text.length} characters`;
  return (
    <div className="long-text" data-testid="message-long" data-open={open ? "true" : "false"}>
      <p className={className}>{open ? text : `${folded}…`}</p>
      <button type="button" className="small" data-testid="message-expand" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "Show less" : `Show all (${lines.toLocaleString("en")} lines, ${size})`}
      </button>
    </div>
  );
}
