import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { FakeBackend, detail, summary } from "../../test/fakeBackend";
import type { Message } from "../../lib/wire.gen";

const text = (id: number, role: "user" | "assistant", t: string): Message => ({ id, role, blocks: [{ type: "text", text: t }], state: "complete", createdAt: id });

describe("a session another Pilot process runs", () => {
  it("is listed as running there with its pid, its transcript follows it, and it is idle once the process is gone", async () => {
    const b = new FakeBackend();
    const running = summary(1, { state: "running", elsewhere: { pid: 4242, state: "streaming" } });
    b.sessions = [running];
    b.details[1] = detail(1, { session: running, messages: [text(1, "user", "write the tests")] });
    renderApp(b);
    const item = await screen.findByTestId("session-item");
    expect(item.getAttribute("data-state")).toBe("streaming");
    expect(item.getAttribute("data-elsewhere")).toBe("4242");
    expect(item.querySelector(".list-button")!.getAttribute("title")).toBe("Running in another Pilot process (pid 4242): the model is writing.");

    fireEvent.click(screen.getByText("Session 1"));
    await screen.findByText("write the tests");

    // That process commits an answer and waits for a decision: the window is told, reads it again.
    const change = { id: "a1", kind: "change" as const, toolCallId: "t1", tool: "write_file", paths: ["src/lexer_test.go"] };
    const waiting = { ...running, updatedAt: 5000, elsewhere: { pid: 4242, state: "awaiting_approval" as const, waiting: [change] } };
    b.details[1] = detail(1, { session: waiting, messages: [text(1, "user", "write the tests"), text(2, "assistant", "Here is the first test.")] });
    act(() => b.emit("session:updated", { session: waiting }));
    await screen.findByText("Here is the first test.");
    await waitFor(() => expect(screen.getByTestId("session-item").getAttribute("data-state")).toBe("waiting"));
    expect(screen.getByTestId("session-item").querySelector(".list-button")!.getAttribute("title")).toBe("Waiting in another Pilot process (pid 4242) for you to review a change to src/lexer_test.go: answer it there.");
    expect(screen.getByTestId("session-waiting").textContent).toBe("1");

    // Killed: no run anywhere, the store's running read as interrupted; the last words are read once more.
    const gone = summary(1, { state: "interrupted", updatedAt: 6000 });
    b.details[1] = detail(1, { session: gone, messages: [text(1, "user", "write the tests"), text(2, "assistant", "Here is the first test and a second.")] });
    act(() => b.emit("session:updated", { session: gone }));
    await screen.findByText("Here is the first test and a second.");
    await waitFor(() => expect(screen.getByTestId("session-item").getAttribute("data-state")).toBe("idle"));
    expect(screen.getByTestId("session-item").getAttribute("data-elsewhere")).toBeNull();
    expect(screen.queryByTestId("session-waiting")).toBeNull();
  });
});
