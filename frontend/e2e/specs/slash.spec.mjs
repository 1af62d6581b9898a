// Slash commands in the real window: choosing /hello in the / picker and
// typing its argument at once (no delay between keys) sends the expansion
// of "/hello Ada", not of "/hello daA", and the transcript shows the
// message as typed, its expansion folded under it, also after reopening.
// At 1280×820 and at 200% scaling (a 640×410 CSS viewport, device pixel
// ratio 2). A skill (.claude/skills/greet/SKILL.md) is in the picker too:
// choosing it sends "/greet Ada", the model is asked to use the skill and
// its skill call gets the skill's body.
import assert from "node:assert/strict";
import { join } from "node:path";
import { eventually, sel, startChat, waitRequests, waitTurnDone } from "./helpers.mjs";
import { docShot } from "./ledger-helpers.mjs";

const files = {
  ".pilot/commands/hello.md": "---\ndescription: Greet someone\nargument-hint: NAME\n---\nSay hello to $ARGUMENTS, in French.\n",
};
const expansion = "Say hello to Ada, in French.";

/** Chooses /hello with the keyboard and types Ada right away, then sends. */
async function typeHello(ctx, llm) {
  const { page } = ctx;
  await page.click(sel.input);
  await page.keyboard.type("/hel");
  const item = page.locator("[data-testid=slash-item][data-name=hello]");
  await item.waitFor({ state: "visible" });
  await page.locator('[data-testid=slash-item][data-name=hello][aria-selected="true"]').waitFor();
  await page.keyboard.press("Enter");
  await page.keyboard.type("Ada");
  await eventually(async () => assert.equal(await page.inputValue(sel.input), "/hello Ada", "the argument typed at once is in order"));
  await page.keyboard.press("Enter");
  const [req] = await waitRequests(ctx, llm, 1);
  assert.equal(req.lastUserText.trim(), expansion, "the model read the expansion of /hello Ada");
  await waitTurnDone(ctx);
}

/** The user's message shows "/hello Ada", with the expansion folded under it. */
async function showsTyped(page) {
  const row = page.locator(`${sel.user} [data-testid=user-command]`);
  await row.waitFor({ state: "visible" });
  assert.equal(await row.getAttribute("data-command"), "/hello Ada");
  assert.equal((await row.locator(":scope > .user-text").innerText()).trim(), "/hello Ada");
  const details = row.locator("[data-testid=command-expansion]");
  assert.equal(await details.evaluate((d) => d.open), false, "the expansion is folded");
  assert.equal(await details.locator(".user-text").isVisible(), false);
  await details.locator("summary").click();
  assert.equal((await details.locator(".user-text").innerText()).trim(), expansion);
}

const skillFiles = {
  ".claude/skills/greet/SKILL.md": "---\nname: greet\ndescription: Greets someone by name\n---\nGREET BODY: greet the person in French.\n",
};

export const tests = [
  {
    name: "a skill is in the / picker; choosing it sends /greet Ada, and the model's skill call gets the body",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await page.setViewportSize({ width: 1280, height: 820 });
      const script = {
        turns: [
          { when: { lastUserContains: 'Use the skill "greet"' }, toolCalls: [{ name: "skill", input: { name: "greet" } }] },
          { when: { toolResultContains: "GREET BODY" }, text: "Bonjour, Ada." },
        ],
      };
      const { llm } = await startChat(ctx, script, skillFiles);
      await page.click(sel.input);
      await page.keyboard.type("/gre");
      const item = page.locator('[data-testid=slash-item][data-name=greet][aria-selected="true"]');
      await item.waitFor({ state: "visible" });
      assert.match(await item.innerText(), /Greets someone by name · skill/);
      await page.screenshot({ path: join(ctx.artifactsDir, "skill-picker.png") });
      await docShot(page, "skill-picker.png");
      await page.keyboard.press("Enter");
      await page.keyboard.type("Ada");
      await eventually(async () => assert.equal(await page.inputValue(sel.input), "/greet Ada"));
      await page.keyboard.press("Enter");
      const reqs = await waitRequests(ctx, llm, 2);
      assert.match(reqs[0].lastUserText, /Use the skill "greet": call the skill tool with name "greet" now/);
      assert.match(reqs[0].lastUserText, /Ada/);
      assert.match(reqs[0].system, /- greet: Greets someone by name/);
      assert.doesNotMatch(reqs[0].system, /GREET BODY/, "only the name and description are in the prompt");
      assert.match(reqs[1].toolResults[0].content, /GREET BODY/);
      await waitTurnDone(ctx);
      const card = page.locator('[data-testid=tool-call][data-tool=skill]');
      await eventually(async () => assert.equal(await card.getAttribute("data-status"), "done"));
      await page.screenshot({ path: join(ctx.artifactsDir, "skill-used.png") });
    },
  },
  {
    name: "at 1280x820, /hello then Ada typed at once sends /hello Ada, shown as typed, also when reopened",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      await page.setViewportSize({ width: 1280, height: 820 });
      const { llm, sessionId } = await startChat(ctx, { turns: [{ text: "Bonjour, Ada." }] }, files);
      await typeHello(ctx, llm);
      await showsTyped(page);
      await page.reload({ waitUntil: "load" });
      await page.locator(`[data-testid=session-item][data-session-id="${sessionId}"] button.list-button`).click();
      await showsTyped(page);
    },
  },
  {
    name: "at 200% scaling, /hello then Ada typed at once sends /hello Ada, shown as typed",
    manualStart: true,
    async fn(ctx) {
      const { page, context } = ctx;
      const { llm } = await startChat(ctx, { turns: [{ text: "Bonjour, Ada." }] }, files);
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setDeviceMetricsOverride", { width: 640, height: 410, deviceScaleFactor: 2, mobile: false });
      await page.locator(".app[data-layout=narrow]").waitFor();
      assert.deepEqual(await page.evaluate(() => [window.innerWidth, window.devicePixelRatio]), [640, 2]);
      await typeHello(ctx, llm);
      await showsTyped(page);
    },
  },
];
