// Markdown to safe HTML. A streaming message is split into pieces
// (blockStream.ts, paragraphStream.ts) so that only the last, still growing
// piece is parsed again when a delta arrives; finished pieces are memoised.
import { Marked, type Tokens } from "marked";
import { escapeHtml, highlight, knownLanguage } from "./highlight";
import { hasOpenDelimiter } from "./paragraphStream";
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

/** One paragraph's inline Markdown (a segment of a long paragraph) to safe HTML, without the <p>. */
export function renderInline(src: string): string {
  return sanitizeMarkdown(marked.parseInline(src, { async: false }));
}

/**
 * Whether a segment of a paragraph, parsed alone, matched every emphasis
 * delimiter it holds (ParagraphStream's check before it cuts there). The
 * HTML is only inspected, never shown, so it is not sanitised.
 */
export function segmentClosed(segment: string): boolean {
  return !hasOpenDelimiter(marked.parseInline(segment, { async: false }).replace(/<[^>]*>/g, ""));
}
