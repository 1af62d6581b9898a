// Markdown to safe HTML. A streaming message is split into top-level blocks
// (blank-line separated, outside code fences) so that only the last, still
// growing block is parsed again when a delta arrives; finished blocks are
// memoised by their source text.
import { Marked, type Tokens } from "marked";
import { escapeHtml, highlight, knownLanguage } from "./highlight";
import { sanitizeMarkdown } from "./sanitize";

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }: Tokens.Code): string {
      const language = (lang ?? "").trim().split(/\s+/)[0]?.toLowerCase() ?? "";
      const body = knownLanguage(language) ? highlight(text, language) : escapeHtml(text);
      const label = language ? `<span class="code-lang">${escapeHtml(language)}</span>` : "";
      return (
        `<div class="code-block"><div class="code-head">${label}` +
        `<button type="button" class="code-copy" data-copy="1" aria-label="Copy code">Copy</button></div>` +
        `<pre><code class="hljs${language ? ` language-${escapeHtml(language)}` : ""}">${body}</code></pre></div>`
      );
    },
  },
});

export function renderMarkdown(src: string): string {
  const html = marked.parse(src, { async: false });
  return sanitizeMarkdown(html);
}

const fenceRe = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits Markdown into top-level chunks at blank lines outside fenced code.
 * A blank line followed by an indented line (list continuation, indented
 * code) does not split. Joining the chunks with "\n\n" gives back the text
 * up to whitespace.
 */
export function splitBlocks(src: string): string[] {
  const lines = src.split("\n");
  const out: string[] = [];
  let cur: string[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const m = fenceRe.exec(line);
    if (fence) {
      cur.push(line);
      if (m && m[1] && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = null;
      continue;
    }
    if (m && m[1]) {
      fence = m[1];
      cur.push(line);
      continue;
    }
    if (line.trim() === "") {
      const next = lines[i + 1];
      if (next !== undefined && /^\s+\S/.test(next) && cur.length > 0) {
        cur.push(line);
        continue;
      }
      if (cur.length > 0) {
        out.push(cur.join("\n"));
        cur = [];
      }
      continue;
    }
    cur.push(line);
  }
  if (cur.length > 0) out.push(cur.join("\n"));
  return out;
}
