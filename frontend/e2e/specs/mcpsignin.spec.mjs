// An MCP server that needs a sign-in, in the real window: a loopback
// authorization server and the protected MCP server it guards
// (backend/internal/mcptest/cmd/mcpoauth, the same servers as the Go
// tests' mcptest.OAuth). The row in Settings offers "Sign in"; the test's
// own browser (a new Chromium page on the address the window shows, with
// $BROWSER set to a program that opens nothing) goes through the
// authorization page back to Pilot. Once the server revokes the sign-in,
// the model's call fails with "Sign in" on its card, the session goes on,
// and after signing in from the card "Retry" makes the same call again:
// asked for again, it succeeds, and the model reads its result.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventually, openProject, scriptFile, sel, send, startSession, waitRequests, waitTurnDone } from "./helpers.mjs";

/** Follows the authorization page the window shows back to Pilot, in a page of the test's browser. */
async function browse(ctx, where) {
  const address = where.locator("[data-testid=mcp-signin-address]");
  await address.waitFor({ timeout: 30_000 });
  const url = (await address.innerText()).trim();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
  const tab = await ctx.context.newPage();
  try {
    await tab.goto(url, { waitUntil: "load" });
  } finally {
    await tab.close();
  }
}

export const tests = [
  {
    name: "a server needing a sign-in: Sign in on its row and on the failed call's card, then Retry",
    manualStart: true,
    timeout: 180_000,
    async fn(ctx) {
      const { page } = ctx;
      const bin = join(ctx.repoRoot, "build/bin/mcpoauth");
      execFileSync("go", ["build", "-o", bin, "./backend/internal/mcptest/cmd/mcpoauth"], { cwd: ctx.repoRoot, stdio: "inherit" });
      const oauth = await ctx.startServer(bin, [], { name: "mcpoauth" });
      const llm = await ctx.startFakeLLM(
        await scriptFile(ctx, {
          turns: [
            { when: { lastUserContains: "echo hi" }, toolCalls: [{ name: "mcp__hosted__echo", input: { text: "hi" } }], repeat: true },
            { when: { toolResultContains: "echo: hi" }, text: "The server said hi." },
            { when: { toolResultContains: "sign in" }, text: "The server wants a sign-in first." },
            { when: { lastUserContains: "still there" }, text: "Still here." },
          ],
        }),
      );
      const project = await ctx.projectDir({ "main.go": "package main\n" });
      // The user's server, and the network rule that lets Pilot reach an
      // authorization server on this machine's own address.
      mkdirSync(ctx.pilotHome, { recursive: true });
      writeFileSync(join(ctx.pilotHome, "mcp.json"), JSON.stringify({ mcpServers: { hosted: { type: "http", url: oauth.url } } }));
      execFileSync(join(ctx.repoRoot, "build/bin/pilot-dev"), ["rules", "add", "allow", "network", "127.0.0.1", "--project", project], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, PILOT_HOME: ctx.pilotHome },
      });
      await ctx.startApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project, BROWSER: "true" } });
      await openProject(ctx, project);

      // Settings: the row says the server needs a sign-in, with the button.
      await page.click("[data-testid=settings-open]");
      const row = page.locator("[data-testid=mcp-server][data-name=hosted]");
      await row.locator("[data-testid=mcp-signin-row][data-needs=true]").waitFor({ timeout: 30_000 });
      assert.match(await row.locator("[data-testid=mcp-signin-row]").innerText(), /needs a sign-in/);
      await row.locator("[data-testid=mcp-signin][data-server=hosted]").click();
      await browse(ctx, row);
      await page.locator("[data-testid=mcp-server][data-name=hosted][data-state=ready]").waitFor({ timeout: 30_000 });
      // Escape from a button of the dialog: the browser's tab had the focus.
      await row.locator("[data-testid=mcp-signout][data-server=hosted]").press("Escape");
      await page.locator("[data-testid=settings-dialog]").waitFor({ state: "detached" });

      // The server revokes the sign-in; the model's call fails and its card offers the sign-in.
      process.kill(oauth.pid, "SIGUSR1");
      await eventually(async () => assert.match(oauth.output(), /revoked/));
      await startSession(ctx);
      await send(ctx, "echo hi");
      const approval = page.locator("[data-testid=bash-approval]");
      await approval.waitFor({ state: "visible", timeout: 30_000 });
      await approval.locator("[data-testid=bash-approve]").click();
      const failed = page.locator(`${sel.toolCall}[data-tool="mcp__hosted__echo"][data-status=error]`);
      await failed.waitFor({ timeout: 30_000 });
      const cardSignIn = failed.locator("[data-testid=mcp-signin][data-server=hosted]");
      await cardSignIn.waitFor();
      await page.locator(sel.assistant, { hasText: "The server wants a sign-in first." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);

      // The session goes on meanwhile.
      await send(ctx, "still there?");
      await page.locator(sel.assistant, { hasText: "Still here." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);

      // Settings says so too, in words.
      await page.click("[data-testid=settings-open]");
      const why = row.locator("[data-testid=mcp-signin-row][data-needs=true]");
      await why.waitFor({ timeout: 30_000 });
      assert.match(await why.innerText(), /could not renew its sign-in/);
      await row.locator("[data-testid=mcp-signin][data-server=hosted]").press("Escape");
      await page.locator("[data-testid=settings-dialog]").waitFor({ state: "detached" });

      // Sign in from the card, then Retry: the same call, asked for again, succeeds.
      await cardSignIn.click();
      await browse(ctx, failed);
      const retry = failed.locator("[data-testid=mcp-retry]");
      await retry.waitFor({ timeout: 30_000 });
      await retry.click();
      await approval.waitFor({ state: "visible", timeout: 30_000 });
      assert.equal((await approval.locator("[data-testid=mcp-approval-tool]").innerText()).trim(), "echo");
      await approval.locator("[data-testid=bash-approve]").click();
      const done = page.locator(`${sel.toolCall}[data-tool="mcp__hosted__echo"][data-status=done]`);
      await done.waitFor({ timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "The server said hi." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      const out = done.locator("[data-testid=tool-output]");
      if ((await out.count()) === 0) await done.locator(".tool-head").click();
      await eventually(async () => assert.match(await out.innerText(), /echo: hi/));
      const reqs = await waitRequests(ctx, llm, 4); // the retry asks the model only with the result
      const last = reqs[reqs.length - 1].toolResults?.[0];
      assert.ok(last && /echo: hi/.test(last.content), `the retried call's result went to the model: ${JSON.stringify(last)}`);
      // No token reached the window.
      assert.doesNotMatch(await page.content(), /\b(at|rt)-[A-Z0-9]{10,}/);
    },
  },
];
