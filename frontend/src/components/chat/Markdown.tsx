import { memo, useContext, useMemo, type MouseEvent } from "react";
import { BackendContext } from "../../lib/backend";
import { renderMarkdown, splitBlocks } from "../../lib/markdown";
import { useAdaptiveText } from "../../lib/useAdaptiveText";

const Chunk = memo(function Chunk({ src }: { src: string }) {
  const html = useMemo(() => renderMarkdown(src), [src]);
  return <div className="md-chunk" dangerouslySetInnerHTML={{ __html: html }} />;
});

/**
 * Copies code of a code block's Copy button; opens http(s) links in the
 * user's browser instead of navigating the window away.
 */
function onClick(e: MouseEvent<HTMLDivElement>, openExternal: (url: string) => void) {
  const target = e.target as HTMLElement;
  const copy = target.closest<HTMLButtonElement>("button.code-copy");
  if (copy) {
    const code = copy.closest(".code-block")?.querySelector("code")?.textContent ?? "";
    void navigator.clipboard?.writeText(code).then(() => {
      copy.textContent = "Copied";
      setTimeout(() => (copy.textContent = "Copy"), 1500);
    });
    return;
  }
  const a = target.closest("a");
  if (!a) return;
  e.preventDefault();
  if (/^https?:\/\//i.test(a.href)) openExternal(a.href);
}

/**
 * Markdown rendered to sanitised HTML, one chunk per top-level block: while
 * a message streams only its last chunk changes, so only that one is parsed.
 */
export default function Markdown({ text }: { text: string }) {
  const shown = useAdaptiveText(text);
  const chunks = useMemo(() => splitBlocks(shown), [shown]);
  const backend = useContext(BackendContext);
  const open = (url: string) => void backend?.openExternal(url).catch((err: unknown) => console.error(err));
  return (
    <div className="markdown" onClick={(e) => onClick(e, open)}>
      {chunks.map((c, i) => (
        <Chunk key={i} src={c} />
      ))}
    </div>
  );
}
