import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";

async function openWeb(b: FakeBackend) {
  renderApp(b);
  fireEvent.click(await screen.findByTestId("settings-open"));
  return await screen.findByTestId("settings-web");
}

function backend(web: HTMLElement, id: string) {
  return within(web)
    .getAllByTestId("web-backend")
    .find((r) => r.getAttribute("data-backend") === id)!;
}

describe("Settings › Web", () => {
  it("is a section of Settings' index", async () => {
    await openWeb(new FakeBackend());
    const items = screen.getAllByTestId("settings-nav-item").map((i) => i.getAttribute("data-section"));
    expect(items).toContain("web");
    expect(items.indexOf("web")).toBe(items.indexOf("languages") + 1);
  });

  it("lists the backends, refuses a hosted one without a key in the backend's sentence, and saves it with the key", async () => {
    const b = new FakeBackend();
    const web = await openWeb(b);
    expect(within(web).getAllByTestId("web-backend").map((r) => r.getAttribute("data-backend"))).toEqual(["", "brave", "tavily", "searxng"]);
    expect((backend(web, "") as HTMLInputElement).checked).toBe(true);
    expect(within(web).queryByTestId("web-test")).toBeNull(); // nothing to test with no backend

    fireEvent.click(backend(web, "brave"));
    fireEvent.click(within(web).getByTestId("web-save"));
    expect((await within(web).findByTestId("web-error")).textContent).toBe("Brave Search needs an API key: add it in Settings › Web");

    fireEvent.change(within(web).getByTestId("web-key"), { target: { value: "BSAkey0123456789" } });
    fireEvent.change(within(web).getByTestId("web-per-session"), { target: { value: "7" } });
    fireEvent.click(within(web).getByTestId("web-save"));
    await within(web).findByTestId("web-saved");
    expect(b.callsOf("saveWebSearch").at(-1)).toEqual([{ backend: "brave", url: "", apiKey: "BSAkey0123456789", clearKey: false, perSession: 7, providerSearch: false }]);
    expect(backend(web, "brave").parentElement!.textContent).toContain("key saved: BSA…6789");
    expect((within(web).getByTestId("web-key") as HTMLInputElement).value).toBe(""); // the key is not shown again
  });

  it("asks SearXNG for its address and tests the form as it is, showing the results or the sentence", async () => {
    const b = new FakeBackend();
    const web = await openWeb(b);
    fireEvent.click(backend(web, "searxng"));
    expect(within(web).queryByTestId("web-key")).toBeNull();
    fireEvent.change(within(web).getByTestId("web-url"), { target: { value: " http://localhost:8080 " } });
    fireEvent.click(within(web).getByTestId("web-test"));
    const result = await within(web).findByTestId("web-test-result");
    expect(result.textContent).toContain("1 results for “Go programming language”");
    expect(result.textContent).toContain("The Go Programming Language");
    expect(b.callsOf("testWebSearch")).toEqual([[{ backend: "searxng", url: "http://localhost:8080", apiKey: "", clearKey: false, perSession: 20, providerSearch: false }]]);

    b.web.testError = "SearXNG refused the search (403): check that the instance allows the JSON format (search.formats in its settings.yml).";
    fireEvent.click(within(web).getByTestId("web-test"));
    expect((await within(web).findByTestId("web-test-error")).textContent).toBe(b.web.testError);
    expect(within(web).queryByTestId("web-test-result")).toBeNull();
  });
});

describe("a web search waiting for approval", () => {
  it("names the service's host, the query and the count, and can allow the host always", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      pending: [
        {
          id: "s1",
          kind: "fetch",
          toolCallId: "ws1",
          tool: "web_search",
          command: 'Search Brave Search (api.search.brave.com) for "go generics" (search 3 of 20)',
          host: "api.search.brave.com",
          alwaysRules: ['allow web_search "api.search.brave.com"'],
        },
      ],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("fetch-approval");
    expect(card.textContent).toContain("Search the web through api.search.brave.com?");
    expect(within(card).getByTestId("fetch-url").textContent).toBe('Search Brave Search (api.search.brave.com) for "go generics" (search 3 of 20)');
    expect(card.textContent).toContain("the query goes to that service");
    fireEvent.click(within(card).getByTestId("fetch-always"));
    fireEvent.click(within(card).getByTestId("fetch-approve"));
    await waitFor(() => expect(b.callsOf("decideCommand")).toEqual([["s1", { approve: true, feedback: "", alwaysAllow: true }]]));
  });

  it("lets the model's provider search, off until the user turns it on, with or without a search service", async () => {
    const b = new FakeBackend();
    const web = await openWeb(b);
    const box = within(web).getByTestId("web-provider-search") as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    fireEvent.click(within(web).getByTestId("web-save"));
    await within(web).findByTestId("web-saved");
    expect(b.callsOf("saveWebSearch").at(-1)).toEqual([{ backend: "", url: "", apiKey: "", clearKey: false, perSession: 20, providerSearch: true }]);
    expect((within(web).getByTestId("web-provider-search") as HTMLInputElement).checked).toBe(true);
  });
});
