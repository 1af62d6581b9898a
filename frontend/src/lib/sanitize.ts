import DOMPurify from "dompurify";

/** Search snippets: escaped text with <mark> around hits; keep only <mark>. */
export function sanitizeSnippet(html: string): string {
  return DOMPurify.sanitize(html, { ALLOWED_TAGS: ["mark"], ALLOWED_ATTR: [] });
}

/** Rendered Markdown: the usual safe HTML, plus the copy button on code blocks. */
export function sanitizeMarkdown(html: string): string {
  return DOMPurify.sanitize(html, {
    ADD_ATTR: ["data-copy"],
    FORBID_TAGS: ["style", "form", "input", "textarea", "select", "iframe"],
    FORBID_ATTR: ["style"],
  });
}
