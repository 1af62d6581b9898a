// How the window says a model's facts (its window, answer limit and
// prices) and where each came from (docs/MODELS.md): the model picker,
// Settings › Models and the status bar say them the same way.
import type { FactSource, ModelFacts, ModelPrices } from "./wire.gen";
import { formatTokens } from "./format";

/** Where a fact came from, after "the window …" in a title. */
export const factFrom: Record<FactSource, string> = {
  override: "is yours (Settings › Models)",
  server: "is what the server reports",
  table: "is from Pilot's model table",
  guess: "is a guess: nothing reports it for this model",
};

/** The fact with its source in a few words: "200k (table)", "32k, guessed". */
export function withSource(text: string, source: FactSource): string {
  if (source === "guess") return `${text}, guessed`;
  return `${text} (${source === "override" ? "yours" : source})`;
}

/** A price per million tokens: "$3", "$0.3", "$1.25". */
export function perMillion(usd: number): string {
  return `$${Number(usd.toFixed(3))}`;
}

/** Prices in and out per million tokens: "$3 / $15 per M". */
export function pricesText(p: ModelPrices): string {
  return p.input === 0 && p.output === 0 ? "free" : `${perMillion(p.input)} / ${perMillion(p.output)} per M`;
}

/** The three facts of a model as short phrases, each with its source. */
export function factPhrases(f: ModelFacts): { key: "window" | "maxOutput" | "prices"; text: string; source: FactSource; title: string }[] {
  return [
    { key: "window", text: withSource(`${formatTokens(f.window)} window`, f.windowSource), source: f.windowSource, title: `${f.window} tokens of context; the window ${factFrom[f.windowSource]}` },
    {
      key: "maxOutput",
      text: withSource(`${formatTokens(f.maxOutput)} answer limit`, f.maxOutputSource),
      source: f.maxOutputSource,
      title: `answers of up to ${f.maxOutput} tokens; the limit ${factFrom[f.maxOutputSource]}`,
    },
    f.prices
      ? { key: "prices", text: withSource(pricesText(f.prices), f.pricesSource), source: f.pricesSource, title: `US dollars per million tokens in / out; the prices ${factFrom[f.pricesSource]}` }
      : { key: "prices", text: "price not known", source: "guess", title: "Nothing gives this model's prices: its cost is not shown and a dollar budget cannot apply." },
  ];
}
