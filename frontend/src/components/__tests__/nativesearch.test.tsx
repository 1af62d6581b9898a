import { describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import type { Source, ToolCall } from "../../lib/wire.gen";
import { answerParts } from "../chat/CitedSources";

// The provider's own search (Anthropic's server tool) as the backend
// presents it: its server_tool_use block is a tool_use block standing for
// a web_search call, whose card lists the sources; the cited text carries
// its sources. The titles and addresses are from the recording in
// backend/llm/testdata/anthropic_web_search.sse.
const search: ToolCall = {
  id: "srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k",
  messageId: 2,
  name: "web_search",
  label: "→ api.anthropic.com searched the web: tech news today September 26 2025 (search 3 of 20)",
  input: { query: "tech news today September 26 2025" },
  status: "done",
  output:
    'Searched by api.anthropic.com, the provider\'s own web search (web_search on api.anthropic.com runs without asking) for "tech news today September 26 2025"; search 3 of 20 in this session.\n' +
    "1. The Latest AI News and AI Breakthroughs that Matter Most: 2025 | News\n   https://www.crescendo.ai/news/latest-ai-news-and-updates\n",
  isError: false,
  startedAt: 1,
  finishedAt: 2,
} as ToolCall;

const apple = "https://www.apple.com/newsroom/2025/09/the-all-new-apple-ginza-opens-this-friday-september-26-in-tokyo/";

describe("the provider's own web search", () => {
  it("shows the search's card in its place and the cited text with its sources, each once", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      messages: [
        { id: 1, role: "user", state: "complete", createdAt: 1, blocks: [{ type: "text", text: "What's new in tech today?" }] },
        {
          id: 2,
          role: "assistant",
          state: "complete",
          createdAt: 2,
          blocks: [
            { type: "tool_use", id: search.id, name: "web_search", input: search.input },
            { type: "text", text: "Here is today's news. " },
            {
              type: "text",
              text: "Apple Ginza opens to customers Friday, September 26.",
              sources: [
                { title: "The all-new Apple Ginza opens this Friday, September 26, in Tokyo - Apple", url: apple, cited: "Apple Ginza opens to customers Friday, September 26, at 10 a.m. JST. " },
                { title: "The all-new Apple Ginza opens this Friday, September 26, in Tokyo - Apple", url: apple, cited: "Apple today announced the grand reopening of Apple Ginza" },
              ],
            },
          ],
        },
      ],
      toolCalls: [search],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const answer = (await screen.findAllByTestId("message")).find((m) => m.getAttribute("data-role") === "assistant")!;
    const card = within(answer).getByTestId("tool-call");
    expect(card.getAttribute("data-tool")).toBe("web_search");
    expect(card.textContent).toContain("tech news today September 26 2025 (search 3 of 20)");
    fireEvent.click(within(card).getByRole("button", { expanded: false }));
    expect(within(card).getByTestId("tool-output").textContent).toContain("https://www.crescendo.ai/news/latest-ai-news-and-updates");

    const lists = within(answer).getAllByTestId("cited-sources");
    expect(lists).toHaveLength(1); // the uncited text has none
    const items = within(lists[0]).getAllByTestId("cited-source");
    expect(items).toHaveLength(1);
    expect(items[0].textContent).toBe(`The all-new Apple Ginza opens this Friday, September 26, in Tokyo - Apple (${apple})`);
    expect(items[0].getAttribute("title")).toBe("Apple Ginza opens to customers Friday, September 26, at 10 a.m. JST. ");
    // The blocks read as one text, the cited passage marked with its source's number, the sources after it.
    const text = within(answer).getByText("Here is today's news. Apple Ginza opens to customers Friday, September 26. [1]");
    expect(text.compareDocumentPosition(lists[0]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});

describe("answerParts", () => {
  const src = (n: number): Source => ({ title: `Page ${n}`, url: `https://example.com/${n}`, cited: `quote ${n}` });
  it("joins a run of text blocks, numbers each source once in order, and marks each cited passage before its trailing space", () => {
    const parts = answerParts([
      { type: "text", text: "Go 1.24 " },
      { type: "text", text: "adds generic type aliases", sources: [src(1), src(2)] },
      { type: "text", text: " and " },
      { type: "text", text: "a new map.\n", sources: [src(2), src(3), src(2)] },
      { type: "tool_use", id: "t1", name: "read_file" },
      { type: "text", text: "After the call.", sources: [src(3)] },
      { type: "text", text: "" },
    ]);
    expect(parts).toEqual([
      { kind: "text", index: 0, text: "Go 1.24 adds generic type aliases [1][2] and a new map. [2][3]\n", sources: [src(1), src(2), src(3)] },
      { kind: "block", index: 4, block: { type: "tool_use", id: "t1", name: "read_file" } },
      { kind: "text", index: 5, text: "After the call. [1]", sources: [src(3)] },
    ]);
  });
});
