import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import type { Message } from "../../lib/wire.gen";

const user = (id: number): Message => ({ id, role: "user", blocks: [{ type: "text", text: `prompt ${id}` }], state: "complete", createdAt: id });

/** The window with session 1 of n prompts open, read in pages of `page`. */
async function openLong(n: number, page: number, olderError = "") {
  const b = new FakeBackend();
  b.details[1] = detail(1, { messages: Array.from({ length: n }, (_, i) => user(i + 1)) });
  b.pageSize = page;
  b.olderError = olderError;
  renderApp(b);
  fireEvent.click(await screen.findByText("Session 1"));
  await screen.findByText(`prompt ${n}`);
  return { b, transcript: screen.getByTestId("transcript") };
}

/** Where the row of prompt id is, from the top of the transcript's view. */
function onScreen(id: number): number {
  const row = document.querySelector(`[data-message-id="${id}"]`)!.parentElement!;
  return Number(/translateY\(([\d.]+)px\)/.exec(row.style.transform)![1]) - screen.getByTestId("transcript").scrollTop;
}

const shown = () => screen.getAllByTestId("message").map((m) => Number(m.getAttribute("data-message-id")));

describe("a long transcript", () => {
  it("opens at its last page and reads the older ones as its top comes into view, keeping the view in place", async () => {
    const { b, transcript } = await openLong(120, 40);
    expect(b.callsOf("olderMessages")).toEqual([]); // the end is in view, not the top
    expect(Math.min(...shown())).toBeGreaterThan(80);

    act(() => {
      transcript.scrollTop = 0; // the top of the last page: prompt 81 under the "Loading" row
    });
    const before = onScreen(81);
    await waitFor(() => expect(b.callsOf("olderMessages")).toEqual([[1, 81, 0]]));
    // Older prompts put before it, prompt 81 is still where it was on screen.
    await waitFor(() => expect(shown()).toContain(80));
    expect(transcript.scrollTop).toBeGreaterThan(0);
    expect(onScreen(81)).toBe(before);

    act(() => {
      transcript.scrollTop = 0;
    });
    await waitFor(() => expect(b.callsOf("olderMessages")).toEqual([[1, 81, 0], [1, 41, 0]]));
    act(() => {
      transcript.scrollTop = 0;
    });
    await waitFor(() => expect(shown()).toContain(1));
    expect(screen.queryByTestId("transcript-older")).toBeNull(); // nothing older
    expect(b.callsOf("olderMessages")).toHaveLength(2);
  });

  it("says where the older messages would be that they could not be read, and reads them again", async () => {
    const { b, transcript } = await openLong(60, 40, "database is locked");
    act(() => {
      transcript.scrollTop = 0;
    });
    const row = await screen.findByText(/Could not read the earlier messages: database is locked/);
    b.olderError = "";
    fireEvent.click(within(row.closest("[data-testid=transcript-older]") as HTMLElement).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(b.callsOf("olderMessages")).toHaveLength(2));
    await waitFor(() => expect(screen.queryByTestId("transcript-older")).toBeNull());
  });
});
