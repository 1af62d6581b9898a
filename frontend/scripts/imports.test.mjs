// node --test: the frontend's import rules hold for frontend/src, and each
// rule catches what it is for on a made-up graph.
import assert from "node:assert/strict";
import path from "node:path";
import test from "node:test";
import { fileURLToPath } from "node:url";
import { check, circles, readGraph } from "./imports.mjs";

const src = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "src");

test("frontend/src has no import circle and no import up a layer", () => {
  const graph = readGraph(src);
  assert.ok(graph.size > 50, `read ${graph.size} files of frontend/src; it has more`);
  assert.ok((graph.get("App.tsx") ?? []).length > 3, "App.tsx imports nothing: the reader lost the imports");
  const { broken, stale } = check(graph);
  assert.deepEqual([...broken, ...stale], []);
});

const tables = {
  areas: ["wailsjs", "lib", "state", "components", "app", "test"],
  featureOrder: ["review", "chat"],
  upwardExceptions: {},
  circleExceptions: [],
};

// A graph that keeps the rules.
const good = () =>
  new Map([
    ["main.tsx", ["App.tsx"]],
    ["App.tsx", ["components/chat/ChatView.tsx", "state/store.ts"]],
    ["components/chat/ChatView.tsx", ["components/review/DiffView.tsx", "components/Icon.tsx", "lib/format.ts"]],
    ["components/review/DiffView.tsx", ["lib/format.ts", "state/review.ts"]],
    ["components/Icon.tsx", []],
    ["state/store.ts", ["state/review.ts", "lib/format.ts"]],
    ["state/review.ts", ["lib/backend.ts"]],
    ["lib/backend.ts", ["../wailsjs/go/main/App.js"]],
    ["lib/format.ts", []],
    ["components/__tests__/chat.test.tsx", ["App.tsx"]],
  ]);

test("a graph that keeps the rules passes", () => {
  assert.deepEqual(check(good(), tables), { broken: [], stale: [] });
});

for (const c of [
  {
    name: "a circle of two files",
    edit: (g) => g.get("state/review.ts").push("state/store.ts"),
    want: "import circle among: state/review.ts, state/store.ts",
  },
  {
    name: "a longer circle",
    edit: (g) => g.get("lib/format.ts").push("components/chat/ChatView.tsx"),
    want: "import circle among: components/chat/ChatView.tsx, components/review/DiffView.tsx, lib/format.ts",
  },
  {
    name: "a file that imports itself",
    edit: (g) => g.get("lib/format.ts").push("lib/format.ts"),
    want: "import circle among: lib/format.ts",
  },
  {
    name: "state imports a component",
    edit: (g) => g.get("state/review.ts").push("components/Icon.tsx"),
    want: "import up a layer: state/review.ts -> components/Icon.tsx: state imports components, an area above it",
  },
  {
    name: "lib imports state",
    edit: (g) => g.get("lib/format.ts").push("state/review.ts"),
    want: "import up a layer: lib/format.ts -> state/review.ts: lib imports state, an area above it",
  },
  {
    name: "a feature imports a feature above it",
    edit: (g) => g.get("components/review/DiffView.tsx").push("components/chat/Markdown.tsx"),
    want: "import up a layer: components/review/DiffView.tsx -> components/chat/Markdown.tsx: the review feature imports the chat feature's insides",
  },
  {
    name: "a feature folder not in featureOrder",
    edit: (g) => g.set("components/new/New.tsx", ["components/review/DiffView.tsx"]),
    want: "import up a layer: components/new/New.tsx -> components/review/DiffView.tsx: components/new is not in featureOrder",
  },
]) {
  test(`the check fails on ${c.name}`, () => {
    const g = good();
    c.edit(g);
    const { broken } = check(g, tables);
    assert.ok(broken.some((line) => line.startsWith(c.want)), `got ${JSON.stringify(broken)}, want a line starting ${JSON.stringify(c.want)}`);
  });
}

test("an exception covers its import or circle, and fails once it is not needed", () => {
  const g = good();
  g.get("components/review/DiffView.tsx").push("components/chat/Markdown.tsx");
  g.get("state/review.ts").push("state/store.ts");
  const excepted = {
    ...tables,
    upwardExceptions: { "components/review/DiffView.tsx -> components/chat/Markdown.tsx": "being fixed" },
    circleExceptions: [["state/store.ts", "state/review.ts"]],
  };
  assert.deepEqual(check(g, excepted), { broken: [], stale: [] });
  const { broken, stale } = check(good(), excepted);
  assert.deepEqual(broken, []);
  assert.equal(stale.length, 2, JSON.stringify(stale));
});

test("a circle that grows past its exception fails", () => {
  const g = good();
  g.get("state/review.ts").push("lib/backend.ts", "state/store.ts");
  g.get("lib/backend.ts").push("state/review.ts");
  const { broken } = check(g, { ...tables, circleExceptions: [["state/store.ts", "state/review.ts"]] });
  assert.ok(circles(g).length === 1 && broken.length > 0, JSON.stringify(broken));
});
