// node --test: what the window parses before its first call (issue 42).
// The production build's entry chunk, and the chunks it imports
// statically, hold the shell alone: the parts the first screen does not
// show load when first opened (lib/later.ts), and bring their own styles.
// Builds with Vite in memory (a few seconds).
import assert from "node:assert/strict";
import path from "node:path";
import test from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const frontend = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

// Each a part of a module's path (below frontend/ or node_modules/).
const later = [
  "wailsjs/go/models.ts", // Wails' model classes: the first call that sends one loads them
  "src/components/settings/",
  "src/components/branch/",
  "src/components/jobs/JobsPanel.tsx",
  "src/components/plan/",
  "src/components/inbox/Inbox.tsx",
  "src/components/chat/ChatView.tsx",
  "src/components/Markdown.tsx",
  "src/lib/markdown.ts",
  "src/lib/sanitize.ts",
  "node_modules/highlight.js/",
  "node_modules/marked/",
  "node_modules/dompurify/",
  "src/components/review/ChangeReview.tsx",
  "src/components/review/DiffTable.tsx",
  "src/components/review/FetchApproval.tsx",
  "src/components/mcp/McpTrust.tsx",
  "src/components/changes/RestoreDialogs.tsx",
  "src/components/QuitDialog.tsx",
  "src/components/sidebar/WorktreeDialog.tsx",
];
const laterCss = ["plan.css", "elicitation.css"];

test("the first screen's chunks hold none of the parts loaded later", async () => {
  const out = await build({ root: frontend, configFile: path.join(frontend, "vite.config.ts"), logLevel: "silent", build: { write: false } });
  const chunks = new Map((Array.isArray(out) ? out[0] : out).output.filter((o) => o.type === "chunk").map((c) => [c.fileName, c]));
  const entry = [...chunks.values()].find((c) => c.isEntry);
  assert.ok(entry, "the build has no entry chunk");
  // The entry and what it imports statically: parsed before main.tsx runs.
  const first = new Set();
  const visit = (c) => {
    if (first.has(c)) return;
    first.add(c);
    for (const f of c.imports) visit(chunks.get(f));
  };
  visit(entry);
  const modules = [...first].flatMap((c) => Object.keys(c.modules)).map((id) => id.split(path.sep).join("/"));
  assert.ok(modules.some((m) => m.endsWith("src/main.tsx")), "main.tsx is not in the entry chunk");
  for (const part of later) {
    const found = modules.filter((m) => m.includes(part));
    assert.deepEqual(found, [], `${part} is parsed before the first call; load it with later() or import() when first shown`);
  }
  const css = [...first].flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]);
  assert.ok(css.length > 0, "the first screen has no style sheet");
  const cssModules = [...first].flatMap((c) => Object.keys(c.modules)).filter((m) => m.endsWith(".css"));
  for (const sheet of laterCss) {
    assert.deepEqual(
      cssModules.filter((m) => m.endsWith(`/${sheet}`)),
      [],
      `${sheet} is in the first screen's styles; import it from the component that uses it`,
    );
  }
});
