import { memo, useContext, useMemo, useRef, type MouseEvent } from "react";
import { BackendContext } from "../lib/backend";
import { BlockStream } from "../lib/blockStream";
import { HtmlCache } from "../lib/htmlCache";
import { renderInline, renderMarkdown, segmentClosed } from "../lib/markdown";
import { isPlainParagraph, ParagraphStream, SEGMENT_MIN } from "../lib/paragraphStream";


const Segment = memo(function Segment({ src }: { src: string }) {
  const html = useMemo(() => renderInline(src), [src]);
  return <p dangerouslySetInnerHTML={{ __html: html }} />;
});

/**
 * A long plain paragraph, rendered segment by segment: while it streams
 * only its last segment is parsed again. Each segment is a block of its own
 * (margins only below the last) so that the browser lays out only the last
 * one; a segment's last line may end short of the margin.
 */
function LongParagraph({ src }: { src: string }) {
  const stream = useRef<ParagraphStream | null>(null);
  stream.current ??= new ParagraphStream(segmentClosed);
  const { done, open } = stream.current.update(src);
  return (
    <div className="md-chunk md-long" data-testid="md-long">
      {done.map((s, i) => (
        <Segment key={i} src={s} />
      ))}
      {open && <Segment key={done.length} src={open} />}
    </div>
  );
}

/** Chunks of the messages lately in view (about a hundred messages' worth). */
const chunks = new HtmlCache(renderMarkdown, 1000);

const Chunk = memo(function Chunk({ src }: { src: string }) {
  const long = src.length >= SEGMENT_MIN && isPlainParagraph(src);
  const html = useMemo(() => (long ? "" : chunks.get(src)), [src, long]);
  if (long) return <LongParagraph src={src} />;
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
 * Markdown rendered to sanitised HTML, one chunk per top-level block. The
 * text is split incrementally (BlockStream): a delta costs the scan of what
 * it added and the parse of the last, open chunk, whatever the length of
 * the message; finished chunks keep their elements.
 */
export default function Markdown({ text }: { text: string }) {
  const stream = useRef<BlockStream | null>(null);
  stream.current ??= new BlockStream();
  const { done, open } = stream.current.update(text);
  const backend = useContext(BackendContext);
  const openLink = (url: string) => void backend?.openExternal(url).catch((err: unknown) => console.error(err));
  return (
    <div className="markdown" onClick={(e) => onClick(e, openLink)}>
      {done.map((c, i) => (
        <Chunk key={i} src={c} />
      ))}
      {open && <Chunk key={done.length} src={open} />}
    </div>
  );
}
