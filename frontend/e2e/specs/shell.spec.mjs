// The app shell: served by the real Go backend (dev build), driven in Chromium.
import assert from "node:assert/strict";

/** Waits until the locator's trimmed text satisfies pred; returns the text. */
async function textWhere(ctx, locator, pred, what) {
  return ctx.waitFor(
    async () => {
      const t = ((await locator.textContent()) ?? "").trim();
      return pred(t) ? t : false;
    },
    { timeout: 15_000, message: what },
  );
}

export const tests = [
  {
    name: "the shell loads with its layout regions",
    async fn({ page }) {
      assert.equal(await page.title(), "Pilot");
      await page.locator(".app").waitFor({ state: "visible" });
      // left: projects and sessions; centre: chat; right: files / review; bottom: status bar
      assert.ok((await page.locator(".app aside").count()) >= 2, "two side regions");
      await page.locator(".app main").first().waitFor({ state: "visible" });
      await page.locator(".app footer").first().waitFor({ state: "visible" });
      await page.locator("[data-testid=agent-state]").waitFor({ state: "visible" });
    },
  },
  {
    name: "a bound Go method round-trips (About shows pilot version data)",
    async fn(ctx) {
      const { page, version } = ctx;
      await page.click("[data-testid=about-open]");
      const v = await textWhere(ctx, page.locator("[data-testid=about-version]"), (t) => t.length > 0, "about-version");
      assert.equal(v, version.version, "About shows what `pilot version` prints");
      const w = await textWhere(ctx, page.locator("[data-testid=about-wails]"), (t) => t.length > 0, "about-wails");
      assert.equal(w, "v2.16.0");
    },
  },
  {
    name: "an event emitted from Go reaches the page (app:ready)",
    async fn({ page, pilotLog }) {
      await page.locator('.app[data-ready="true"]').waitFor({ state: "attached" });
      const startup = page.locator("[data-testid=startup-time]");
      await startup.waitFor({ state: "visible" });
      assert.match((await startup.textContent()) ?? "", /\d+\s*ms/);
      assert.match(pilotLog(), /"msg":"frontend ready"/);
    },
  },
];
