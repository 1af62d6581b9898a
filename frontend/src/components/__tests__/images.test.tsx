import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";

// A 1x1 PNG.
const pngB64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==";
const pngFile = (name = "shot.png", type = "image/png") => new File([Uint8Array.from(atob(pngB64), (c) => c.charCodeAt(0))], name, { type });
/** What a paste or a drop carries (jsdom has no DataTransfer). */
const transfer = (files: File[]) => ({ files, items: [], types: ["Files"] });

async function openSession(b = new FakeBackend()) {
  renderApp(b);
  fireEvent.click(await screen.findByText("Session 1"));
  await screen.findByTestId("chat-input");
  await waitFor(() => expect(b.callsOf("getSession")).toHaveLength(1));
  await act(async () => {});
  return b;
}

describe("images in the prompt", () => {
  it("shows a pasted screenshot as a thumbnail and sends it with the message", async () => {
    const b = await openSession();
    const input = screen.getByTestId("chat-input");
    fireEvent.paste(input, { clipboardData: transfer([pngFile()]) });
    const thumb = await screen.findByTestId("image-attachment");
    expect(thumb.getAttribute("src")).toBe(`data:image/png;base64,${pngB64}`);
    // An image alone can be sent.
    expect((screen.getByTestId("chat-send") as HTMLButtonElement).disabled).toBe(false);
    fireEvent.change(input, { target: { value: "What is wrong here?" } });
    fireEvent.click(screen.getByTestId("chat-send"));
    await waitFor(() => expect(b.callsOf("sendMessage")).toHaveLength(1));
    expect(b.callsOf("sendMessage")[0]).toEqual([1, "What is wrong here?", [], [{ mediaType: "image/png", data: pngB64 }]]);
    expect(screen.queryByTestId("image-attachment")).toBeNull();
  });

  it("takes a dropped image, removes one on request, and refuses other files with a sentence", async () => {
    await openSession();
    const prompt = screen.getByTestId("chat-input").closest(".prompt")!;
    fireEvent.drop(prompt, { dataTransfer: transfer([pngFile("a.png"), pngFile("b.webp", "image/webp")]) });
    await waitFor(() => expect(screen.getAllByTestId("image-attachment")).toHaveLength(2));
    fireEvent.click(screen.getByRole("button", { name: "Remove a.png" }));
    expect(screen.getAllByTestId("image-attachment")).toHaveLength(1);
    fireEvent.paste(screen.getByTestId("chat-input"), { clipboardData: transfer([pngFile("scan.bmp", "image/bmp")]) });
    expect((await screen.findByTestId("image-error")).textContent).toBe("scan.bmp is image/bmp; attach a PNG, JPEG, GIF or WebP image.");
  });

  it("shows a message's image, fetched by its hash", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      messages: [{ id: 3, role: "user", state: "complete", createdAt: 3, blocks: [{ type: "text", text: "see" }, { type: "image", hash: "abc123", mediaType: "image/png" }] }],
    });
    b.images.abc123 = { hash: "abc123", mediaType: "image/png", dataUrl: `data:image/png;base64,${pngB64}` };
    await openSession(b);
    const img = await screen.findByTestId("image-attachment");
    await waitFor(() => expect(img.getAttribute("src")).toBe(`data:image/png;base64,${pngB64}`));
    expect(b.callsOf("getImage")).toEqual([["abc123"]]);
  });

  it.each([
    ["read_file", "ui.png is an image (image/png, 70 bytes); it is attached."],
    ["mcp__everything__get-tiny-image", "This is a tiny image:\n[image image/png, 70 bytes, attached]\nThe image above is the MCP tiny image."],
  ])("shows the image %s returned in its tool card", async (name, output) => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      messages: [
        { id: 3, role: "user", state: "complete", createdAt: 3, blocks: [{ type: "text", text: "look at ui.png" }] },
        { id: 4, role: "assistant", state: "complete", createdAt: 4, blocks: [{ type: "tool_use", id: "r1", name, input: { path: "ui.png" } }] },
        { id: 5, role: "user", state: "complete", createdAt: 5, blocks: [{ type: "tool_result", toolUseId: "r1", text: output, images: [{ type: "image", hash: "def456", mediaType: "image/png" }] }] },
      ],
      toolCalls: [{ id: "r1", messageId: 4, name, label: "→ Reading file: ui.png", input: { path: "ui.png" }, status: "done", output, isError: false, startedAt: 4 }],
    });
    b.images.def456 = { hash: "def456", mediaType: "image/png", dataUrl: `data:image/png;base64,${pngB64}` };
    await openSession(b);
    const card = await screen.findByTestId("tool-call");
    await waitFor(() => expect(card.querySelector("[data-testid=image-attachment]")?.getAttribute("src")).toBe(`data:image/png;base64,${pngB64}`));
  });
});
