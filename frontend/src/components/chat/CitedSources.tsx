import type { Source } from "../../lib/wire.gen";
import Visible from "../Visible";

/**
 * The pages a text block cites, from the provider's own web search: each
 * title and address once (the words quoted from it on hover), all shown as
 * outside text. The search's own card lists what it found.
 */
export default function CitedSources({ sources }: { sources: Source[] }) {
  const seen = new Set<string>();
  const once = sources.filter((s) => !seen.has(s.url) && seen.add(s.url));
  return (
    <ul className="cited-sources" data-testid="cited-sources" aria-label="Sources this text cites">
      {once.map((s) => (
        <li key={s.url} data-testid="cited-source" title={s.cited || undefined}>
          <Visible text={s.title || s.url} /> <span className="cited-url">(<Visible text={s.url} />)</span>
        </li>
      ))}
    </ul>
  );
}
