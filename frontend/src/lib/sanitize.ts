import DOMPurify from "dompurify";

// One DOMPurify instance per kind of HTML, each configured once: passing a
// configuration to every sanitize call makes DOMPurify parse and copy it
// again, which cost more than the sanitizing itself for a streamed delta.
const snippets = DOMPurify(window);
snippets.setConfig({ ALLOWED_TAGS: ["mark"], ALLOWED_ATTR: [] });
const markdown = DOMPurify(window);
markdown.setConfig({
  ADD_ATTR: ["data-copy"],
  FORBID_TAGS: ["style", "form", "input", "textarea", "select", "iframe"],
  FORBID_ATTR: ["style"],
});

/** Search snippets: escaped text with <mark> around hits; keep only <mark>. */
export function sanitizeSnippet(html: string): string {
  return snippets.sanitize(html);
}

/** Rendered Markdown: the usual safe HTML, plus the copy button on code blocks. */
export function sanitizeMarkdown(html: string): string {
  return markdown.sanitize(html);
}
