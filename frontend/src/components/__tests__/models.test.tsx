import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { openSessionOne, renderApp } from "../../test/render";
import { detail, FakeBackend, summary } from "../../test/fakeBackend";
import type { ModelFacts } from "../../lib/wire.gen";

const qwen: ModelFacts = { id: "qwen3-coder:30b", window: 32000, windowSource: "guess", maxOutput: 8192, maxOutputSource: "guess", pricesSource: "guess" };
const gemini: ModelFacts = { id: "google/gemini-2.5-pro", window: 1048576, windowSource: "server", maxOutput: 65536, maxOutputSource: "server", prices: { input: 1.25, output: 10 }, pricesSource: "server" };
const sonnet: ModelFacts = { id: "claude-sonnet-4-5", window: 200000, windowSource: "table", maxOutput: 64000, maxOutputSource: "table", prices: { input: 3, output: 15 }, pricesSource: "table" };

/** A backend whose session 1 talks to claude-sonnet-4-5, on a server listing three models. */
function backend(): FakeBackend {
  const b = new FakeBackend();
  b.modelFacts = [sonnet, gemini, qwen];
  b.sessions = [summary(1, { model: "claude-sonnet-4-5" })];
  b.details[1] = detail(1, { session: b.sessions[0]! });
  return b;
}

/** Opens the model picker and waits for its list. */
async function openPicker() {
  fireEvent.click(screen.getByTestId("model-picker"));
  await waitFor(() => expect(screen.getAllByTestId("model-option").length).toBeGreaterThan(0));
  return screen.getByTestId("model-search");
}

const shown = () => screen.queryAllByTestId("model-option").map((o) => o.getAttribute("data-model"));
const activeModel = () => document.querySelector("[data-testid^=model-option][aria-selected=true]")?.getAttribute("data-model");

