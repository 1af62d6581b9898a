// Presets in Settings with the real backend: the chosen server's model list
// (or why it cannot be listed), the key variable each preset reads, and a
// saved preset that the next message goes to.
import assert from "node:assert/strict";
import { appConsoleErrors, eventually, modelRequests, openProject, scriptFile, sel, send, waitTurnDone } from "./helpers.mjs";

export const tests = [
  {
    name: "choosing Ollama lists the server's models, saves, and the next message goes there",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const llm = await ctx.startFakeLLM(
        await scriptFile(ctx, { models: ["qwen2.5-coder:7b", "llava:13b"], turns: [{ text: "Hello from the local server.", repeat: true }] }),
      );
      const project = await ctx.projectDir({ "README.md": "# demo\n" });
      // No key anywhere; the default (Anthropic) endpoint is the fake, so nothing leaves the machine.
      await ctx.startApp({ env: { ANTHROPIC_BASE_URL: llm.url, PILOT_PROJECT: project, DEEPSEEK_API_KEY: "sk-e2e-deepseek-0042" } });
      await page.locator("[data-testid=onboarding-settings]").click({ timeout: 30_000 });
      const dialog = page.locator("[data-testid=settings-dialog]");
      await dialog.waitFor({ state: "visible" });

      // DeepSeek's key comes from its own variable, and the form says so.
      await dialog.locator("[data-testid=settings-provider]").selectOption("deepseek");
      await eventually(async () => {
        assert.match(await dialog.locator("[data-testid=settings-key-env]").innerText(), /DEEPSEEK_API_KEY provides the key/);
        assert.equal(await dialog.locator("[data-testid=settings-base-url]").inputValue(), "https://api.deepseek.com");
      });

      // A server that cannot be reached says so; a model can still be typed.
      await dialog.locator("[data-testid=settings-provider]").selectOption("ollama");
      await eventually(async () => assert.equal(await dialog.locator("[data-testid=settings-base-url]").inputValue(), "http://localhost:11434/v1"));
      await dialog.locator("[data-testid=settings-base-url]").fill("http://127.0.0.1:9/v1");
      const failed = dialog.locator("[data-testid=settings-models-error]");
      await failed.waitFor({ state: "visible", timeout: 30_000 });
      assert.match(await failed.innerText(), /Could not reach 127\.0\.0\.1:9.*base URL.*You can still type a model id/s);

      await dialog.locator("[data-testid=settings-base-url]").fill(`${llm.url}/v1`);
      await dialog.locator("[data-testid=settings-models]").waitFor({ state: "visible", timeout: 30_000 });
      await eventually(async () => {
        assert.match(await dialog.locator("[data-testid=settings-models]").innerText(), /^The server offers 2 models/);
        assert.deepEqual(await dialog.locator("#model-options option").evaluateAll((os) => os.map((o) => o.value)), ["llava:13b", "qwen2.5-coder:7b"]);
      });
      await dialog.locator("[data-testid=settings-model]").fill("qwen2.5-coder:7b");
      await dialog.locator("[data-testid=settings-save]").click();
      await dialog.waitFor({ state: "detached" });

      await openProject(ctx, project);
      await send(ctx, "hello");
      await page.locator(sel.assistant, { hasText: "Hello from the local server." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      const last = (await modelRequests(llm)).at(-1);
      assert.equal(last.path, "/v1/chat/completions");
      assert.equal(last.model, "qwen2.5-coder:7b");
      assert.equal(last.header.Authorization, undefined, "no key is sent to a local server that has none");
      assert.equal(last.body.max_tokens > 0, true, "Ollama's limit field is max_tokens");

      // Settings remembers the preset.
      await page.click("[data-testid=settings-open]");
      await dialog.waitFor({ state: "visible" });
      // The dialog shows before the saved settings are loaded into it.
      await eventually(async () => assert.equal(await dialog.locator("[data-testid=settings-provider]").inputValue(), "ollama"));
      assert.deepEqual(await appConsoleErrors(ctx), []);
    },
  },
];
