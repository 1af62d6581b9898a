// MCP in the real window with a real third-party server
// (@modelcontextprotocol/server-everything from npm, installed once into a
// cache folder): the trust prompt, the server in Settings, an approved tool
// call and its result in the transcript.
import assert from "node:assert/strict";
import { everythingServer, eventually, openProject, scriptFile, sel, send, startSession, waitRequests, waitTurnDone } from "./helpers.mjs";

export const tests = [
  {
    name: "a project's server is trusted, shown in Settings, and its tool approved and called",
    manualStart: true,
    timeout: 180_000,
    async fn(ctx) {
      const { page } = ctx;
      const server = everythingServer();
      const llm = await ctx.startFakeLLM(
        await scriptFile(ctx, {
          turns: [
            { when: { lastUserContains: "add two and three" }, toolCalls: [{ name: "mcp__everything__get-sum", input: { a: 2, b: 3 } }] },
            { when: { lastUserContains: "tiny image" }, toolCalls: [{ name: "mcp__everything__get-tiny-image", input: {} }] },
            { when: { toolResultContains: "attached]" }, text: "That is the tiny image." },
            { when: { hasToolResult: true }, text: "The sum is five." },
          ],
        }),
      );
      const project = await ctx.projectDir({ ".mcp.json": JSON.stringify({ mcpServers: { everything: { command: server } } }) });
      await ctx.startApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project } });

      // Nothing runs before the user trusts the file; the prompt shows the exact command.
      const trust = page.locator("[data-testid=mcp-trust]");
      await trust.waitFor({ state: "visible", timeout: 30_000 });
      assert.match(await trust.innerText(), new RegExp(server.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
      await page.click("[data-testid=mcp-trust-accept]");
      await trust.waitFor({ state: "detached" });

      await openProject(ctx, project);
      await page.click("[data-testid=settings-open]");
      const item = page.locator("[data-testid=mcp-server][data-name=everything]");
      await page.locator("[data-testid=mcp-server][data-name=everything][data-state=ready]").waitFor({ timeout: 60_000 });
      assert.match(await item.innerText(), /tools/);
      await page.keyboard.press("Escape");
      await page.locator("[data-testid=settings-dialog]").waitFor({ state: "detached" });

      await startSession(ctx);
      await send(ctx, "add two and three");
      const approval = page.locator("[data-testid=bash-approval]");
      await approval.waitFor({ state: "visible", timeout: 30_000 });
      assert.equal((await approval.locator("[data-testid=mcp-approval-server]").innerText()).trim(), "everything");
      assert.equal((await approval.locator("[data-testid=mcp-approval-tool]").innerText()).trim(), "get-sum");
      assert.match(await approval.locator("[data-testid=mcp-approval-arguments]").innerText(), /"a": 2/);
      // The card says what the tool does, in the server's words.
      assert.match(await approval.locator("[data-testid=mcp-approval-description]").innerText(), /sum/i);
      assert.equal(await page.locator(".layout-toggle").count(), 0, "no diff-layout switch over an MCP call");
      await approval.locator("[data-testid=bash-approve]").click();

      const card = page.locator(`${sel.toolCall}[data-tool="mcp__everything__get-sum"][data-status=done]`);
      await card.waitFor({ timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "The sum is five." }).waitFor();
      await waitTurnDone(ctx);
      const reqs = await waitRequests(ctx, llm, 2);
      const result = reqs[1].toolResults?.[0];
      assert.ok(result && /5/.test(result.content), `the server's answer went back to the model: ${JSON.stringify(result)}`);
      const out = card.locator("[data-testid=tool-output]");
      if ((await out.count()) === 0) await card.locator(".tool-head").click();
      await eventually(async () => assert.match(await out.innerText(), /5/));

      // An image the tool returns goes to the model as an image and shows on its card.
      await send(ctx, "show the tiny image");
      await approval.waitFor({ state: "visible", timeout: 30_000 });
      assert.equal((await approval.locator("[data-testid=mcp-approval-tool]").innerText()).trim(), "get-tiny-image");
      await approval.locator("[data-testid=bash-approve]").click();
      const imageCard = page.locator(`${sel.toolCall}[data-tool="mcp__everything__get-tiny-image"][data-status=done]`);
      await imageCard.waitFor({ timeout: 30_000 });
      await page.locator(sel.assistant, { hasText: "That is the tiny image." }).waitFor();
      await waitTurnDone(ctx);
      const imageReq = (await waitRequests(ctx, llm, 4))[3];
      const imageResult = imageReq.toolResults?.[0];
      assert.equal(imageResult?.images?.[0]?.mediaType, "image/png", `the image went to the model: ${JSON.stringify(imageResult)}`);
      if ((await imageCard.locator("[data-testid=tool-output]").count()) === 0) await imageCard.locator(".tool-head").click();
      const shown = imageCard.locator("[data-testid=image-attachment]");
      await shown.waitFor({ timeout: 10_000 });
      // The image is fetched by its hash once the card shows it.
      await eventually(async () => assert.match((await shown.getAttribute("src")) ?? "", /^data:image\/png;base64,/));
    },
  },
  {
    name: "a custom command is picked with / and expanded by the backend",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const llm = await ctx.startFakeLLM(
        await scriptFile(ctx, { turns: [{ when: { lastUserContains: "Review main.go for races" }, text: "Reviewed it." }] }),
      );
      const project = await ctx.projectDir({
        "main.go": "package main\n",
        ".pilot/commands/review.md": "---\ndescription: Review a file\nargument-hint: FILE FOCUS\n---\nReview $1 for $2.\n",
      });
      await ctx.startApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project } });
      await openProject(ctx, project);
      await startSession(ctx);
      await page.fill(sel.input, "/");
      await page.locator("[data-testid=slash-picker]").waitFor();
      await page.locator("[data-testid=slash-item][data-name=review]").waitFor();
      const names = await page.locator("[data-testid=slash-item]").evaluateAll((els) => els.map((e) => e.getAttribute("data-name")));
      assert.equal(names[0], "review", `the project's own commands first: ${names}`);
      assert.ok(names.includes("compact") && names.includes("new"), `the built-in commands follow: ${names}`);
      await page.fill(sel.input, "/rev");
      await page.locator("[data-testid=slash-item][data-name=review]").waitFor();
      await page.press(sel.input, "Enter");
      await eventually(async () => assert.equal(await page.inputValue(sel.input), "/review "));
      await page.type(sel.input, "main.go races");
      await page.press(sel.input, "Enter");
      await page.locator(sel.assistant, { hasText: "Reviewed it." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      const reqs = await waitRequests(ctx, llm, 1);
      assert.match(reqs[0].lastUserText, /^Review main\.go for races\.$/m);
    },
  },
];
