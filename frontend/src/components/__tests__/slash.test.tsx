import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { FakeBackend } from "../../test/fakeBackend";
import { matchCommands } from "../chat/SlashPicker";
import type { SlashCommand } from "../../lib/types";

const custom: SlashCommand[] = [
  { name: "review", description: "Review a file", argumentHint: "FILE", source: "project" },
  { name: "git:commit", description: "Commit the work", argumentHint: "", source: "project-claude" },
  { name: "mcp__everything__args-prompt", description: "A prompt with arguments", argumentHint: "city state", source: "mcp" },
];

async function openSession(b: FakeBackend) {
  renderApp(b);
  fireEvent.click(await screen.findByText("Session 1"));
  return (await screen.findByTestId("chat-input")) as HTMLTextAreaElement;
}

const names = () => screen.getAllByTestId("slash-item").map((i) => i.getAttribute("data-name"));

describe("the / picker", () => {
  it("lists built-in commands first, then the project's, and filters as you type", async () => {
    const b = new FakeBackend();
    b.slash = custom;
    const input = await openSession(b);
    fireEvent.change(input, { target: { value: "/", selectionStart: 1 } });
    await screen.findByTestId("slash-picker");
    await waitFor(() => expect(names()).toEqual(["compact", "new", "review", "git:commit", "mcp__everything__args-prompt"]));
    fireEvent.change(input, { target: { value: "/rev", selectionStart: 4 } });
    await waitFor(() => expect(names()).toEqual(["review"]));
    fireEvent.keyDown(input, { key: "Enter" });
    expect(input.value).toBe("/review ");
    expect(screen.queryByTestId("slash-picker")).toBeNull();
    fireEvent.change(input, { target: { value: "/review main.go", selectionStart: 15 } });
    expect(screen.queryByTestId("slash-picker")).toBeNull();
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(b.callsOf("sendMessage")).toEqual([[1, "/review main.go", []]]));
  });

  it("runs a built-in command instead of sending it", async () => {
    const b = new FakeBackend();
    const input = await openSession(b);
    fireEvent.change(input, { target: { value: "/comp", selectionStart: 5 } });
    await waitFor(() => expect(names()).toEqual(["compact"]));
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(b.callsOf("compactNow")).toEqual([[1]]));
    expect(b.callsOf("sendMessage")).toEqual([]);
    expect(input.value).toBe("");
  });

  it("matches built-ins by prefix and the rest by part of the name", () => {
    expect(matchCommands(custom, "com").map((c) => c.name)).toEqual(["compact", "git:commit"]);
    expect(matchCommands([{ name: "new", description: "mine", argumentHint: "", source: "user" }], "").map((c) => `${c.name}/${c.source}`)).toEqual(["compact/builtin", "new/builtin"]);
  });
});

describe("MCP resources in the @ picker", () => {
  it("lists matching resources after the files and attaches one", async () => {
    const b = new FakeBackend();
    b.files = { "notes.md": "# n" };
    b.resources = [{ server: "everything", uri: "demo://resource/static/document/architecture.md", name: "architecture.md", description: "", mimeType: "text/markdown" }];
    const input = await openSession(b);
    fireEvent.change(input, { target: { value: "read @", selectionStart: 6 } });
    await waitFor(() => expect(screen.getAllByTestId("file-picker-item").map((i) => i.getAttribute("data-kind"))).toEqual([null, "mcp-resource"]));
    fireEvent.change(input, { target: { value: "read @arch", selectionStart: 10 } });
    await waitFor(() => expect(screen.getAllByTestId("file-picker-item").map((i) => i.getAttribute("data-kind"))).toEqual(["mcp-resource"]));
    fireEvent.keyDown(input, { key: "Enter" });
    const ref = "mcp:everything:demo://resource/static/document/architecture.md";
    expect(screen.getByTestId("attachment").textContent).toContain(ref);
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(b.callsOf("sendMessage")).toEqual([[1, `read @${ref}`, [ref]]]));
  });
});
