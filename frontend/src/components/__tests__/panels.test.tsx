import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { defaultSettings, detail, FakeBackend } from "../../test/fakeBackend";
import type { FileEntry } from "../../lib/types";

const entry = (path: string, isDir = false, changed = false): FileEntry => ({ path, name: path.split("/").pop()!, isDir, isLink: false, changed });

describe("onboarding", () => {
  it("explains what to set instead of failing, and leads into Settings", async () => {
    const b = new FakeBackend();
    b.settings = { ...defaultSettings, hasKey: false, needsOnboarding: true };
    renderApp(b);
    const screenEl = await screen.findByTestId("onboarding");
    expect(screenEl.textContent).toContain("http://localhost:11434/v1");
    expect(screen.queryByTestId("error-banner")).toBeNull();
    fireEvent.click(screen.getByTestId("onboarding-settings"));
    expect(await screen.findByTestId("settings-provider")).toBeTruthy();
  });
});

describe("settings", () => {
  async function open(b = new FakeBackend()) {
    renderApp(b);
    fireEvent.click(await screen.findByTestId("settings-open"));
    await screen.findByTestId("settings-save");
    return b;
  }

  it("validates the base URL and budget before saving", async () => {
    const b = await open();
    fireEvent.change(screen.getByTestId("settings-base-url"), { target: { value: "localhost:11434" } });
    fireEvent.change(screen.getByTestId("settings-budget-usd"), { target: { value: "-1" } });
    fireEvent.click(screen.getByTestId("settings-save"));
    expect((await screen.findAllByRole("alert")).map((a) => a.textContent).join(" ")).toMatch(/http:\/\/.*dollar budget/s);
    expect(b.callsOf("saveSettings")).toHaveLength(0);
    expect(screen.getByTestId("settings-base-url").getAttribute("aria-invalid")).toBe("true");
  });

  it("saves a preset as the provider with its base URL", async () => {
    const b = await open();
    const key = screen.getByTestId("settings-api-key") as HTMLInputElement;
    expect(key.type).toBe("password");
    expect(key.placeholder).toContain("sk-…9f3a");
    fireEvent.change(screen.getByTestId("settings-provider"), { target: { value: "lmstudio" } });
    expect((screen.getByTestId("settings-base-url") as HTMLInputElement).value).toBe("http://localhost:1234/v1");
    expect(screen.getByTestId("settings-key-var").textContent).toContain("usually needs no key");
    fireEvent.change(screen.getByTestId("settings-model"), { target: { value: "qwen" } });
    fireEvent.click(screen.getByTestId("settings-approval-edits"));
    fireEvent.click(screen.getByTestId("settings-save"));
    await waitFor(() => expect(b.callsOf("saveSettings")).toHaveLength(1));
    expect(b.callsOf("saveSettings")[0]![0]).toEqual({
      provider: "lmstudio",
      model: "qwen",
      baseUrl: "http://localhost:1234/v1",
      apiKey: "",
      clearKey: false,
      approvalMode: "edits",
      thinkingBudget: 0,
      budgetTokens: 0,
      budgetUsd: 0,
      checkpointRetentionMb: 512,
      mcpTimeoutSeconds: 60,
      helperConcurrency: 3,
      jobsPerSession: 3,
      notifications: true,
    });
    await waitFor(() => expect(screen.queryByTestId("settings-save")).toBeNull());
  });

  it("lists every preset and says where each one's key comes from", async () => {
    const b = await open();
    const options = [...(screen.getByTestId("settings-provider") as HTMLSelectElement).options].map((o) => o.value);
    expect(options).toEqual(["anthropic", "openai", "deepseek", "mistral", "ollama", "lmstudio", "compatible"]);
    fireEvent.change(screen.getByTestId("settings-provider"), { target: { value: "deepseek" } });
    expect(screen.getByTestId("settings-key-env").textContent).toBe("DEEPSEEK_API_KEY provides the key (sk-…0042); it overrides a key saved here.");
    expect((screen.getByTestId("settings-model") as HTMLInputElement).value).toBe("deepseek-v4-flash");
    fireEvent.change(screen.getByTestId("settings-provider"), { target: { value: "mistral" } });
    expect((screen.getByTestId("settings-base-url") as HTMLInputElement).value).toBe("https://proxy.example/mistral/v1");
    expect((screen.getByTestId("settings-api-key") as HTMLInputElement).placeholder).toContain("saved (mi-…beef)");
    expect(screen.getByTestId("settings-key-var").textContent).toContain("MISTRAL_API_KEY");
    fireEvent.change(screen.getByTestId("settings-provider"), { target: { value: "openai" } });
    expect(screen.getByTestId("settings-key-var").textContent).toContain("OPENAI_API_KEY when it is set, else the key saved here (none is saved)");
    // The preset's models are asked with its id; a typed key goes along.
    fireEvent.change(screen.getByTestId("settings-provider"), { target: { value: "mistral" } });
    fireEvent.change(screen.getByTestId("settings-api-key"), { target: { value: "typed-key" } });
    await waitFor(() => expect(b.callsOf("listModels").at(-1)).toEqual(["mistral", "https://proxy.example/mistral/v1", "typed-key"]));
    fireEvent.click(screen.getByTestId("settings-save"));
    await waitFor(() => expect(b.callsOf("saveSettings")).toHaveLength(1));
    expect(b.callsOf("saveSettings")[0]![0]).toMatchObject({ provider: "mistral", apiKey: "typed-key", baseUrl: "https://proxy.example/mistral/v1" });
  });

  it("says why the model list failed, and a model can still be typed", async () => {
    const b = new FakeBackend();
    b.modelsError = "Could not reach localhost:11434 (connection refused); check the network connection and the base URL in Settings.";
    await open(b);
    fireEvent.change(screen.getByTestId("settings-provider"), { target: { value: "ollama" } });
    const note = await screen.findByTestId("settings-models-error", undefined, { timeout: 3000 });
    expect(note.textContent).toContain("Could not reach localhost:11434");
    expect(note.textContent).toContain("You can still type a model id.");
    // Another server: the first one's failure is not shown for it.
    fireEvent.change(screen.getByTestId("settings-provider"), { target: { value: "lmstudio" } });
    expect(screen.queryByTestId("settings-models-error")).toBeNull();
    fireEvent.change(screen.getByTestId("settings-provider"), { target: { value: "ollama" } });
    fireEvent.change(screen.getByTestId("settings-model"), { target: { value: "my-own:latest" } });
    fireEvent.click(screen.getByTestId("settings-save"));
    await waitFor(() => expect(b.callsOf("saveSettings")).toHaveLength(1));
    expect(b.callsOf("saveSettings")[0]![0]).toMatchObject({ provider: "ollama", model: "my-own:latest", baseUrl: "http://localhost:11434/v1" });
  });

  it("saves another OpenAI-compatible server as openai with its base URL", async () => {
    const b = await open();
    fireEvent.change(screen.getByTestId("settings-provider"), { target: { value: "compatible" } });
    fireEvent.click(screen.getByTestId("settings-save"));
    expect((await screen.findAllByRole("alert")).map((a) => a.textContent).join(" ")).toContain("needs its base URL");
    fireEvent.change(screen.getByTestId("settings-base-url"), { target: { value: "http://gpu-box:9000/v1" } });
    fireEvent.click(screen.getByTestId("settings-save"));
    await waitFor(() => expect(b.callsOf("saveSettings")).toHaveLength(1));
    expect(b.callsOf("saveSettings")[0]![0]).toMatchObject({ provider: "openai", baseUrl: "http://gpu-box:9000/v1" });
  });

  it("keeps at least 10 MiB of checkpoints and shows the space the project uses", async () => {
    const b = await open();
    expect(screen.getByTestId("settings-retention-usage").textContent).toContain("12.3 MiB used by this project");
    const retention = screen.getByTestId("settings-retention") as HTMLInputElement;
    expect(retention.value).toBe("512");
    fireEvent.change(retention, { target: { value: "5" } });
    fireEvent.click(screen.getByTestId("settings-save"));
    expect((await screen.findByRole("alert")).textContent).toContain("at least 10 MiB");
    expect(retention.getAttribute("aria-invalid")).toBe("true");
    expect(b.callsOf("saveSettings")).toHaveLength(0);
    fireEvent.change(retention, { target: { value: "2048" } });
    fireEvent.click(screen.getByTestId("settings-save"));
    await waitFor(() => expect(b.callsOf("saveSettings")).toHaveLength(1));
    expect(b.callsOf("saveSettings")[0]![0]).toMatchObject({ checkpointRetentionMb: 2048 });
  });

  it("saves the MCP call timeout, 1 to 3600 seconds", async () => {
    const b = await open();
    const timeout = screen.getByTestId("settings-mcp-timeout") as HTMLInputElement;
    expect(timeout.value).toBe("60");
    fireEvent.change(timeout, { target: { value: "0" } });
    fireEvent.click(screen.getByTestId("settings-save"));
    expect((await screen.findByRole("alert")).textContent).toContain("1 to 3600 seconds");
    expect(b.callsOf("saveSettings")).toHaveLength(0);
    fireEvent.change(timeout, { target: { value: "15" } });
    fireEvent.click(screen.getByTestId("settings-save"));
    await waitFor(() => expect(b.callsOf("saveSettings")).toHaveLength(1));
    expect(b.callsOf("saveSettings")[0]![0]).toMatchObject({ mcpTimeoutSeconds: 15 });
  });

  it("saves the extended thinking budget chosen for Anthropic", async () => {
    const b = await open();
    const thinking = screen.getByTestId("settings-thinking") as HTMLSelectElement;
    expect(thinking.value).toBe("0");
    expect([...thinking.options].map((o) => o.text)).toEqual(["Off", "4k tokens", "16k tokens", "32k tokens"]);
    fireEvent.change(thinking, { target: { value: "16384" } });
    fireEvent.click(screen.getByTestId("settings-save"));
    await waitFor(() => expect(b.callsOf("saveSettings")).toHaveLength(1));
    expect(b.callsOf("saveSettings")[0]![0]).toMatchObject({ provider: "anthropic", thinkingBudget: 16384 });
    expect(b.settings.thinkingBudget).toBe(16384);
  });

  it("hides extended thinking for other providers and keeps the saved budget", async () => {
    const b = new FakeBackend();
    b.settings = { ...defaultSettings, thinkingBudget: 4096 };
    await open(b);
    expect((screen.getByTestId("settings-thinking") as HTMLSelectElement).value).toBe("4096");
    fireEvent.change(screen.getByTestId("settings-provider"), { target: { value: "openai" } });
    expect(screen.queryByTestId("settings-thinking")).toBeNull();
    fireEvent.click(screen.getByTestId("settings-save"));
    await waitFor(() => expect(b.callsOf("saveSettings")).toHaveLength(1));
    expect(b.callsOf("saveSettings")[0]![0]).toMatchObject({ provider: "openai", thinkingBudget: 4096 });
  });

  it("says when PILOT_THINKING_BUDGET overrides the budget, and shows one that is not a preset", async () => {
    const b = new FakeBackend();
    b.settings = { ...defaultSettings, thinkingBudget: 10000, source: { thinkingBudget: "env" }, sourceFrom: { thinkingBudget: "PILOT_THINKING_BUDGET" } };
    await open(b);
    const thinking = screen.getByTestId("settings-thinking") as HTMLSelectElement;
    expect(thinking.selectedOptions[0]!.text).toBe("10,000 tokens");
    expect(screen.getByTestId("settings-thinkingBudget-source").textContent).toContain("PILOT_THINKING_BUDGET");
  });

  it("says when the environment overrides the key, and offers server models", async () => {
    const b = new FakeBackend();
    b.settings = { ...defaultSettings, source: { apiKey: "env" }, sourceFrom: { apiKey: "ANTHROPIC_API_KEY" } };
    b.models = ["claude-a", "claude-b"];
    await open(b);
    expect(screen.getByTestId("settings-key-env").textContent).toContain("ANTHROPIC_API_KEY");
    await waitFor(() => expect(document.querySelectorAll("#model-options option")).toHaveLength(2));
  });
});

