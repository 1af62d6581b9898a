import { Fragment, useMemo } from "react";
import { visibleParts } from "../lib/visible";

/**
 * Outside text with every character visible (lib/visible.ts): text as it
 * is, and each control, bidirectional, invisible or smuggling character
 * as a badge with its short name (ESC, CR, RLO, U+E0041), its name for
 * screen readers and as a tooltip. lines keeps line breaks and tabs as
 * text (in a pre); without it they are badges too.
 */
export default function Visible({ text, lines = false }: { text: string; lines?: boolean }) {
  const parts = useMemo(() => visibleParts(text, lines), [text, lines]);
  if (parts.length === 0) return null;
  if (parts.length === 1 && parts[0].kind === "text") return <>{parts[0].text}</>;
  return (
    <>
      {parts.map((p, i) =>
        p.kind === "text" ? (
          <Fragment key={i}>{p.text}</Fragment>
        ) : (
          <span key={i} className="hidden-char" data-testid="hidden-char" data-code={p.code} role="img" aria-label={`hidden character: ${p.name}`} title={`Hidden character: ${p.name}`}>
            {p.short}
          </span>
        ),
      )}
    </>
  );
}
