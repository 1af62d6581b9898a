// First run without an API key: a friendly onboarding screen, not an error,
// and Settings reachable from it.
import assert from "node:assert/strict";
import { appConsoleErrors, modelRequests, openProject, scriptFile, sel, send, waitTurnDone } from "./helpers.mjs";

export const tests = [
  {
    name: "without a key the onboarding screen shows and Settings saves a key that works",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const key = "sk-e2e-onboarding-key";
      // The fake server insists on the key the user will type into Settings.
      const llm = await ctx.startFakeLLM(
        await scriptFile(ctx, { apiKey: key, models: ["claude-e2e"], turns: [{ text: "Ready when you are.", repeat: true }] }),
      );
      const project = await ctx.projectDir({ "README.md": "# demo\n" });
      // No ANTHROPIC_API_KEY, OPENAI_API_KEY or PILOT_PROVIDER: only where
      // the (default, Anthropic) server lives, so nothing reaches the internet.
      await ctx.startApp({ env: { ANTHROPIC_BASE_URL: llm.url, PILOT_PROJECT: project } });

      const onboarding = page.locator("[data-testid=onboarding]");
      await onboarding.waitFor({ state: "visible", timeout: 30_000 });
      assert.match(await onboarding.innerText(), /API key/i, "it says what to set");
      assert.equal(await page.locator("[data-testid=error-banner]").count(), 0, "no error banner instead");
      assert.equal(await page.locator(sel.input).count(), 0, "no prompt box before a model is configured");

      // Settings is reachable from the onboarding screen.
      await page.click("[data-testid=onboarding-settings]");
      const dialog = page.locator("[data-testid=settings-dialog]");
      await dialog.waitFor({ state: "visible" });
      for (const id of ["settings-provider", "settings-model", "settings-api-key", "settings-base-url", "settings-save"]) {
        await dialog.locator(`[data-testid=${id}]`).waitFor({ state: "visible" });
      }
      assert.equal(await dialog.locator("[data-testid=settings-api-key]").getAttribute("type"), "password", "key field is masked");

      await dialog.locator("[data-testid=settings-api-key]").fill(key);
      await dialog.locator("[data-testid=settings-save]").click();
      await dialog.waitFor({ state: "detached" });
      await onboarding.waitFor({ state: "detached" });

      // The saved key is the one the model server now receives (it answers 401 otherwise).
      await openProject(ctx, project);
      await send(ctx, "hello");
      await page.locator(sel.assistant, { hasText: "Ready when you are." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      const reqs = await modelRequests(llm);
      assert.ok(reqs.length >= 1, "the model was called");
      assert.equal(reqs.at(-1).lastUserText.includes("hello"), true);
      assert.deepEqual(await appConsoleErrors(ctx), []);
    },
  },
];
