import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { openSessionOne } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import { rememberDraft, rememberLimit } from "../chat/RememberForm";
import type { Message } from "../../lib/wire.gen";

const messages: Message[] = [
  { id: 1, role: "user", state: "complete", createdAt: 1, blocks: [{ type: "text", text: "  Always run make lint before committing.  " }] },
  { id: 2, role: "assistant", state: "complete", createdAt: 2, blocks: [{ type: "text", text: "Tests live next to the code, in *_test.go files." }] },
  { id: 3, role: "user", state: "complete", createdAt: 3, blocks: [{ type: "text", text: "Review main.go with care", command: "/review main.go" }] },
];

async function open(files?: FakeBackend["remember"]) {
  const b = new FakeBackend();
  if (files) b.remember = files;
  b.details[1] = detail(1, { messages });
  await openSessionOne(b);
  return b;
}

const row = (id: number) => screen.getAllByTestId("message").find((m) => m.getAttribute("data-message-id") === String(id))!;

/** Opens Remember on message id; returns the form's textarea. */
function remember(id: number) {
  fireEvent.click(within(row(id)).getByTestId("memory-remember"));
  return within(row(id)).getByTestId("memory-remember-text") as HTMLTextAreaElement;
}

const chooseScope = async (id: number, label: RegExp) => fireEvent.click(await within(within(row(id)).getByTestId("memory-remember-scope")).findByLabelText(label));

describe("Remember on a message", () => {
  it("on the user's message, starts with the message's text and sends /remember for this project", async () => {
    const b = await open();
    const text = remember(1);
    expect(text.value).toBe("Always run make lint before committing.");
    expect(document.activeElement).toBe(text);
    // This project is the default.
    expect(((await within(row(1)).findByLabelText("This project (AGENTS.md)")) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(row(1)).getByTestId("memory-remember-send"));
    await waitFor(() => expect(b.callsOf("sendMessage")).toEqual([[1, "/remember Always run make lint before committing.", []]]));
    expect(screen.queryByTestId("memory-remember-text")).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId("chat-input"));
  });

  it("on an assistant's message, sends the note as edited with Ctrl+Enter", async () => {
    const b = await open();
    const answer = remember(2);
    expect(answer.value).toBe("Tests live next to the code, in *_test.go files.");
    fireEvent.change(answer, { target: { value: "Put tests next to the code, in *_test.go files." } });
    fireEvent.keyDown(answer, { key: "Enter", ctrlKey: true });
    await waitFor(() => expect(b.callsOf("sendMessage")).toEqual([[1, "/remember Put tests next to the code, in *_test.go files.", []]]));
  });

  it("names the files the backend says the two scopes add to", async () => {
    const b = await open({ project: "CLAUDE.md", user: "~/.codex/AGENTS.md" });
    remember(1);
    expect(await within(row(1)).findByLabelText("This project (CLAUDE.md)")).toBeTruthy();
    expect(within(row(1)).getByLabelText("All my projects (~/.codex/AGENTS.md)")).toBeTruthy();
    expect(b.callsOf("rememberFiles")).toEqual([[1]]);
  });

  it("sends /remember-user for all the user's projects", async () => {
    const b = await open();
    remember(2);
    await chooseScope(2, /All my projects \(~\/\.claude\/CLAUDE\.md\)/);
    fireEvent.keyDown(within(row(2)).getByTestId("memory-remember-text"), { key: "Enter", metaKey: true });
    await waitFor(() => expect(b.callsOf("sendMessage")).toEqual([[1, "/remember-user Tests live next to the code, in *_test.go files.", []]]));
  });

  it("starts a command message with the command as typed, not its expansion", async () => {
    await open();
    expect(remember(3).value).toBe("/review main.go");
  });

  it("refuses an empty note and says why", async () => {
    const b = await open();
    const text = remember(1);
    fireEvent.change(text, { target: { value: "  \n " } });
    expect(within(row(1)).getByTestId("memory-remember-empty").textContent).toMatch(/Nothing to remember/);
    const send = within(row(1)).getByTestId("memory-remember-send") as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.keyDown(text, { key: "Enter", ctrlKey: true });
    fireEvent.submit(text.form!);
    await act(async () => {});
    expect(b.callsOf("sendMessage")).toEqual([]);
    expect(within(row(1)).getByTestId("memory-remember-text")).toBeTruthy();
  });

  it("Escape closes it without sending, and gives the focus back to the prompt without stopping the turn", async () => {
    const b = await open();
    act(() => b.emit("agent:state", { sessionId: 1, seq: 1, state: "streaming" }));
    const text = remember(2);
    fireEvent.keyDown(text, { key: "Escape" });
    expect(within(row(2)).queryByTestId("memory-remember-text")).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId("chat-input"));
    await act(async () => {});
    expect(b.callsOf("sendMessage")).toEqual([]);
    expect(b.callsOf("cancelTurn")).toEqual([]);
  });

  it("is queued like a typed message while a turn runs", async () => {
    const b = await open();
    act(() => b.emit("agent:state", { sessionId: 1, seq: 1, state: "streaming" }));
    remember(2);
    fireEvent.click(within(row(2)).getByTestId("memory-remember-send"));
    expect((await screen.findByTestId("queued")).textContent).toContain("/remember Tests live next to the code");
    expect(b.callsOf("sendMessage")).toEqual([]);
    act(() => {
      b.emit("agent:state", { sessionId: 1, seq: 2, state: "idle" });
      b.emit("agent:turn_done", { sessionId: 1, seq: 3, reason: "end_turn" });
    });
    await waitFor(() => expect(b.callsOf("sendMessage")).toEqual([[1, "/remember Tests live next to the code, in *_test.go files.", []]]));
  });

  it("says in the form when a long message was cut", async () => {
    const b = new FakeBackend();
    const long = "step ".repeat(1000).trim();
    b.details[1] = detail(1, { messages: [{ id: 1, role: "assistant", state: "complete", createdAt: 1, blocks: [{ type: "text", text: long }] }] });
    await openSessionOne(b);
    expect(remember(1).value.length).toBeLessThanOrEqual(rememberLimit);
    expect(within(row(1)).getByTestId("memory-remember-cut").textContent).toBe("Cut to its first 1,999 of 4,999 characters: keep what should be remembered.");
    expect(within(row(1)).queryByTestId("memory-remember-empty")).toBeNull();
  });

  it("cuts a long message at a word before the limit and says so", () => {
    const long = `${"word ".repeat(rememberLimit)}end`;
    const d = rememberDraft(`\n${long}\n`);
    expect(d.text.length).toBeLessThanOrEqual(rememberLimit);
    expect(d.text.endsWith("word")).toBe(true);
    expect(d.cutFrom).toBe(long.length);
    expect(rememberDraft(" short ")).toEqual({ text: "short", cutFrom: null });
  });
});
