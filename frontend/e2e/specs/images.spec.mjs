// Images: a screenshot pasted into the prompt of the real window shows as a
// thumbnail, reaches the model as an image block (Anthropic) or an
// image_url part (OpenAI-compatible), and stays in the transcript.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { appConsoleErrors, modelRequests, sel, startChat, waitTurnDone } from "./helpers.mjs";

// A 1x1 red PNG.
const pngB64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==";
const pngSha = createHash("sha256").update(Buffer.from(pngB64, "base64")).digest("hex");

/** Pastes a PNG into the prompt as the browser does: a paste event whose DataTransfer holds a File. */
async function pastePNG(page) {
  await page.locator(sel.input).evaluate((el, b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], "screenshot.png", { type: "image/png" }));
    el.focus();
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  }, pngB64);
}

function pasteTest(provider, wire) {
  return {
    name: `a pasted screenshot reaches the model as ${wire} (${provider})`,
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const env = provider === "openai" ? { PILOT_PROVIDER: "openai", PILOT_MODEL: "gpt-4.1" } : {};
      const { llm } = await startChat(ctx, { turns: [{ text: "A single red pixel.", repeat: true }] }, { "README.md": "# demo\n" }, { env });
      await pastePNG(page);
      const thumb = page.locator(".prompt [data-testid=image-attachment]");
      await thumb.waitFor({ state: "visible" });
      assert.equal(await thumb.getAttribute("src"), `data:image/png;base64,${pngB64}`, "the thumbnail is the pasted image");

      await page.fill(sel.input, "What is in this screenshot?");
      await page.click(sel.send);
      await page.locator(sel.assistant, { hasText: "A single red pixel." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      assert.equal(await thumb.count(), 0, "the prompt's thumbnail is gone once sent");

      const last = (await modelRequests(llm)).at(-1);
      assert.equal(last.format, provider);
      assert.match(last.lastUserText, /What is in this screenshot\?/);
      assert.deepEqual(last.images, [{ mediaType: "image/png", size: 70, sha256: pngSha, wire }], "the model got the image itself");

      // The transcript shows it, fetched by hash, and keeps it after a reload.
      const shown = page.locator(`${sel.user} [data-testid=image-attachment]`);
      await page.waitForFunction((s) => document.querySelector(s)?.getAttribute("src")?.startsWith("data:image/png;base64,"), `${sel.user} [data-testid=image-attachment]`);
      await page.reload();
      const item = page.locator("[data-testid=session-item] button").first();
      await item.waitFor({ state: "visible", timeout: 30_000 });
      await item.click();
      await page.waitForFunction((s) => document.querySelector(s)?.getAttribute("src") !== null && document.querySelector(s)?.getAttribute("src")?.startsWith("data:image/png"), `${sel.user} [data-testid=image-attachment]`, { timeout: 30_000 });
      assert.equal(await shown.count(), 1);
      assert.deepEqual(await appConsoleErrors(ctx), []);
    },
  };
}

export const tests = [pasteTest("anthropic", "image"), pasteTest("openai", "image_url")];
