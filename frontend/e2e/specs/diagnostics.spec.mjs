// The agent checks its own work (issue 27): after an approved change the
// real gopls's errors show on the card ("2 errors after this change",
// expandable to the list), the file tree marks the file, a fix takes both
// away, and Settings › Languages shows gopls running. Needs gopls on PATH
// (make deps puts it there); without it the spec is skipped, under CI it
// fails. With PILOT_E2E_SCREENSHOTS=docs it saves the README's picture.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { approveChange, docShot } from "./ledger-helpers.mjs";
import { eventually, sel, send, startChat, waitTurnDone } from "./helpers.mjs";

function hasGopls() {
  try {
    execFileSync("gopls", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const broken = "package main\n\n// total adds the parts up.\nfunc total() int {\n\treturn frob() + nope()\n}\n";
const fixed = "package main\n\n// total adds the parts up.\nfunc total() int {\n\treturn 1 + 2\n}\n";

export const tests = [
  {
    name: "an approved change's errors from gopls show on its card and in the file tree; a fix clears them; Settings › Languages lists gopls",
    manualStart: true,
    async fn(ctx) {
      if (!hasGopls()) {
        if (process.env.CI === "true") throw new Error("gopls is not on PATH; make deps installs it");
        ctx.log("skipped: gopls is not on PATH (make deps installs it)");
        return;
      }
      const { page } = ctx;
      const script = {
        turns: [
          { when: { lastUserContains: "add total" }, toolCalls: [{ name: "write_file", input: { path: "calc.go", content: broken } }] },
          { when: { toolResultContains: "undefined: frob" }, text: "total calls two functions that do not exist; say fix and I will." },
          { when: { lastUserContains: "fix" }, toolCalls: [{ name: "write_file", input: { path: "calc.go", content: fixed } }] },
          { when: { hasToolResult: true }, text: "Fixed." },
        ],
      };
      const goEnv = (name) => execFileSync("go", ["env", name], { encoding: "utf8" }).trim();
      await startChat(
        ctx,
        script,
        { "go.mod": "module example.com/calc\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() { _ = total() }\n" },
        // A cold gopls on a loaded machine may take longer than the default wait.
        { env: { PILOT_LSP_WAIT: "60", GOCACHE: goEnv("GOCACHE"), GOMODCACHE: goEnv("GOMODCACHE") } },
      );

      await send(ctx, "add total");
      await approveChange(ctx, "calc.go");
      await waitTurnDone(ctx, 90_000);
      const card = page.locator(`${sel.toolCall}[data-tool=write_file]`).first();
      const summary = card.locator("[data-testid=diagnostics-summary]");
      await summary.waitFor();
      assert.equal(await summary.getAttribute("data-errors"), "2");
      assert.equal(await summary.getAttribute("data-warnings"), "0");
      assert.match(await summary.innerText(), /2 errors after this change/);
      await summary.click();
      const items = card.locator("[data-testid=diagnostics-list] [data-testid=diagnostic]");
      await items.first().waitFor();
      const texts = await items.allInnerTexts();
      assert.equal(texts.length, 2, texts.join("\n"));
      assert.match(texts[0], /^calc\.go:5:9 error undefined: frob/);
      assert.match(texts[1], /^calc\.go:5:18 error undefined: nope/);

      await page.click("[data-testid=tab-files]");
      const file = page.locator('[data-testid=file-tree] [data-testid=file-tree-item][data-path="calc.go"]');
      await eventually(async () => assert.equal(await file.getAttribute("data-errors"), "2"));
      assert.equal(await file.locator(".tree-errors").innerText(), "2");
      await docShot(page, "diagnostics-card.png");

      await send(ctx, "fix it");
      await approveChange(ctx, "calc.go");
      await waitTurnDone(ctx, 90_000);
      const second = page.locator(`${sel.toolCall}[data-tool=write_file]`).nth(1).locator("[data-testid=diagnostics-summary]");
      await second.waitFor();
      assert.equal(await second.getAttribute("data-errors"), "0");
      assert.match(await second.innerText(), /No errors after this change/);
      await page.click("[data-testid=tab-files]"); // the review took the panel
      await eventually(async () => assert.equal(await file.getAttribute("data-errors"), null));
      assert.equal(await file.locator(".tree-errors").count(), 0);

      await page.click("[data-testid=settings-open]");
      await page.click('[data-testid=settings-nav-item][data-section="languages"]');
      const section = page.locator('[data-testid=settings-section][data-section="languages"]');
      const gopls = section.locator('[data-testid=language-server][data-name="gopls"]');
      await gopls.waitFor();
      assert.equal(await gopls.getAttribute("data-state"), "running");
      assert.match(await gopls.innerText(), /gopls/);
      assert.ok((await section.locator("[data-testid=language-server]").count()) >= 5, "every built-in server is listed");
      await section.scrollIntoViewIfNeeded();
      await docShot(page, "languages-settings.png");
    },
  },
];
