// The inbox across sessions, in the real window: three sessions of one
// project (two in their own worktrees) each wait on something different (a
// change, a command, a web page) with the scripted fake model; the inbox
// lists all three oldest first with their names and the agent's words;
// deciding with keys alone resumes each session as decided, and each
// session's card says the same. At 1280x820 and at 200% scaling (640x410
// CSS px). A session waiting on its plan is there too, decided with the
// card or the inbox as one. With PILOT_E2E_SCREENSHOTS=docs it saves the
// README's picture.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { docShot } from "./ledger-helpers.mjs";
import { eventually, openProject, scriptFile, sel, send, startChat, startSession, waitState, waitTurnDone } from "./helpers.mjs";

const script = {
  turns: [
    { when: { lastUserContains: "alpha" }, text: "Alpha writes loud.txt.", toolCalls: [{ name: "write_file", input: { path: "loud.txt", content: "LOUD\n" } }] },
    { when: { lastUserContains: "beta" }, text: "Beta lists the tree.", toolCalls: [{ name: "run_bash", input: { command: "echo beta-ran" } }] },
    { when: { lastUserContains: "gamma" }, text: "Gamma reads the page.", toolCalls: [{ name: "web_fetch", input: { url: "https://example.com/", prompt: "the title" } }] },
    { when: { toolResultContains: "loud.txt" }, text: "Alpha is done." },
    { when: { toolResultContains: "beta-ran" }, text: "Beta is done." },
    { when: { hasToolResult: true }, text: "Gamma stopped." },
  ],
};

function git(dir, ...args) {
  return execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.org", ...args], { cwd: dir, encoding: "utf8" });
}

/** Starts a session (in a new worktree when `worktree` names one), sends `text` and waits until it waits for the user; its id. */
async function waitingSession(ctx, text, worktree) {
  const { page } = ctx;
  let id;
  if (worktree) {
    const before = await page.locator("[data-testid=session-item]").count();
    await page.click("[data-testid=session-new-worktree]");
    await page.fill("[data-testid=worktree-name]", worktree);
    await page.click("[data-testid=worktree-create]");
    await eventually(async () => assert.equal(await page.locator("[data-testid=session-item]").count(), before + 1));
    const active = page.locator('[data-testid=session-item]:has(button[aria-current="true"])');
    await eventually(async () => assert.equal(await active.getAttribute("data-branch"), `pilot/${worktree}`));
    id = Number(await active.getAttribute("data-session-id"));
  } else {
    id = await startSession(ctx);
  }
  await send(ctx, text);
  await waitState(ctx, "awaiting_approval");
  return id;
}

/** The three sessions, made in a 1280x820 window. */
async function threeWaiting(ctx) {
  const { page } = ctx;
  const llm = await ctx.startFakeLLM(await scriptFile(ctx, script));
  const project = await ctx.projectDir({ "notes.txt": "notes\n" });
  git(project, "init", "-q");
  git(project, "add", "-A");
  git(project, "commit", "-q", "-m", "start");
  await ctx.startApp({ env: { ...llm.env, PILOT_PROVIDER: "anthropic", PILOT_PROJECT: project } });
  await page.setViewportSize({ width: 1280, height: 820 });
  await openProject(ctx, project);
  const alpha = await waitingSession(ctx, "alpha: write loud.txt");
  const beta = await waitingSession(ctx, "beta: list the tree", "beta");
  const gamma = await waitingSession(ctx, "gamma: read the page", "gamma");
  return { project, alpha, beta, gamma };
}

