import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import { matchCommands } from "../chat/SlashPicker";
import type { SlashCommand } from "../../lib/wire.gen";

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
  it("lists the user's own commands first, then the built-in ones, and filters as you type", async () => {
    const b = new FakeBackend();
    b.slash = custom;
    const input = await openSession(b);
    fireEvent.change(input, { target: { value: "/", selectionStart: 1 } });
    await screen.findByTestId("slash-picker");
    await waitFor(() => expect(names()).toEqual(["review", "git:commit", "mcp__everything__args-prompt", "compact", "new", "init", "remember", "remember-user"]));
    // Asked for the open session, so a worktree session's skills are its own.
    expect(b.callsOf("listSlashCommands")).toEqual([[1]]);
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

  it("matches built-ins by prefix and the rest by part of the name, prefix matches first", () => {
    expect(matchCommands(custom, "com").map((c) => c.name)).toEqual(["compact", "git:commit"]);
    expect(matchCommands(custom, "").map((c) => c.name)).toEqual(["review", "git:commit", "mcp__everything__args-prompt", "compact", "new", "init", "remember", "remember-user"]);
    expect(matchCommands([{ name: "new", description: "mine", argumentHint: "", source: "user" }], "").map((c) => `${c.name}/${c.source}`)).toEqual(["compact/builtin", "new/builtin", "init/builtin", "remember/builtin", "remember-user/builtin", "review/builtin"]);
    // The backend expands /init after the user's own commands: theirs replaces it in the list too.
    expect(matchCommands([{ name: "init", description: "mine", argumentHint: "", source: "project" }], "in").map((c) => `${c.name}/${c.source}`)).toEqual(["init/project"]);
  });

  it("lists /remember and /remember-user with what to type after them, and sends them as typed", async () => {
    const b = new FakeBackend();
    const input = await openSession(b);
    fireEvent.change(input, { target: { value: "/rem", selectionStart: 4 } });
    await waitFor(() => expect(names()).toEqual(["remember", "remember-user"]));
    const [project, user] = screen.getAllByTestId("slash-item");
    expect(project!.textContent).toBe("/remember what to rememberAdd a line to this project's AGENTS.md (proposed for your review) · built in");
    expect(user!.textContent).toContain("~/.claude/CLAUDE.md");
    fireEvent.keyDown(input, { key: "Enter" });
    expect(input.value).toBe("/remember ");
    fireEvent.change(input, { target: { value: "/remember run make lint first", selectionStart: 29 } });
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(b.callsOf("sendMessage")).toEqual([[1, "/remember run make lint first", []]]));
  });

  // Old code: /compact was preselected, so "/" then Enter compacted a fresh session.
  it("preselects nothing for a bare /, so Enter runs nothing the user did not choose", async () => {
    const b = new FakeBackend();
    const input = await openSession(b);
    fireEvent.change(input, { target: { value: "/", selectionStart: 1 } });
    await waitFor(() => expect(names()).toEqual(["compact", "new", "init", "remember", "remember-user", "review"]));
    expect(screen.getAllByTestId("slash-item").filter((i) => i.getAttribute("aria-selected") === "true")).toEqual([]);
    expect(input.getAttribute("aria-activedescendant")).toBeNull();
    fireEvent.keyDown(input, { key: "Enter" });
    expect(b.callsOf("compactNow")).toEqual([]);
    expect(b.callsOf("sendMessage")).toEqual([]);
    expect(input.value).toBe("/");
    // An arrow chooses; typing preselects the first match.
    fireEvent.keyDown(input, { key: "ArrowDown" });
    expect(screen.getAllByTestId("slash-item")[0]!.getAttribute("aria-selected")).toBe("true");
    fireEvent.change(input, { target: { value: "/n", selectionStart: 2 } });
    await waitFor(() => expect(names()).toEqual(["new"]));
    expect(screen.getAllByTestId("slash-item")[0]!.getAttribute("aria-selected")).toBe("true");
  });
});

describe("skills in the / picker", () => {
  it("lists a skill with its description and sends /name args, which the service turns into the request to use it", async () => {
    const b = new FakeBackend();
    b.slash = [...custom, { name: "pdf", description: "Fill PDF forms", argumentHint: "", source: "skill" }];
    const input = await openSession(b);
    fireEvent.change(input, { target: { value: "/pd", selectionStart: 3 } });
    await waitFor(() => expect(names()).toEqual(["pdf"]));
    expect(screen.getByTestId("slash-item").textContent).toContain("Fill PDF forms · skill");
    fireEvent.keyDown(input, { key: "Enter" });
    expect(input.value).toBe("/pdf ");
    fireEvent.change(input, { target: { value: "/pdf fill form.pdf", selectionStart: 18 } });
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(b.callsOf("sendMessage")).toEqual([[1, "/pdf fill form.pdf", []]]));
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

/** Types ch where the caret is, as a browser does for a key. */
function typeChar(input: HTMLTextAreaElement, ch: string) {
  const start = input.selectionStart ?? input.value.length;
  const end = input.selectionEnd ?? start;
  const value = input.value.slice(0, start) + ch + input.value.slice(end);
  fireEvent.change(input, { target: { value, selectionStart: start + 1, selectionEnd: start + 1 } });
}

const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

// Old code: the caret was moved to the end of the picked text one frame
// later, back before what had been typed meanwhile: "/review daA".
describe("typing right after a pick", () => {
  it("keeps a fast typist's characters in order after a / pick", async () => {
    const b = new FakeBackend();
    b.slash = custom;
    const input = await openSession(b);
    fireEvent.change(input, { target: { value: "/rev", selectionStart: 4 } });
    await waitFor(() => expect(names()).toEqual(["review"]));
    fireEvent.keyDown(input, { key: "Enter" });
    expect(input.value).toBe("/review ");
    expect(input.selectionStart).toBe(8);
    typeChar(input, "A");
    await nextFrame();
    typeChar(input, "d");
    typeChar(input, "a");
    expect(input.value).toBe("/review Ada");
  });

  it("keeps a fast typist's characters in order after an @ pick", async () => {
    const b = new FakeBackend();
    b.files = { "notes.md": "# n" };
    const input = await openSession(b);
    fireEvent.change(input, { target: { value: "read @no", selectionStart: 8 } });
    await waitFor(() => expect(screen.getAllByTestId("file-picker-item")).toHaveLength(1));
    fireEvent.keyDown(input, { key: "Enter" });
    expect(input.value).toBe("read @notes.md ");
    expect(input.selectionStart).toBe(15);
    typeChar(input, "A");
    await nextFrame();
    typeChar(input, "d");
    typeChar(input, "a");
    expect(input.value).toBe("read @notes.md Ada");
  });
});

describe("a slash command in the transcript", () => {
  it("shows the message as typed, with the expansion folded, and recalls it as typed", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      messages: [{ id: 1, role: "user", blocks: [{ type: "text", text: "Say hello to Ada in French.", command: "/hello Ada" }], state: "complete", createdAt: 1 }],
    });
    const input = await openSession(b);
    const row = await screen.findByTestId("user-command");
    expect(row.getAttribute("data-command")).toBe("/hello Ada");
    expect(row.querySelector(".user-text")!.textContent).toBe("/hello Ada");
    const exp = screen.getByTestId("command-expansion") as HTMLDetailsElement;
    expect(exp.open).toBe(false);
    expect(exp.textContent).toContain("Say hello to Ada in French.");
    fireEvent.keyDown(input, { key: "ArrowUp" });
    expect(input.value).toBe("/hello Ada");
  });
});