describe("the session's model picker", () => {
  it("lists the server's models in its order with their facts and sources, the current one checked and active", async () => {
    const b = backend();
    await openSessionOne(b);
    const button = screen.getByTestId("model-picker");
    expect(button.getAttribute("data-model")).toBe("claude-sonnet-4-5");
    expect(button.textContent).toContain("claude-sonnet-4-5");
    await openPicker();
    expect(b.callsOf("sessionModels")).toEqual([[1]]);
    expect(shown()).toEqual(["claude-sonnet-4-5", "google/gemini-2.5-pro", "qwen3-coder:30b"]);
    const [s, g, q] = screen.getAllByTestId("model-option");
    expect([s, g, q].map((o) => o!.getAttribute("data-window"))).toEqual(["200000", "1048576", "32000"]);
    expect(s!.getAttribute("data-current")).toBe("true");
    expect(g!.getAttribute("data-current")).toBeNull();
    expect(activeModel()).toBe("claude-sonnet-4-5");
    expect(s!.textContent).toContain("200k window (table)");
    expect(s!.textContent).toContain("$3 / $15 per M (table)");
    expect(g!.textContent).toContain("1.0M window (server)");
    expect(g!.textContent).toContain("$1.25 / $10 per M (server)");
    // A guess says it is one, fact by fact.
    expect(q!.textContent).toContain("32k window, guessed");
    expect(q!.textContent).toContain("8.2k answer limit, guessed");
    expect(q!.textContent).toContain("price not known");
    expect(within(q!).getAllByText(/guessed|not known/).every((e) => e.getAttribute("data-source") === "guess")).toBe(true);
    expect(within(s!).getAllByText(/\(table\)/).every((e) => e.getAttribute("data-source") === "table")).toBe(true);
  });

  it("searches by every word typed, and offers a typed id the server does not list", async () => {
    const b = backend();
    await openSessionOne(b);
    const search = await openPicker();
    fireEvent.change(search, { target: { value: "gem pro" } });
    expect(shown()).toEqual(["google/gemini-2.5-pro"]);
    expect(screen.queryByTestId("model-option-typed")).not.toBeNull();
    expect(activeModel()).toBe("google/gemini-2.5-pro");
    fireEvent.change(search, { target: { value: "qwen3-coder:30b" } });
    expect(shown()).toEqual(["qwen3-coder:30b"]);
    expect(screen.queryByTestId("model-option-typed")).toBeNull();
    fireEvent.change(search, { target: { value: "my-proxy/claude" } });
    expect(shown()).toEqual([]);
    expect(screen.getByTestId("model-option-typed").textContent).toContain("Use “my-proxy/claude”");
    fireEvent.keyDown(search, { key: "Enter" });
    await waitFor(() => expect(b.callsOf("setSessionModel")).toEqual([[1, "my-proxy/claude"]]));
    await waitFor(() => expect(screen.getByTestId("model-picker").getAttribute("data-model")).toBe("my-proxy/claude"));
  });

  it("moves with the arrows, chooses with Enter: the session's model changes, in the status bar too, and the focus goes back to the prompt", async () => {
    const b = backend();
    await openSessionOne(b);
    expect(screen.getByTestId("status-model").textContent).toContain("claude-sonnet-4-5");
    const search = await openPicker();
    expect(document.activeElement).toBe(search);
    fireEvent.keyDown(search, { key: "ArrowDown" });
    expect(activeModel()).toBe("google/gemini-2.5-pro");
    fireEvent.keyDown(search, { key: "ArrowDown" });
    fireEvent.keyDown(search, { key: "ArrowDown" });
    expect(activeModel()).toBe("claude-sonnet-4-5");
    fireEvent.keyDown(search, { key: "ArrowUp" });
    expect(activeModel()).toBe("qwen3-coder:30b");
    fireEvent.keyDown(search, { key: "Enter" });
    expect(screen.queryByTestId("model-list")).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId("chat-input"));
    await waitFor(() => expect(b.callsOf("setSessionModel")).toEqual([[1, "qwen3-coder:30b"]]));
    await waitFor(() => expect(screen.getByTestId("status-model").textContent).toContain("qwen3-coder:30b"));
    expect(screen.getByTestId("model-picker").getAttribute("data-model")).toBe("qwen3-coder:30b");
    // The new model is the checked one next time.
    await openPicker();
    expect(screen.getAllByTestId("model-option").find((o) => o.getAttribute("data-current"))?.getAttribute("data-model")).toBe("qwen3-coder:30b");
  });

  it("closes on Escape without changing anything or stopping the turn, and a click on a row chooses it", async () => {
    const b = backend();
    await openSessionOne(b);
    const search = await openPicker();
    fireEvent.keyDown(search, { key: "ArrowDown" });
    fireEvent.keyDown(search, { key: "Escape" });
    expect(screen.queryByTestId("model-list")).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId("chat-input"));
    expect(b.callsOf("cancelTurn")).toEqual([]);
    await openPicker();
    fireEvent.click(screen.getAllByTestId("model-option")[1]!);
    await waitFor(() => expect(b.callsOf("setSessionModel")).toEqual([[1, "google/gemini-2.5-pro"]]));
    // Choosing the current model asks nothing.
    await openPicker();
    fireEvent.click(screen.getAllByTestId("model-option")[1]!);
    expect(b.callsOf("setSessionModel")).toHaveLength(1);
  });

  it("says why the server's models could not be listed, and still takes a typed id", async () => {
    const b = backend();
    b.modelsError = "the server at http://localhost:11434/v1 did not answer: start it, or check the base URL in Settings.";
    await openSessionOne(b);
    fireEvent.click(screen.getByTestId("model-picker"));
    const err = await screen.findByTestId("model-picker-error");
    expect(err.textContent).toBe(
      "Could not list the server's models: the server at http://localhost:11434/v1 did not answer: start it, or check the base URL in Settings. Type a model's id above to use it anyway.",
    );
    fireEvent.change(screen.getByTestId("model-search"), { target: { value: "llama3.1:8b" } });
    fireEvent.keyDown(screen.getByTestId("model-search"), { key: "Enter" });
    await waitFor(() => expect(b.callsOf("setSessionModel")).toEqual([[1, "llama3.1:8b"]]));
  });

  it("says a model is loaded with less context than its window", async () => {
    const b = backend();
    b.modelFacts = [{ ...qwen, window: 262144, windowSource: "server", loaded: 4096 }];
    await openSessionOne(b);
    await openPicker();
    const loaded = screen.getByTestId("model-option").querySelector("[data-fact=loaded]")!;
    expect(loaded.textContent).toBe("loaded with 4.1k");
    expect(loaded.classList.contains("guessed")).toBe(true);
    expect(loaded.getAttribute("title")).toContain("loaded with 4096 tokens of context");
  });

  it("is off until a session is open: the model is chosen per session", async () => {
    renderApp(backend());
    await screen.findByText("Session 1");
    const button = await screen.findByTestId("model-picker");
    expect(button.hasAttribute("disabled")).toBe(true);
    expect(button.getAttribute("title")).toContain("Start a session to choose its model");
  });

  it("says, during a turn, that the turn under way keeps its model", async () => {
    const b = backend();
    b.details[1] = detail(1, { session: b.sessions[0]!, state: "streaming" });
    await openSessionOne(b);
    await waitFor(() => expect(screen.queryByTestId("chat-cancel")).not.toBeNull());
    const button = screen.getByTestId("model-picker");
    expect(button.hasAttribute("disabled")).toBe(false);
    expect(button.getAttribute("title")).toContain("The turn under way keeps its model; your next message uses the new one.");
  });
});

