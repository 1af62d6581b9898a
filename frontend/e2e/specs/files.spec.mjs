// The file tree: it lists the project (lazily, gitignore-aware) and marks a
// file once an approved change has written it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sel, send, startChat, waitDiff, waitTurnDone } from "./helpers.mjs";

const treePaths = (page) =>
  page.locator("[data-testid=file-tree] [data-testid=file-tree-item]").evaluateAll((els) =>
    els.map((e) => e.getAttribute("data-path")).sort(),
  );
const changedPaths = (page) =>
  page
    .locator('[data-testid=file-tree] [data-testid=file-tree-item][data-changed="true"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-path")).sort());

export const tests = [
  {
    name: "the file tree lists the project and marks the file an approved edit changed",
    manualStart: true,
    async fn(ctx) {
      const { page } = ctx;
      const files = {
        ".gitignore": "build/\n",
        "README.md": "# demo\n",
        "src/app.js": "export const version = 1;\n",
        "src/util.js": "export const id = (x) => x;\n",
        "build/out.js": "ignored\n",
      };
      const script = {
        turns: [
          { when: { lastUserContains: "bump" }, toolCalls: [{ name: "read_file", input: { path: "src/app.js" } }] },
          {
            when: { toolResultContains: "version = 1" },
            toolCalls: [{ name: "patch_file", input: { path: "src/app.js", old_text: "version = 1", new_text: "version = 2" } }],
          },
          { when: { hasToolResult: true }, text: "Bumped." },
        ],
      };
      const { project } = await startChat(ctx, script, files);

      await page.click("[data-testid=tab-files]");
      const tree = page.locator("[data-testid=file-tree]");
      await tree.waitFor({ state: "visible" });
      await tree.locator('[data-testid=file-tree-item][data-path="README.md"]').waitFor();
      const root = await treePaths(page);
      for (const p of [".gitignore", "README.md", "src"]) assert.ok(root.includes(p), `${p} listed: ${root}`);
      assert.ok(!root.includes("build"), `gitignored build/ not listed: ${root}`);
      assert.equal(await tree.locator('[data-testid=file-tree-item][data-path="src"]').getAttribute("data-dir"), "true");
      assert.ok(!root.includes("src/app.js"), "folders open lazily");

      // Expand src/.
      await tree.locator('[data-testid=file-tree-item][data-path="src"]').click();
      await tree.locator('[data-testid=file-tree-item][data-path="src/app.js"]').waitFor();
      assert.deepEqual(
        (await treePaths(page)).filter((p) => p.startsWith("src/")),
        ["src/app.js", "src/util.js"],
      );
      assert.deepEqual(await changedPaths(page), [], "nothing marked before any change");

      // An approved change writes src/app.js.
      await send(ctx, "bump the version");
      await waitDiff(ctx, "src/app.js");
      await page.click("[data-testid=diff-approve-all]");
      await page.locator(sel.assistant, { hasText: "Bumped." }).waitFor({ timeout: 30_000 });
      await waitTurnDone(ctx);
      assert.equal(readFileSync(join(project, "src/app.js"), "utf8"), "export const version = 2;\n");

      await page.click("[data-testid=tab-files]");
      const changed = tree.locator('[data-testid=file-tree-item][data-path="src/app.js"][data-changed="true"]');
      await changed.waitFor({ timeout: 30_000 });
      const marked = await changedPaths(page);
      for (const p of ["README.md", ".gitignore", "src/util.js"]) assert.ok(!marked.includes(p), `${p} is not marked: ${marked}`);
      assert.match((await changed.getAttribute("class")) ?? "", /\bchanged\b/, "styled as changed");

      // Its preview shows what is on disk now.
      await changed.click();
      const preview = page.locator("[data-testid=file-preview]");
      await preview.waitFor({ state: "visible" });
      await ctx.waitFor(async () => /version = 2/.test(await preview.innerText()), { message: "preview shows the new text" });
    },
  },
];