describe("file tree", () => {
  it("lists folders lazily, marks changed files, previews a file", async () => {
    const b = new FakeBackend();
    b.dirs = { "": [entry("src", true), entry("go.mod")], src: [entry("src/main.go", false, true)] };
    b.files = { "src/main.go": "package main\n" };
    renderApp(b);
    fireEvent.click(await screen.findByTestId("tab-files"));
    const tree = await screen.findByTestId("file-tree");
    await waitFor(() => expect(within(tree).getAllByTestId("file-tree-item")).toHaveLength(2));
    expect(b.callsOf("listDir").map((a) => a[1])).toEqual([""]);
    fireEvent.click(within(tree).getByText("src"));
    await waitFor(() => expect(within(tree).getAllByTestId("file-tree-item")).toHaveLength(3));
    expect(b.callsOf("listDir").map((a) => a[1])).toEqual(["", "src"]);
    const main = tree.querySelector('[data-path="src/main.go"]')!;
    expect(main.getAttribute("data-changed")).toBe("true");
    fireEvent.click(main);
    const preview = await screen.findByTestId("file-preview");
    await waitFor(() => expect(preview.querySelector(".hljs-keyword")?.textContent).toBe("package"));
  });

  it("virtualises a huge folder", async () => {
    const b = new FakeBackend();
    b.dirs = { "": Array.from({ length: 100_000 }, (_, i) => entry(`f${String(i).padStart(6, "0")}.txt`)) };
    renderApp(b);
    fireEvent.click(await screen.findByTestId("tab-files"));
    const tree = await screen.findByTestId("file-tree");
    await waitFor(() => expect(within(tree).getAllByTestId("file-tree-item").length).toBeGreaterThan(0));
    expect(within(tree).getAllByTestId("file-tree-item").length).toBeLessThan(80);
    // Only the first page was asked for: the rows in view are in it.
    expect(b.callsOf("listDir").map((a) => a[2])).toEqual([0]);
  });
});

