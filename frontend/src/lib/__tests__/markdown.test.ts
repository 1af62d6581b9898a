import { describe, expect, it } from "vitest";
import { splitBlocks } from "../blockStream";
import { renderMarkdown } from "../markdown";
import { sanitizeSnippet } from "../sanitize";

describe("renderMarkdown", () => {
  it("highlights fenced code and adds a copy button", () => {
    const html = renderMarkdown("```go\nfunc main() {}\n```");
    expect(html).toContain('<span class="hljs-keyword">func</span>');
    expect(html).toContain('class="code-copy"');
    expect(html).toContain('class="code-lang">go<');
  });
  it("removes scripts, handlers and javascript: links", () => {
    const html = renderMarkdown('hi <script>alert(1)</script><img src=x onerror="alert(2)"> [x](javascript:alert(3)) <a href="#" onclick="x()">y</a>');
    expect(html).not.toMatch(/<script|onerror|javascript:|onclick/i);
    expect(html).toContain("hi");
  });
});

describe("splitBlocks", () => {
  it("splits at blank lines but never inside a code fence or before an indented continuation", () => {
    const src = "# T\n\npara one\nline two\n\n```js\na\n\nb\n```\n\n- item\n\n  more of item\n\nend";
    expect(splitBlocks(src)).toEqual(["# T", "para one\nline two", "```js\na\n\nb\n```", "- item\n\n  more of item", "end"]);
  });
  it("keeps an unterminated fence (still streaming) in one chunk", () => {
    expect(splitBlocks("x\n\n```py\nprint(1)\n\nprint(2)")).toEqual(["x", "```py\nprint(1)\n\nprint(2)"]);
  });
});

describe("sanitizeSnippet", () => {
  it("keeps only mark", () => {
    expect(sanitizeSnippet('a <mark>hit</mark> &lt;b&gt; <b onclick="x">bold</b><img src=x onerror=y>')).toBe(
      "a <mark>hit</mark> &lt;b&gt; bold",
    );
  });
});
