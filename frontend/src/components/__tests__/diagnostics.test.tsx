import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { FakeBackend, withCalls } from "../../test/fakeBackend";
import type { Diagnostics, ToolCall } from "../../lib/wire.gen";
import type { FileEntry } from "../../lib/types";

const write = (id: string, diagnostics?: Diagnostics): ToolCall => ({
  id,
  messageId: 2,
  name: "write_file",
  label: `→ Writing ${id}.go`,
  input: {},
  status: "done",
  output: "Created.",
  isError: false,
  startedAt: 1,
  ...(diagnostics && { diagnostics }),
});

const two: Diagnostics = {
  errors: 2,
  warnings: 1,
  items: [
    { path: "a.go", line: 4, col: 2, severity: "error", message: "undefined: frob", source: "compiler" },
    { path: "b.go", line: 3, col: 12, severity: "error", message: "undefined: frob" },
    { path: "a.go", line: 4, col: 12, severity: "warning", message: "unused variable" },
  ],
};

describe("diagnostics on a file-change card", () => {
  it("says how many errors the change left, lists them on a click, says none or why unknown", async () => {
    const b = new FakeBackend();
    withCalls(b, [
      write("bad", two),
      write("clean", { errors: 0, warnings: 0, items: [] }),
      write("slow", { errors: 0, warnings: 0, items: [], note: "gopls did not answer within 2 s; diagnostics unknown." }),
      write("plain"),
    ]);
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const cards = await screen.findAllByTestId("tool-call");
    const sums = cards.map((c) => within(c).queryByTestId("diagnostics-summary"));
    expect(sums.map((s) => s?.textContent?.replace(/[✕✓?!▸▾]/g, "").trim() ?? null)).toEqual([
      "2 errors, 1 warning after this change",
      "No errors after this change",
      "gopls did not answer within 2 s; diagnostics unknown.",
      null,
    ]);
    expect([sums[0]!.getAttribute("data-errors"), sums[0]!.getAttribute("data-warnings")]).toEqual(["2", "1"]);
    expect(sums[1]!.getAttribute("data-errors")).toBe("0");
    expect(within(cards[0]!).queryByTestId("diagnostics-list")).toBeNull();
    fireEvent.click(sums[0]!);
    const list = within(cards[0]!).getByTestId("diagnostics-list");
    expect(within(list).getAllByTestId("diagnostic").map((d) => d.textContent)).toEqual([
      "a.go:4:2 error undefined: frob (compiler)",
      "b.go:3:12 error undefined: frob",
      "a.go:4:12 warning unused variable",
    ]);
  });

  it("shows the live card's diagnostics as soon as it carries them", async () => {
    const b = new FakeBackend();
    withCalls(b, [{ ...write("w"), status: "running" }]);
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("tool-call");
    expect(within(card).queryByTestId("diagnostics-summary")).toBeNull();
    act(() => b.emit("agent:tool", { sessionId: 1, seq: 1, call: write("w", two) }));
    await waitFor(() => expect(within(screen.getByTestId("tool-call")).getByTestId("diagnostics-summary").getAttribute("data-errors")).toBe("2"));
  });
});

const entry = (path: string, errors = 0): FileEntry => ({ path, name: path, isDir: false, isLink: false, changed: false, errors });

describe("the file tree's error marks", () => {
  it("marks files with errors and follows agent:diagnostics: a fixed file loses its mark", async () => {
    const b = new FakeBackend();
    b.dirs = { "": [entry("a.go", 2), entry("b.go")] };
    renderApp(b);
    fireEvent.click(within(await screen.findByTestId("session-list")).getByText("Session 1"));
    await waitFor(() => expect(b.callsOf("getSession")).toHaveLength(1));
    fireEvent.click(await screen.findByTestId("tab-files"));
    const tree = await screen.findByTestId("file-tree");
    await waitFor(() => expect(tree.querySelector('[data-path="a.go"]')?.getAttribute("data-errors")).toBe("2"));
    expect(tree.querySelector('[data-path="a.go"] .tree-errors')?.textContent).toBe("2");
    expect(tree.querySelector('[data-path="b.go"]')?.getAttribute("data-errors")).toBeNull();

    b.dirs = { "": [entry("a.go"), entry("b.go", 1)] };
    act(() => b.emit("agent:diagnostics", { sessionId: 1, seq: 1, paths: ["a.go", "b.go"] }));
    await waitFor(() => expect(tree.querySelector('[data-path="b.go"]')?.getAttribute("data-errors")).toBe("1"));
    expect(tree.querySelector('[data-path="a.go"]')?.getAttribute("data-errors")).toBeNull();
    expect(tree.querySelector('[data-path="a.go"] .tree-errors')).toBeNull();
  });

  it("ignores another session's diagnostics", async () => {
    const b = new FakeBackend();
    b.dirs = { "": [entry("a.go")] };
    renderApp(b);
    fireEvent.click(within(await screen.findByTestId("session-list")).getByText("Session 1"));
    await waitFor(() => expect(b.callsOf("getSession")).toHaveLength(1));
    fireEvent.click(await screen.findByTestId("tab-files"));
    await screen.findByTestId("file-tree");
    await waitFor(() => expect(b.callsOf("listDir").length).toBeGreaterThan(0));
    const n = b.callsOf("listDir").length;
    act(() => b.emit("agent:diagnostics", { sessionId: 7, seq: 1, paths: ["a.go"] }));
    expect(b.callsOf("listDir").length).toBe(n); // the tree lists again within the event's act when it does
    act(() => b.emit("agent:diagnostics", { sessionId: 1, seq: 1, paths: ["a.go"] }));
    expect(b.callsOf("listDir").length).toBe(n + 1);
  });
});