async function decideWithKeys(ctx, { narrow }) {
  const { page } = ctx;
  const { project, alpha, beta, gamma } = await threeWaiting(ctx);
  if (narrow) {
    // 200% scaling of the 1280x820 window.
    const cdp = await ctx.context.newCDPSession(page);
    await cdp.send("Emulation.setDeviceMetricsOverride", { width: 640, height: 410, deviceScaleFactor: 2, mobile: false });
    await page.locator(".app[data-layout=narrow]").waitFor();
    assert.deepEqual(await page.evaluate(() => [window.innerWidth, window.devicePixelRatio]), [640, 2]);
  }
  const opener = page.locator("[data-testid=inbox-open]");
  await eventually(async () => assert.equal(await opener.getAttribute("data-count"), "3"));
  assert.equal(await page.title(), "(3) Pilot");
  await opener.click();
  const inbox = page.locator("[data-testid=inbox]");
  await inbox.waitFor({ state: "visible" });
  const items = inbox.locator("[data-testid=inbox-item]");
  await eventually(async () => assert.equal(await items.count(), 3));
  assert.deepEqual(await items.evaluateAll((els) => els.map((e) => [Number(e.getAttribute("data-session-id")), e.getAttribute("data-kind")])), [
    [alpha, "change"],
    [beta, "command"],
    [gamma, "fetch"],
  ]);
  const texts = await items.allInnerTexts();
  for (const [i, [name, reason]] of [
    ["alpha: write loud.txt", "Alpha writes loud.txt."],
    ["beta: list the tree", "Beta lists the tree."],
    ["gamma: read the page", "Gamma reads the page."],
  ].entries()) {
    assert.ok(texts[i].includes(name) && texts[i].includes(reason), `item ${i + 1} names its session and the agent's words: ${texts[i]}`);
  }
  assert.ok(texts[1].includes("pilot/beta") && texts[2].includes("pilot/gamma"), "the worktree sessions' branches are named");

  // The change first: its card takes the keys; its one hunk approved sends it.
  await inbox.locator(`${sel.review}[data-phase=deciding]`).waitFor({ state: "visible" });
  if (!narrow) await docShot(page, "inbox.png");
  await eventually(async () => assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-testid")), "change-review"));
  await page.keyboard.press("y");
  // Then the command, approved; then the page, refused: keys alone, each moving to the next.
  await eventually(async () => assert.equal(await items.count(), 2));
  await eventually(async () => assert.equal(await inbox.locator("[data-testid=inbox-item][aria-current=true]").getAttribute("data-kind"), "command"));
  await page.keyboard.press("y");
  await eventually(async () => assert.equal(await items.count(), 1));
  await eventually(async () => assert.equal(await inbox.locator("[data-testid=inbox-item][aria-current=true]").getAttribute("data-kind"), "fetch"));
  await page.keyboard.press("n");
  await eventually(async () => assert.equal(await items.count(), 0));
  await eventually(async () => assert.equal(await opener.getAttribute("data-count"), "0"));
  assert.equal(await page.title(), "Pilot");
  await page.keyboard.press("Escape");
  await inbox.waitFor({ state: "detached" });
  await eventually(() => assert.equal(readFileSync(join(project, "loud.txt"), "utf8"), "LOUD\n"), { timeout: 30_000 });

  // Each session resumed as decided, and its card says the same.
  for (const [id, tool, status, last] of [
    [alpha, "write_file", "done", "Alpha is done."],
    [beta, "run_bash", "done", "Beta is done."],
    [gamma, "web_fetch", "rejected", "Gamma stopped."],
  ]) {
    if (narrow) await page.click("[data-testid=sidebar-toggle]");
    await page.locator(`[data-testid=session-item][data-session-id="${id}"] button`).first().click();
    if (narrow && (await page.locator("[data-testid=view-chat]").count())) await page.click("[data-testid=view-chat]");
    await page.locator(sel.assistant, { hasText: last }).waitFor({ timeout: 30_000 });
    const card = page.locator(`${sel.toolCall}[data-tool=${tool}]`);
    await eventually(async () => assert.equal(await card.getAttribute("data-status"), status));
    if (status === "rejected") assert.equal(await card.getAttribute("data-refused-by"), "user");
  }
  assert.ok(!existsSync(join(project, "beta-ran")), "nothing else was written");
}

const planScript = {
  turns: [
    { when: { lastUserContains: "delta" }, toolCalls: [{ name: "present_plan", input: { plan: "First plan: mark the notes final.", steps: ["Patch notes.txt"] } }] },
    { when: { lastUserContains: "Say when" }, toolCalls: [{ name: "present_plan", input: { plan: "Second plan: mark them final, dated.", steps: ["Patch notes.txt"] } }] },
    { when: { lastUserContains: "Keep it short" }, toolCalls: [{ name: "present_plan", input: { plan: "Third plan: mark them final.", steps: ["Patch notes.txt"] } }] },
    { when: { lastUserContains: "I approve this plan" }, toolCalls: [{ name: "patch_file", input: { path: "notes.txt", old_text: "notes", new_text: "final notes" } }] },
    { when: { hasToolResult: true }, text: "Delta is done." },
  ],
};

/**
 * A session waiting on its plan is in the inbox, and its card and the
 * inbox decide it as one: planning goes on from the card (the inbox
 * follows), then from the inbox with n and what should change, then y
 * approves it there and the work it starts is reviewed there too.
 */
async function planInInbox(ctx) {
  const { page } = ctx;
  const { project } = await startChat(ctx, planScript, { "notes.txt": "notes\n" });
  await page.setViewportSize({ width: 1280, height: 820 });
  await page.locator("[data-testid=mode-select]").selectOption("plan");
  await eventually(async () => assert.equal(await page.locator("[data-testid=mode-select]").getAttribute("data-mode"), "plan"));
  await send(ctx, "delta: plan the notes");
  const cards = page.locator("[data-testid=plan-card]");
  await cards.first().waitFor({ timeout: 30_000 });
  await waitTurnDone(ctx);

  const opener = page.locator("[data-testid=inbox-open]");
  const inbox = page.locator("[data-testid=inbox]");
  const items = inbox.locator("[data-testid=inbox-item]");
  await eventually(async () => assert.equal(await opener.getAttribute("data-count"), "1"));
  await opener.click();
  await eventually(async () => assert.equal(await items.count(), 1));
  assert.equal(await items.first().getAttribute("data-kind"), "plan");
  const first = await items.first().getAttribute("data-approval-id");
  const text = await items.first().innerText();
  assert.ok(text.includes("delta: plan the notes") && text.includes("First plan: mark the notes final."), `the plan's item names its session and the plan: ${text}`);
  await page.keyboard.press("Escape");
  await inbox.waitFor({ state: "detached" });

  // Answered on its card: the inbox follows, and holds the next plan.
  await cards.first().locator("[data-testid=plan-feedback]").fill("Say when they became final");
  await cards.first().locator("[data-testid=plan-keep]").click();
  await eventually(async () => assert.equal(await cards.count(), 2), { timeout: 30_000 });
  await waitTurnDone(ctx);
  await eventually(async () => assert.equal(await opener.getAttribute("data-count"), "1"));
  await opener.click();
  await eventually(async () => {
    assert.equal(await items.count(), 1);
    assert.notEqual(await items.first().getAttribute("data-approval-id"), first);
  });
  assert.ok((await items.first().innerText()).includes("Second plan"));

  // Refused in the inbox with keys alone: n goes to what should change, Tab and Enter send it.
  await page.keyboard.press("n");
  await eventually(async () => assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-testid")), "plan-feedback"));
  await page.keyboard.type("Keep it short");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await eventually(async () => assert.equal(await cards.count(), 3), { timeout: 30_000 });
  assert.equal(await cards.nth(1).getAttribute("data-state"), "answered", "the card says what the inbox decided");
  await eventually(async () => assert.ok((await items.first().innerText()).includes("Third plan")), { timeout: 30_000 });

  // Approved in the inbox with y: the work turn runs, and its change waits here next.
  await inbox.locator("[data-testid=inbox-item][aria-current=true][data-kind=plan]").waitFor();
  await inbox.locator(".inbox").focus();
  await page.keyboard.press("y");
  await eventually(async () => assert.equal(await inbox.locator("[data-testid=inbox-item][aria-current=true]").getAttribute("data-kind"), "change"), { timeout: 30_000 });
  assert.equal(await cards.nth(2).getAttribute("data-state"), "answered");
  assert.equal(await page.locator("[data-testid=mode-select]").getAttribute("data-mode"), "ask", "approved into the card's first mode");
  await eventually(async () => assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-testid")), "change-review"));
  await page.keyboard.press("y");
  await eventually(() => assert.equal(readFileSync(join(project, "notes.txt"), "utf8"), "final notes\n"), { timeout: 30_000 });
  await eventually(async () => assert.equal(await opener.getAttribute("data-count"), "0"));
}

export const tests = [
  {
    name: "three sessions wait on a change, a command and a page; the inbox lists them in order and keys alone decide them (1280x820)",
    manualStart: true,
    timeout: 240_000,
    fn: (ctx) => decideWithKeys(ctx, { narrow: false }),
  },
  {
    name: "the same at 200% scaling (640x410 CSS px)",
    manualStart: true,
    timeout: 240_000,
    fn: (ctx) => decideWithKeys(ctx, { narrow: true }),
  },
  {
    name: "a session waiting on its plan is in the inbox; its card and the inbox decide it as one, with keys alone in the inbox",
    manualStart: true,
    timeout: 240_000,
    fn: planInInbox,
  },
];
