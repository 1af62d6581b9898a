// An MCP server's request for input (elicitation) in the real window, with
// a real third-party server (@modelcontextprotocol/server-everything, its
// trigger-elicitation-request tool: a form of every field kind, with
// defaults; it echoes the answer as its result). The form shows on the
// call's card with the server's name; filled and sent, the answer reaches
// the model through the tool's result; a second form declined says so to
// the server, and both answers stay on their cards.
import assert from "node:assert/strict";
import { everythingServer, openProject, scriptFile, sel, send, startSession, waitRequests, waitTurnDone } from "./helpers.mjs";

const tool = "mcp__everything__trigger-elicitation-request";

export const tests = [
  {
    name: "a server's form on its call's card: filled and sent, then declined",
    manualStart: true,
    timeout: 180_000,
    async fn(ctx) {
      const { page } = ctx;
      const server = everythingServer();
      const llm = await ctx.startFakeLLM(
        await scriptFile(ctx, {
          turns: [
            { when: { toolResultContains: "User provided the requested information" }, text: "Thanks, Ada." },
            { when: { toolResultContains: "User declined" }, text: "Understood, no details." },
            { when: { lastUserContains: "ask me" }, toolCalls: [{ name: tool, input: {} }], repeat: true },
          ],
        }),
      );
      const project = await ctx.projectDir({ ".mcp.json": JSON.stringify({ mcpServers: { everything: { command: server } } }) });
      await ctx.startApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project } });
      const trust = page.locator("[data-testid=mcp-trust]");
      await trust.waitFor({ state: "visible", timeout: 30_000 });
      await page.click("[data-testid=mcp-trust-accept]");
      await trust.waitFor({ state: "detached" });
      await openProject(ctx, project);
      await page.click("[data-testid=settings-open]");
      await page.locator("[data-testid=mcp-server][data-name=everything][data-state=ready]").waitFor({ timeout: 60_000 });
      await page.keyboard.press("Escape");
      await page.locator("[data-testid=settings-dialog]").waitFor({ state: "detached" });
      await startSession(ctx);

      const answer = async (prompt, act) => {
        await send(ctx, prompt);
        const approval = page.locator("[data-testid=bash-approval]");
        await approval.waitFor({ state: "visible", timeout: 30_000 });
        await approval.locator("[data-testid=bash-approve]").click();
        const card = page.locator(`${sel.toolCall}[data-tool="${tool}"]`).last();
        const form = card.locator("[data-testid=elicitation-form]");
        await form.waitFor({ timeout: 30_000 });
        assert.equal((await form.locator("[data-testid=elicitation-server]").innerText()).trim(), "everything");
        assert.equal((await form.locator("[data-testid=elicitation-message]").innerText()).trim(), "Please provide inputs for the following fields:");
        await act(form);
        await form.waitFor({ state: "detached", timeout: 30_000 });
        return card;
      };

      // Sent: the required name filled in, every other field at its default.
      const sent = await answer("ask me who I am", async (form) => {
        const field = form.locator("[data-testid=elicitation-field][data-name=integer] input");
        assert.equal(await field.inputValue(), "42", "a field starts at the server's default");
        await form.locator("[data-testid=elicitation-submit]").click();
        await form.locator("[data-testid=elicitation-problem]", { hasText: "required" }).waitFor();
        await form.locator("[data-testid=elicitation-field][data-name=name] input").fill("Ada Lovelace");
        await form.locator("[data-testid=elicitation-submit]").click();
      });
      await page.locator(sel.assistant, { hasText: "Thanks, Ada." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      let reqs = await waitRequests(ctx, llm, 2);
      const accepted = reqs[1].toolResults?.[0]?.content ?? "";
      assert.match(accepted, /- Name: Ada Lovelace/, `the answer went back to the model: ${accepted}`);
      assert.match(accepted, /- Favorite Integer: 42/);
      await sent.locator("[data-testid=elicitation-record][data-action=accept]").waitFor();

      // Declined: the server is told, and so is the model through its result.
      const declined = await answer("ask me again", async (form) => {
        await form.locator("[data-testid=elicitation-decline]").click();
      });
      await page.locator(sel.assistant, { hasText: "Understood, no details." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      reqs = await waitRequests(ctx, llm, 4);
      assert.match(reqs[3].toolResults?.[0]?.content ?? "", /User declined/);
      await declined.locator("[data-testid=elicitation-record][data-action=decline]").waitFor();
    },
  },
];