describe("Settings › Languages", () => {
  it("lists each server with its state, path, version, last error and install hint; edits the user's own", async () => {
    const b = new FakeBackend();
    b.langServers = [
      { name: "gopls", languages: ["Go"], command: ["gopls"], path: "/home/u/go/bin/gopls", state: "running", version: "v0.23.0" },
      { name: "clangd", languages: ["C", "C++"], command: ["clangd"], state: "missing", install: "sudo apt-get install clangd" },
      { name: "rust-analyzer", languages: ["Rust"], command: ["rust-analyzer"], path: "/usr/bin/rust-analyzer", state: "failed", lastError: "rust-analyzer exited with status 101" },
      {
        name: "typescript-language-server",
        languages: ["TypeScript"],
        command: ["typescript-language-server", "--stdio"],
        state: "missing",
        lastError: "typescript-language-server was found only at ./node_modules/.bin/typescript-language-server (a relative PATH entry); Pilot does not run programs from there",
        install: "npm install -g typescript-language-server typescript",
      },
    ];
    b.userLangs = [{ name: "zls", command: ["zls"], patterns: ["**/*.zig"] }];
    renderApp(b);
    fireEvent.click(await screen.findByTestId("settings-open"));
    expect((await screen.findAllByTestId("settings-nav-item")).map((n) => n.getAttribute("data-section"))).toContain("languages");
    const section = screen.getAllByTestId("settings-section").find((s) => s.getAttribute("data-section") === "languages")!;
    const rows = await within(section).findAllByTestId("language-server");
    expect(rows.map((r) => [r.getAttribute("data-name"), r.getAttribute("data-state")])).toEqual([
      ["gopls", "running"],
      ["clangd", "missing"],
      ["rust-analyzer", "failed"],
      ["typescript-language-server", "missing"],
    ]);
    expect(rows[0]!.textContent).toContain("/home/u/go/bin/gopls");
    expect(rows[0]!.textContent).toContain("v0.23.0");
    expect(rows[1]!.textContent).toContain("sudo apt-get install clangd");
    expect(rows[2]!.textContent).toContain("exited with status 101");
    expect(rows[3]!.textContent).toContain("not run");
    expect(rows[3]!.textContent).toContain("found only at ./node_modules/.bin/typescript-language-server");

    await waitFor(() => expect((within(section).getByTestId("user-language-server-name") as HTMLInputElement).value).toBe("zls"));
    fireEvent.click(within(section).getByTestId("user-language-server-add"));
    const names = within(section).getAllByTestId("user-language-server-name");
    fireEvent.change(names[1]!, { target: { value: "pylsp" } });
    fireEvent.change(within(section).getAllByTestId("user-language-server-command")[1]!, { target: { value: "pylsp --check-parent-process" } });
    // No patterns: refused with the backend's sentence, nothing lost.
    fireEvent.click(within(section).getByTestId("user-language-server-save"));
    expect((await within(section).findByTestId("user-language-server-error")).textContent).toContain("serves no files");
    fireEvent.change(within(section).getAllByTestId("user-language-server-patterns")[1]!, { target: { value: "**/*.py, **/*.pyi" } });
    fireEvent.click(within(section).getByTestId("user-language-server-save"));
    await waitFor(() => expect(within(section).queryByTestId("user-language-server-error")).toBeNull());
    expect(b.userLangs).toEqual([
      { name: "zls", command: ["zls"], patterns: ["**/*.zig"] },
      { name: "pylsp", command: ["pylsp", "--check-parent-process"], patterns: ["**/*.py", "**/*.pyi"] },
    ]);
    // The list is read again after a save.
    expect(b.callsOf("languageServers").length).toBeGreaterThan(1);
  });
});
