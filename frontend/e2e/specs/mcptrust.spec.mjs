// "Not now" on the MCP trust prompt is not a dead end (issue 28, point 2):
// in the real window, with a real third-party server
// (@modelcontextprotocol/server-everything from npm, installed once into a
// cache folder), the prompt is dismissed, Settings' row of the server
// waiting for trust offers "Trust and start…", which shows the same prompt;
// after "Trust and start" a notice outside Settings says the server started
// and how many tools it has. At 1280x820 and at 200% scaling (a 640x410 CSS
// viewport, device pixel ratio 2). The 1280 run also takes the README's
// picture of the sectioned Settings.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { check } from "./a11y-helpers.mjs";
import { openProject } from "./helpers.mjs";
import { defaultWindow, docShot } from "./ledger-helpers.mjs";

function everythingServer() {
  const cache = join(tmpdir(), "pilot-npm-cache");
  const bin = join(cache, "node_modules", ".bin", "mcp-server-everything");
  if (!existsSync(bin)) {
    execFileSync("npm", ["install", "--prefix", cache, "--no-audit", "--no-fund", "@modelcontextprotocol/server-everything"], { stdio: "inherit" });
  }
  return bin;
}

/** Starts the app on a project whose .mcp.json has the everything server, and answers its trust prompt "Not now". */
async function dismissTrust(ctx) {
  const { page } = ctx;
  const server = everythingServer();
  const project = await ctx.projectDir({ ".mcp.json": JSON.stringify({ mcpServers: { everything: { command: server } } }) });
  await ctx.startApp({ env: { PILOT_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "sk-ant-e2e-unused", PILOT_PROJECT: project } });
  const trust = page.locator("[data-testid=mcp-trust]");
  await trust.waitFor({ state: "visible", timeout: 30_000 });
  await page.click("[data-testid=mcp-trust-later]");
  await trust.waitFor({ state: "detached" });
  await openProject(ctx, project);
  return { server, project };
}

/** From Settings: the waiting server's "Trust and start…", the same prompt, then the notice outside Settings. */
async function trustFromSettings(ctx, server) {
  const { page } = ctx;
  await page.click("[data-testid=settings-open]");
  const dialog = page.locator("[data-testid=settings-dialog]");
  await dialog.waitFor();
  await dialog.locator('[data-testid=settings-nav-item][data-section="mcp"]').click();
  const row = dialog.locator("[data-testid=mcp-server][data-name=everything]");
  await row.waitFor({ timeout: 30_000 });
  assert.equal(await row.getAttribute("data-state"), "disabled", "the server stays off after Not now");
  const again = row.locator("[data-testid=mcp-server-trust]");
  await again.scrollIntoViewIfNeeded();
  assert.ok(await again.isVisible(), "the row offers to trust it");
  await again.click();

  const trust = page.locator("[data-testid=mcp-trust]");
  await trust.waitFor({ state: "visible" });
  assert.ok((await trust.innerText()).includes(server), "the same prompt, with the exact command");
  const found = [];
  await check(page, "the trust prompt over Settings", found);
  const accept = trust.locator("[data-testid=mcp-trust-accept]");
  assert.ok(await accept.isVisible(), "the accept button is in view");
  await accept.click();
  await trust.waitFor({ state: "detached" });

  const notice = page.locator("[data-testid=mcp-started][data-state=ready]");
  await notice.waitFor({ timeout: 60_000 });
  assert.match(await notice.innerText(), /MCP: everything started with \d+ tools\./);
  await check(page, "the started notice", found);
  assert.deepEqual(found, [], `accessibility problems:\n${found.join("\n")}`);
  assert.equal(await dialog.locator("[data-testid=mcp-started]").count(), 0, "the notice is outside Settings");
  await dialog.locator("[data-testid=mcp-server][data-name=everything][data-state=ready]").waitFor({ timeout: 30_000 });
  assert.equal(await row.locator("[data-testid=mcp-server-trust]").count(), 0, "a trusted server has nothing left to trust");
  return { dialog, notice };
}

export const tests = [
  {
    name: "at 1280x820, Not now then Settings' Trust and start… starts the server, and a notice says so with its tools",
    manualStart: true,
    timeout: 180_000,
    async fn(ctx) {
      const { page } = ctx;
      await defaultWindow(page);
      const { server } = await dismissTrust(ctx);
      const { dialog, notice } = await trustFromSettings(ctx, server);
      // The notice is in view over the window, not hidden behind the dialog.
      const box = await notice.boundingBox();
      assert.ok(box && box.y + box.height <= 820 && box.x >= 0, `the notice is in the window: ${JSON.stringify(box)}`);
      await dialog.locator('[data-testid=settings-nav-item][data-section="approvals"]').click();
      await dialog.locator('[data-testid=settings-nav-item][data-section="approvals"][aria-current=location]').waitFor();
      await page.locator("[data-testid=mcp-started] button[aria-label='Dismiss the MCP notice']").click();
      await docShot(page, "settings-sections.png");
    },
  },
  {
    name: "at 200% scaling, Not now then Settings' Trust and start… starts the server, and a notice says so",
    manualStart: true,
    timeout: 180_000,
    async fn(ctx) {
      const { page, context } = ctx;
      const { server } = await dismissTrust(ctx);
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setDeviceMetricsOverride", { width: 640, height: 410, deviceScaleFactor: 2, mobile: false });
      await page.locator(".app[data-layout=narrow]").waitFor();
      assert.deepEqual(await page.evaluate(() => [window.innerWidth, window.devicePixelRatio]), [640, 2]);
      const { notice } = await trustFromSettings(ctx, server);
      const box = await notice.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 640, `the notice fits the narrow window: ${JSON.stringify(box)}`);
    },
  },
];