/** Opens Settings and returns its Models section. */
async function openModels(b: FakeBackend) {
  renderApp(b);
  fireEvent.click(await screen.findByTestId("settings-open"));
  const dialog = await screen.findByTestId("settings-dialog");
  await within(dialog).findByTestId("model-overrides");
  return dialog.querySelector<HTMLElement>("[data-testid=settings-section][data-section=models]")!;
}

const rows = () => screen.queryAllByTestId("model-override").map((r) => [r.getAttribute("data-model"), r.querySelector(".model-override-facts")?.textContent]);

describe("Settings › Models", () => {
  it("adds an override, the session's models offered, and lists it", async () => {
    const b = backend();
    await openSessionOne(b);
    fireEvent.click(screen.getByTestId("settings-open"));
    const section = (await screen.findByTestId("settings-dialog")).querySelector<HTMLElement>("[data-section=models][data-testid=settings-section]")!;
    expect(within(section).getByText(/No overrides/)).toBeTruthy();
    fireEvent.click(within(section).getByTestId("model-override-add"));
    const id = within(section).getByTestId("model-override-id");
    expect(document.activeElement).toBe(id);
    await waitFor(() => expect([...section.querySelectorAll("#model-override-options option")].map((o) => o.getAttribute("value"))).toEqual(expect.arrayContaining(["qwen3-coder:30b", "google/gemini-2.5-pro"])));
    fireEvent.change(id, { target: { value: "qwen3-coder:30b" } });
    expect(within(section).getByTestId("model-override-known").textContent).toBe("Now: 32k window, guessed · 8.2k answer limit, guessed · price not known");
    fireEvent.change(within(section).getByTestId("model-override-window"), { target: { value: "262,144" } });
    fireEvent.change(within(section).getByTestId("model-override-max-output"), { target: { value: "32k" } });
    fireEvent.change(within(section).getByTestId("model-override-input"), { target: { value: "$0.4" } });
    fireEvent.change(within(section).getByTestId("model-override-output"), { target: { value: "1.6" } });
    // Enter saves the override, not the whole Settings form.
    fireEvent.keyDown(within(section).getByTestId("model-override-output"), { key: "Enter" });
    await waitFor(() => expect(b.callsOf("setModelOverride")).toEqual([[{ id: "qwen3-coder:30b", window: 262144, maxOutput: 32000, prices: { input: 0.4, output: 1.6 } }]]));
    expect(b.callsOf("saveSettings")).toEqual([]);
    await waitFor(() => expect(rows()).toEqual([["qwen3-coder:30b", "262k window32k answer limit$0.4 / $1.6 per M"]]));
    expect(within(section).getByRole("status").textContent).toContain("sessions use it from their next request");
    // What Pilot knows of the models is asked again, the override now in it.
    await waitFor(() => expect(b.callsOf("sessionModels")).toEqual([[1], [1]]));
  });

  it("edits an override and removes one", async () => {
    const b = backend();
    b.settings = {
      ...b.settings,
      modelOverrides: [
        { id: "my-proxy/claude", window: 0, maxOutput: 0, prices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
        { id: "qwen3-coder:30b", window: 262144, maxOutput: 0 },
      ],
    };
    await openModels(b);
    expect(rows()).toEqual([
      ["my-proxy/claude", "$3 / $15 per M ($0.3 cache read, $3.75 cache write)"],
      ["qwen3-coder:30b", "262k window"],
    ]);
    const qwenRow = screen.getAllByTestId("model-override")[1]!;
    fireEvent.click(within(qwenRow).getByTestId("model-override-edit"));
    const win = screen.getByTestId("model-override-window") as HTMLInputElement;
    expect(win.value).toBe("262144");
    expect(document.activeElement).toBe(win);
    fireEvent.change(win, { target: { value: "131072" } });
    fireEvent.change(screen.getByTestId("model-override-max-output"), { target: { value: "16384" } });
    fireEvent.click(screen.getByTestId("model-override-save"));
    await waitFor(() => expect(b.callsOf("setModelOverride")).toEqual([[{ id: "qwen3-coder:30b", window: 131072, maxOutput: 16384 }]]));
    await waitFor(() => expect(rows()[1]).toEqual(["qwen3-coder:30b", "131k window16k answer limit"]));
    fireEvent.click(within(screen.getAllByTestId("model-override")[0]!).getByTestId("model-override-remove"));
    await waitFor(() => expect(rows()).toEqual([["qwen3-coder:30b", "131k window16k answer limit"]]));
    expect(b.callsOf("setModelOverride")[1]).toEqual([{ id: "my-proxy/claude", window: 0, maxOutput: 0 }]);
  });

  it("shows a refused value's sentence under the fields, and keeps what was typed", async () => {
    const b = backend();
    b.overrideError = 'the model "tiny" in Settings › Models (settings.json\'s models) has a window of 500 tokens: give one from 1000 to 100000000: invalid argument';
    await openModels(b);
    fireEvent.click(screen.getByTestId("model-override-add"));
    fireEvent.change(screen.getByTestId("model-override-id"), { target: { value: "tiny" } });
    fireEvent.change(screen.getByTestId("model-override-window"), { target: { value: "500" } });
    fireEvent.click(screen.getByTestId("model-override-save"));
    const err = await screen.findByTestId("model-override-error");
    expect(err.textContent).toContain("has a window of 500 tokens: give one from 1000 to 100000000");
    expect((screen.getByTestId("model-override-id") as HTMLInputElement).value).toBe("tiny");
    expect((screen.getByTestId("model-override-window") as HTMLInputElement).value).toBe("500");
    expect(screen.getByTestId("model-override-window").getAttribute("aria-describedby")).toBe("model-override-error");
    // The backend's sentence is about the whole override: no one field is marked.
    expect(document.querySelectorAll("[aria-invalid=true]")).toHaveLength(0);
    expect(rows()).toEqual([]);
    // Fixed, it is saved and the sentence goes.
    b.overrideError = "";
    fireEvent.change(screen.getByTestId("model-override-window"), { target: { value: "8000" } });
    fireEvent.click(screen.getByTestId("model-override-save"));
    await waitFor(() => expect(rows()).toEqual([["tiny", "8.0k window"]]));
    expect(screen.queryByTestId("model-override-error")).toBeNull();
  });

  it("says what is wrong with what cannot be a value before asking the backend", async () => {
    const b = backend();
    await openModels(b);
    fireEvent.click(screen.getByTestId("model-override-add"));
    // What is typed, the sentence, and the field marked invalid.
    const cases: [Record<string, string>, string, string][] = [
      [{}, "Give the model's id as the server names it, like qwen3-coder:30b.", "model-override-id"],
      [{ "model-override-id": "m" }, "Nothing is stated: fill in a window, an answer limit or prices (or remove the override).", "model-override-window"],
      [{ "model-override-window": "lots" }, "The window “lots” is not a number of tokens: write it like 262144 or 262k.", "model-override-window"],
      [{ "model-override-window": "", "model-override-input": "3" }, "Give both the input and the output price, or no price at all.", "model-override-output"],
      [{ "model-override-output": "x" }, "The output price “x” is not a number: write US dollars per million tokens, like 3 or 0.3.", "model-override-output"],
    ];
    for (const [fields, want, field] of cases) {
      for (const [id, v] of Object.entries(fields)) fireEvent.change(screen.getByTestId(id), { target: { value: v } });
      fireEvent.click(screen.getByTestId("model-override-save"));
      expect(screen.getByTestId("model-override-error").textContent).toBe(want);
      expect([...document.querySelectorAll("[data-testid^=model-override-][aria-invalid=true]")].map((e) => e.getAttribute("data-testid"))).toEqual([field]);
    }
    expect(b.callsOf("setModelOverride")).toEqual([]);
  });

  it("is where the status bar's guessed window leads", async () => {
    const b = backend();
    await openSessionOne(b);
    act(() => {
      b.emit("agent:usage", { sessionId: 1, seq: 2, usage: { inputTokens: 3000, outputTokens: 840, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, costKnown: false, contextTokens: 3840, contextWindow: 32000, contextWindowSource: "guess" } });
    });
    fireEvent.click(await screen.findByTestId("context-guess"));
    await screen.findByTestId("model-overrides");
    const nav = screen.getAllByTestId("settings-nav-item").find((n) => n.getAttribute("data-section") === "models")!;
    expect(nav.getAttribute("aria-current")).toBe("location");
    expect(document.activeElement?.textContent).toBe("Models");
    // Settings opened otherwise starts at the top.
    fireEvent.click(screen.getByText("Cancel"));
    fireEvent.click(screen.getByTestId("settings-open"));
    await screen.findByTestId("model-overrides");
    expect(screen.getAllByTestId("settings-nav-item").find((n) => n.getAttribute("aria-current"))?.getAttribute("data-section")).toBe("provider");
  });
});
