import type { Block, Source } from "../../lib/wire.gen";
import Visible from "../Visible";

/** A part of an answer as shown: a block other than text, or a run of text blocks as one text with the sources it cites. */
export type AnswerPart = { kind: "block"; block: Block; index: number } | { kind: "text"; text: string; sources: Source[]; index: number };

/**
 * An answer's blocks as shown. A provider's own web search cuts its answer
 * into text blocks at each cited passage; a run of text blocks reads as
 * the one text it is, each cited passage followed by the numbers of its
 * sources ("[1]"), and the run's sources listed once each, in that order.
 */
export function answerParts(blocks: Block[]): AnswerPart[] {
  const out: AnswerPart[] = [];
  let run: Extract<AnswerPart, { kind: "text" }> | null = null;
  blocks.forEach((b, index) => {
    if (b.type !== "text") {
      run = null;
      out.push({ kind: "block", block: b, index });
      return;
    }
    if (!b.text) return;
    if (!run) {
      run = { kind: "text", text: "", sources: [], index };
      out.push(run);
    }
    let text = b.text;
    if (b.sources?.length) {
      const marks = new Set<number>();
      for (const s of b.sources) {
        let n = run.sources.findIndex((x) => x.url === s.url);
        if (n < 0) n = run.sources.push(s) - 1;
        marks.add(n + 1);
      }
      const mark = [...marks].map((n) => `[${n}]`).join("");
      text = text.replace(/\s*$/, (ws) => ` ${mark}${ws}`);
    }
    run.text += text;
  });
  return out;
}

/**
 * The pages a run of text cites, from the provider's own web search,
 * numbered as the text's marks: each title and address (the words quoted
 * from it on hover), shown as outside text. The search's own card lists
 * what it found.
 */
export default function CitedSources({ sources }: { sources: Source[] }) {
  return (
    <ol className="cited-sources" data-testid="cited-sources" aria-label="Sources this text cites">
      {sources.map((s) => (
        <li key={s.url} data-testid="cited-source" title={s.cited || undefined}>
          <Visible text={s.title || s.url} /> <span className="cited-url">(<Visible text={s.url} />)</span>
        </li>
      ))}
    </ol>
  );
}