describe("file tree pages", () => {
  const files = (n: number) => Array.from({ length: n }, (_, i) => entry(`f${String(i).padStart(4, "0")}.txt`));

  it("after an approved change asks again for the pages it has: marks are current, a changed folder starts again", async () => {
    const b = new FakeBackend();
    b.dirs = { "": files(1000) };
    renderApp(b);
    // Session 1 open: its approvals change files.
    fireEvent.click(within(await screen.findByTestId("session-list")).getByText("Session 1"));
    await waitFor(() => expect(b.callsOf("getSession")).toHaveLength(1));
    fireEvent.click(await screen.findByTestId("tab-files"));
    const tree = await screen.findByTestId("file-tree");
    await waitFor(() => expect(tree.querySelector('[data-path="f0005.txt"]')).not.toBeNull());
    expect(tree.querySelector("[data-changed]")).toBeNull();
    const calls = b.callsOf("listDir").length;

    // The same entries (same version), one now changed: the page is asked for again, marked.
    b.dirs = { "": files(1000).map((e) => (e.name === "f0005.txt" ? { ...e, changed: true } : e)) };
    act(() => b.emit("agent:approval_done", { sessionId: 1, seq: 2, approvalId: "ap1", outcome: "approved" }));
    await waitFor(() => expect(tree.querySelector('[data-path="f0005.txt"]')?.getAttribute("data-changed")).toBe("true"));
    expect(b.callsOf("listDir").slice(calls).map((a) => [a[1], a[2], a[3]])).toEqual([["", 0, 0]]);

    // A new file sorts first and the listing has a new version: the rows start again from it.
    b.dirs = { "": [entry("a-new.txt"), ...files(1000)] };
    b.dirVersion = 2;
    act(() => b.emit("agent:approval_done", { sessionId: 1, seq: 3, approvalId: "ap2", outcome: "approved" }));
    await waitFor(() => expect(within(tree).getAllByTestId("file-tree-item")[0]!.getAttribute("data-path")).toBe("a-new.txt"));
  });
});

