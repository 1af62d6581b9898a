import { describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { FakeBackend, withCalls } from "../../test/fakeBackend";
import type { ToolCall } from "../../lib/wire.gen";

const read = (id: string, instructions?: string[]): ToolCall => ({
  id,
  messageId: 2,
  name: "read_file",
  label: `→ Reading file: ${id}`,
  input: {},
  status: "done",
  output: "1\tpackage a",
  isError: false,
  startedAt: 1,
  ...(instructions && { instructions }),
});

describe("a call that brought in nested instruction files", () => {
  it("says so on its card, naming the files; other cards say nothing", async () => {
    const b = new FakeBackend();
    withCalls(b, [read("sub/a.go", ["sub/AGENTS.md", "sub/style.md"]), read("top.go")]);
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const cards = await screen.findAllByTestId("tool-call");
    const note = within(cards[0]!).getByTestId("tool-instructions");
    expect(note.getAttribute("data-files")).toBe("sub/AGENTS.md sub/style.md");
    expect(note.textContent).toContain("instructions");
    expect(note.textContent).toContain("sub/AGENTS.md, sub/style.md");
    expect(within(cards[1]!).queryByTestId("tool-instructions")).toBeNull();
  });
});
