import { useState } from "react";
import type { Diagnostics } from "../../lib/wire.gen";

function count(n: number, one: string): string {
  return `${n.toLocaleString("en-US")} ${one}${n === 1 ? "" : "s"}`;
}

/**
 * What the language servers said after a change, as the card's line:
 * "2 errors after this change", "No errors after this change", or the
 * sentence saying why it is unknown (a server missing or slow).
 */
export function diagnosticsText(d: Diagnostics): string {
  if (d.errors + d.warnings === 0) return d.note || "No errors after this change";
  const parts: string[] = [];
  if (d.errors > 0) parts.push(count(d.errors, "error"));
  if (d.warnings > 0) parts.push(count(d.warnings, "warning"));
  return `${parts.join(", ")} after this change`;
}

/**
 * The diagnostics line of a file-change or command card; a click shows
 * the errors and warnings (errors first) and the note.
 */
export default function DiagnosticsSummary({ d }: { d: Diagnostics }) {
  const [open, setOpen] = useState(false);
  const more = d.errors + d.warnings - d.items.length;
  const kind = d.errors > 0 ? "errors" : d.warnings > 0 ? "warnings" : d.note ? "unknown" : "clean";
  const expandable = d.items.length > 0 || (!!d.note && d.errors + d.warnings > 0);
  return (
    <div className={`diagnostics diagnostics-${kind}`}>
      <button
        type="button"
        className="diagnostics-head"
        data-testid="diagnostics-summary"
        data-errors={d.errors}
        data-warnings={d.warnings}
        aria-expanded={expandable ? open : undefined}
        disabled={!expandable}
        onClick={() => setOpen(!open)}
      >
        <span className="diagnostics-mark" aria-hidden="true">
          {kind === "errors" ? "✕" : kind === "warnings" ? "!" : kind === "clean" ? "✓" : "?"}
        </span>{" "}
        {diagnosticsText(d)}
        {expandable && (
          <span className="chevron" aria-hidden="true">
            {open ? " ▾" : " ▸"}
          </span>
        )}
      </button>
      {open && (
        <div className="diagnostics-body" data-testid="diagnostics-list">
          <ul>
            {d.items.map((x, i) => (
              <li key={i} className={`diagnostic severity-${x.severity}`} data-testid="diagnostic" data-path={x.path} data-line={x.line} data-severity={x.severity}>
                <code className="diagnostic-where">
                  {x.path}:{x.line}:{x.col}
                </code>{" "}
                <span className="diagnostic-severity">{x.severity}</span> <span className="diagnostic-message">{x.message}</span>
                {x.source && <span className="muted"> ({x.source})</span>}
              </li>
            ))}
            {more > 0 && <li className="muted">…and {more.toLocaleString("en-US")} more</li>}
          </ul>
          {d.note && <p className="muted small-text diagnostics-note">{d.note}</p>}
        </div>
      )}
    </div>
  );
}
