// Settings › Web of the fake backend: the saved search service and keys,
// saving as the Go side checks it (a backend needs its key or address), and
// a test search answering with results or the sentence a test sets.
import type { WebSearchInput, WebSearchTest, WebSearchView } from "../lib/wire.gen";

export function webView(over: Partial<WebSearchView> = {}): WebSearchView {
  return {
    backend: "",
    url: "",
    perSession: 20,
    providerSearch: false,
    backends: [
      { id: "brave", name: "Brave Search", needsKey: true, hasKey: false, needsUrl: false, defaultUrl: "https://api.search.brave.com/res/v1/web/search" },
      { id: "tavily", name: "Tavily", needsKey: true, hasKey: false, needsUrl: false, defaultUrl: "https://api.tavily.com/search" },
      { id: "searxng", name: "SearXNG", needsKey: false, hasKey: false, needsUrl: true },
    ],
    ...over,
  };
}

export class FakeWeb {
  view = webView();
  /** When set, testWebSearch answers with this sentence and no results. */
  testError = "";

  save(input: WebSearchInput): WebSearchView {
    const b = this.view.backends.find((x) => x.id === input.backend);
    if (input.backend !== "" && !b) throw new Error(`"${input.backend}" is not a search backend: choose one of brave, tavily, searxng in Settings › Web`);
    if (b?.needsKey && !b.hasKey && !input.apiKey.trim()) throw new Error(`${b.name} needs an API key: add it in Settings › Web`);
    if (b?.needsUrl && !input.url.trim()) throw new Error("SearXNG needs its instance's address: set it in Settings › Web (for example http://localhost:8080)");
    const key = input.apiKey.trim();
    this.view = {
      ...this.view,
      backend: input.backend,
      url: input.url.trim(),
      perSession: input.perSession || 20,
      providerSearch: input.providerSearch,
      backends: this.view.backends.map((x) =>
        x.id !== input.backend ? x : input.clearKey ? { ...x, hasKey: false, keyHint: undefined } : key ? { ...x, hasKey: true, keyHint: `${key.slice(0, 3)}…${key.slice(-4)}` } : x,
      ),
    };
    return this.view;
  }

  test(): WebSearchTest {
    const query = "Go programming language";
    if (this.testError) return { query, results: [], error: this.testError };
    return { query, results: [{ title: "The Go Programming Language", url: "https://go.dev/", snippet: "Go is an open source programming language.", date: "2024-05-01" }] };
  }
}
