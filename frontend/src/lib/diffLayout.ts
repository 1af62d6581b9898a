// Turns a hunk's lines into rows for the side-by-side and unified views:
// runs of deleted lines followed by added lines are paired, and each pair
// gets the span where the two differ marked.
import type { DiffLine, Hunk } from "./wire.gen";
import { highlight } from "./highlight";

export interface Side {
  no?: number;
  kind: "context" | "add" | "del" | "empty";
  html: string;
}

export interface SplitRow {
  left: Side;
  right: Side;
}

export interface UnifiedRow {
  kind: "context" | "add" | "del";
  oldNo?: number;
  newNo?: number;
  html: string;
}

/** Common prefix and suffix of two strings: the [start, end) of each differing span. */
export function changedSpan(a: string, b: string): { a: [number, number]; b: [number, number] } | null {
  if (a === b) return null;
  let p = 0;
  const max = Math.min(a.length, b.length);
  while (p < max && a[p] === b[p]) p++;
  let s = 0;
  while (s < max - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  return { a: [p, a.length - s], b: [p, b.length - s] };
}

/**
 * Wraps the characters [start, end) of the text behind highlighted HTML in
 * <mark class="intra">, closing and reopening the mark around tags so the
 * result stays well nested. Entities count as one character.
 */
export function markRange(html: string, start: number, end: number): string {
  if (start >= end) return html;
  let out = "";
  let pos = 0; // text offset
  let open = false;
  let i = 0;
  while (i < html.length) {
    const ch = html[i];
    if (ch === "<") {
      const close = html.indexOf(">", i);
      const tag = html.slice(i, close + 1);
      if (open) out += "</mark>" + tag + '<mark class="intra">';
      else out += tag;
      i = close + 1;
      continue;
    }
    if (pos === start && !open) {
      out += '<mark class="intra">';
      open = true;
    }
    if (pos === end && open) {
      out += "</mark>";
      open = false;
    }
    if (ch === "&") {
      const semi = html.indexOf(";", i);
      out += html.slice(i, semi + 1);
      i = semi + 1;
    } else {
      out += ch;
      i++;
    }
    pos++;
  }
  if (open) out += "</mark>";
  return out.replace(/<mark class="intra"><\/mark>/g, "");
}

function lineHtml(text: string, lang: string, span?: [number, number]): string {
  const html = highlight(text, lang);
  return span ? markRange(html, span[0], span[1]) : html;
}

/** Pairs each run of del lines with the run of add lines right after it. */
function pairRuns(lines: DiffLine[], visit: (del: DiffLine | undefined, add: DiffLine | undefined, ctx?: DiffLine) => void) {
  let i = 0;
  while (i < lines.length) {
    const l = lines[i]!;
    if (l.kind === "context") {
      visit(undefined, undefined, l);
      i++;
      continue;
    }
    const dels: DiffLine[] = [];
    const adds: DiffLine[] = [];
    while (i < lines.length && lines[i]!.kind === "del") dels.push(lines[i++]!);
    while (i < lines.length && lines[i]!.kind === "add") adds.push(lines[i++]!);
    const n = Math.max(dels.length, adds.length);
    for (let k = 0; k < n; k++) visit(dels[k], adds[k]);
  }
}

export function splitRows(hunk: Hunk, lang: string): SplitRow[] {
  const rows: SplitRow[] = [];
  pairRuns(hunk.lines, (del, add, ctx) => {
    if (ctx) {
      const html = lineHtml(ctx.text, lang);
      rows.push({ left: { no: ctx.oldNo, kind: "context", html }, right: { no: ctx.newNo, kind: "context", html } });
      return;
    }
    const span = del && add ? changedSpan(del.text, add.text) : null;
    rows.push({
      left: del ? { no: del.oldNo, kind: "del", html: lineHtml(del.text, lang, span?.a) } : { kind: "empty", html: "" },
      right: add ? { no: add.newNo, kind: "add", html: lineHtml(add.text, lang, span?.b) } : { kind: "empty", html: "" },
    });
  });
  return rows;
}

export function unifiedRows(hunk: Hunk, lang: string): UnifiedRow[] {
  // Pair first to find the intra-line spans, then emit dels before adds.
  const spans = new Map<DiffLine, [number, number]>();
  pairRuns(hunk.lines, (del, add) => {
    if (del && add) {
      const s = changedSpan(del.text, add.text);
      if (s) {
        spans.set(del, s.a);
        spans.set(add, s.b);
      }
    }
  });
  return hunk.lines.map((l) => ({
    kind: l.kind,
    oldNo: l.oldNo,
    newNo: l.newNo,
    html: lineHtml(l.text, lang, spans.get(l)),
  }));
}

/** The rows of a hunk in a layout (without highlighting it): what its height is estimated from. */
export function rowCount(hunk: Hunk, layout: "split" | "unified"): number {
  if (layout === "unified") return hunk.lines.length;
  let n = 0;
  pairRuns(hunk.lines, () => n++);
  return n;
}

const sign = { context: " ", add: "+", del: "−", empty: "" } as const;

function numberCell(kind: string, no: number | undefined): string {
  return `<td class="ln ${kind}">${no ?? ""}</td>`;
}

/** A new-side number cell with the "comment on this line" control (see components/review/lineNotes.tsx). */
function addableCell(kind: string, no: number | undefined): string {
  if (no === undefined || kind === "del" || kind === "empty") return numberCell(kind, no);
  return `<td class="ln ${kind}"><button type="button" class="line-add" data-testid="line-comment-add" data-line="${no}" aria-label="Comment on line ${no}" title="Comment on line ${no} (Shift: extend the comment above to here)">+</button>${no}</td>`;
}

/**
 * The new-side line each row of a hunk's table shows (an added or a
 * context line), in the order of rowsHtml's rows; undefined for a row with
 * only a deleted line.
 */
export function newSideRows(hunk: Hunk, layout: "split" | "unified"): (DiffLine | undefined)[] {
  if (layout === "unified") return hunk.lines.map((l) => (l.kind === "del" ? undefined : l));
  const out: (DiffLine | undefined)[] = [];
  pairRuns(hunk.lines, (_del, add, ctx) => out.push(ctx ?? add));
  return out;
}

function codeCell(kind: keyof typeof sign, html: string): string {
  return `<td class="code ${kind}"><span class="sign" aria-hidden="true">${sign[kind]}</span><span>${html}</span></td>`;
}

/**
 * A hunk's table rows as one HTML string: side by side (before | after,
 * both halves of a line pair in one row so they stay aligned when lines
 * wrap) or unified. The code is highlighted (escaped) HTML; one string per
 * hunk is parsed once, where a cell each would start a parser each.
 */
export function rowsHtml(hunk: Hunk, lang: string, layout: "split" | "unified", addable = false): string {
  const newCell = addable ? addableCell : numberCell;
  if (layout === "split") {
    return splitRows(hunk, lang)
      .map((r) => `<tr>${numberCell(r.left.kind, r.left.no)}${codeCell(r.left.kind, r.left.html)}${newCell(r.right.kind, r.right.no)}${codeCell(r.right.kind, r.right.html)}</tr>`)
      .join("");
  }
  return unifiedRows(hunk, lang)
    .map((r) => `<tr>${numberCell(r.kind, r.oldNo)}${newCell(r.kind, r.newNo)}${codeCell(r.kind, r.html)}</tr>`)
    .join("");
}

// Built once per hunk, layout and language: a virtualised diff shows a
// hunk again each time it comes back into view, and moving its rows back
// into the page costs no parsing.
const bodyCache = new WeakMap<Hunk, Map<string, HTMLTableSectionElement>>();

/**
 * A hunk's rows (rowsHtml) as a <tbody>, memoised per hunk: the element
 * moves into the table that shows it. addable: the new-side lines carry
 * the "comment on this line" control.
 */
export function rowsBodyOf(hunk: Hunk, lang: string, layout: "split" | "unified", addable = false): HTMLTableSectionElement {
  let byKey = bodyCache.get(hunk);
  if (!byKey) bodyCache.set(hunk, (byKey = new Map()));
  const key = `${layout} ${lang}${addable ? " addable" : ""}`;
  let body = byKey.get(key);
  if (!body) {
    body = document.createElement("tbody");
    body.innerHTML = rowsHtml(hunk, lang, layout, addable);
    byKey.set(key, body);
  }
  return body;
}

// The fit rules live apart (diffFit.ts) so the window's layout state can use
// them without loading the highlighter.
export { chooseLayout, GUTTER_CHARS, SPLIT_CHARS } from "./diffFit";