describe("sessions", () => {
  it("lists sessions newest first and opens a search hit at its message", async () => {
    const b = new FakeBackend();
    b.sessions = [
      { ...detail(1).session, id: 1, title: "old", updatedAt: 1 },
      { ...detail(2).session, id: 2, title: "new", updatedAt: 2 },
    ];
    b.details[2] = detail(2, { messages: [{ id: 42, role: "user", blocks: [{ type: "text", text: "the needle" }], state: "complete", createdAt: 1 }] });
    b.hits = [{ sessionId: 2, sessionTitle: "new", messageId: 42, kind: "tool_output", snippet: 'a <mark>needle</mark> &lt;x&gt;<img src=x onerror="alert(1)">' }];
    renderApp(b);
    await waitFor(() => expect(screen.getAllByTestId("session-item").map((e) => e.getAttribute("data-session-id"))).toEqual(["2", "1"]));
    fireEvent.change(screen.getByTestId("session-search"), { target: { value: "needle" } });
    const hit = await screen.findByTestId("search-hit");
    expect(hit.querySelector("mark")?.textContent).toBe("needle");
    expect(hit.innerHTML).not.toContain("onerror");
    fireEvent.click(within(hit).getByRole("button"));
    await waitFor(() => expect(b.callsOf("getSession")).toEqual([[2, 42]]));
    const msg = await screen.findByTestId("message");
    await waitFor(() => expect(msg.className).toContain("hit"));
  });

  it("says a search hit in a fetched web page is one", async () => {
    const b = new FakeBackend();
    b.hits = [{ sessionId: 1, sessionTitle: "Session 1", messageId: 7, kind: "web_page", snippet: "the <mark>needle</mark>" }];
    renderApp(b);
    fireEvent.change(await screen.findByTestId("session-search"), { target: { value: "needle" } });
    const hit = await screen.findByTestId("search-hit");
    expect(hit.querySelector(".hit-kind")?.textContent).toBe("web page");
  });

  it("renames inline, deletes after confirmation, exports", async () => {
    const b = new FakeBackend();
    renderApp(b);
    const item = await screen.findByTestId("session-item");
    fireEvent.click(within(item).getByRole("button", { name: "Rename session" }));
    const input = within(item).getByRole("textbox", { name: "Session title" });
    fireEvent.change(input, { target: { value: "Better title" } });
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(b.callsOf("renameSession")).toEqual([[1, "Better title"]]));
    fireEvent.click(within(item).getByRole("button", { name: "Export as Markdown" }));
    await waitFor(() => expect(b.callsOf("saveSessionExport")).toEqual([[1, "md"]]));
    fireEvent.click(within(item).getByRole("button", { name: "Delete session" }));
    expect(b.callsOf("deleteSession")).toHaveLength(0);
    fireEvent.click(within(item).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(b.callsOf("deleteSession")).toEqual([[1]]));
    await waitFor(() => expect(screen.queryByTestId("session-item")).toBeNull());
  });

  it("keeps the status bar in step with the agent", async () => {
    const b = new FakeBackend();
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    await waitFor(() => expect(b.callsOf("getSession")).toHaveLength(1));
    await act(async () => {});
    act(() => {
      b.emit("agent:state", { sessionId: 1, seq: 1, state: "tool_executing" });
      b.emit("agent:usage", { sessionId: 1, seq: 2, usage: { inputTokens: 1000, outputTokens: 500, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.12, costKnown: true, contextTokens: 50000, contextWindow: 200000, contextWindowSource: "table" } });
    });
    await waitFor(() => expect(screen.getByTestId("agent-state").getAttribute("data-state")).toBe("tool_executing"));
    expect(screen.getByTestId("usage").textContent).toBe("1.5k tokens · $0.12");
    expect(screen.getByTestId("context-use").textContent).toBe("context 25% of 200k");
    expect(screen.queryByTestId("context-guess")).toBeNull();
    expect(screen.getByTestId("model-window-source").getAttribute("data-source")).toBe("table");
  });

  it("says a guessed window is a guess, and where to set it", async () => {
    const b = new FakeBackend();
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    await waitFor(() => expect(b.callsOf("getSession")).toHaveLength(1));
    await act(async () => {});
    act(() => {
      b.emit("agent:usage", { sessionId: 1, seq: 2, usage: { inputTokens: 3000, outputTokens: 840, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, costKnown: false, contextTokens: 3840, contextWindow: 32000, contextWindowSource: "guess" } });
    });
    await waitFor(() => expect(screen.getByTestId("context-use").textContent).toBe("context 12% of 32k, guessed: set it in Settings › Models"));
    expect(screen.getByTestId("model-window-source").getAttribute("data-source")).toBe("guess");
    fireEvent.click(screen.getByTestId("context-guess"));
    await screen.findByTestId("settings-dialog");
  });
});
