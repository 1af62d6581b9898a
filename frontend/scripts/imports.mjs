// The frontend's import graph and its two rules: no import circle, and no
// import up a layer. `make boundaries` runs imports.test.mjs (node --test),
// which checks frontend/src against the tables below.
//
// Imports are read with TypeScript's own pre-processor (ts.preProcessFile),
// which finds import, export ... from, import() and import type.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

// The areas of src, low to high: a file may import its own area and the
// areas below it. wailsjs (the generated bindings) sits outside src; the
// top-level files of src (main.tsx, App.tsx) are the app; src/test holds
// the tests' set-up.
export const areas = ["wailsjs", "lib", "state", "components", "app", "test"];

// The feature folders of components, low to high: a feature may import the
// ones before it, never one after it. (The files directly in components,
// Icon, Modal and the panels that compose features, are one area with them;
// the circle rule keeps those apart.)
export const featureOrder = [
  "review", // diffs and approvals, shown in the changes panel and the chat
  "git", // a commit with a drafted message: from the Changes view and the Branch view
  "plan", // mode, to-do list, plan card
  "mcp",
  "files",
  "changes",
  "branch", // a worktree session's branch: the review's diffs, merge, commit, discard
  "jobs", // background jobs: the panel, their virtualised output, Stop
  "chat",
  "settings",
  "inbox", // every session's waiting decisions, with the review's cards; opened from the sidebar
  "sidebar",
];

// Known imports up a layer, each with its reason (none today). An entry no
// import needs any more fails the check.
export const upwardExceptions = {};

// Known import circles, each named by all the files that are on it (a
// strongly connected part of the graph; none today). A circle
// with other files, more or fewer, fails; an entry no circle needs any
// more fails too.
export const circleExceptions = [];

const sourceFile = /\.(ts|tsx)$/;

function isTest(file) {
  return file.startsWith("test/") || file.includes("__tests__/") || /\.test\.tsx?$/.test(file);
}

// resolve turns an import of from (a path relative to src) into the path,
// relative to src, of the file it names; null when it is no file of the
// graph (a package, a style sheet, JSON).
function resolve(srcDir, from, spec) {
  if (!spec.startsWith(".")) return null;
  const bare = spec.replace(/\?.*$/, "");
  const base = path.resolve(srcDir, path.dirname(from), bare);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.d.ts`, `${base}.js`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    if (sourceFile.test(candidate) || candidate.endsWith(".js")) {
      if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) {
        return path.relative(srcDir, candidate).split(path.sep).join("/");
      }
    }
  }
  return null;
}

// readGraph returns every .ts/.tsx file of srcDir (path relative to it,
// with /) and the files of the graph it imports (../wailsjs/... for the
// bindings).
export function readGraph(srcDir) {
  const graph = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (sourceFile.test(entry.name)) {
        const file = path.relative(srcDir, full).split(path.sep).join("/");
        const info = ts.preProcessFile(fs.readFileSync(full, "utf8"), true, true);
        const targets = new Set();
        for (const imported of info.importedFiles) {
          const to = resolve(srcDir, file, imported.fileName);
          if (to !== null) targets.add(to);
        }
        graph.set(file, [...targets].sort());
      }
    }
  };
  walk(srcDir);
  return graph;
}

// circles returns the graph's import circles (its strongly connected
// components of more than one file, and files that import themselves),
// each as its sorted files (Tarjan's algorithm).
export function circles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort();
}

// place returns a file's area and, inside components, its feature folder
// ("" for the files directly in components).
export function place(file) {
  if (file.startsWith("../")) return { area: file.split("/")[1], feature: "" };
  const parts = file.split("/");
  if (parts.length === 1) return { area: "app", feature: "" };
  const feature = parts[0] === "components" && parts.length > 2 ? parts[1] : "";
  return { area: parts[0], feature };
}

// upward returns every import of the graph that goes up a layer, as
// "from -> to: why", tests left out (they may import anything).
export function upward(graph, order = { areas, featureOrder }) {
  const found = [];
  for (const [from, targets] of graph) {
    if (isTest(from)) continue;
    const a = place(from);
    for (const to of targets) {
      const b = place(to);
      const ra = order.areas.indexOf(a.area);
      const rb = order.areas.indexOf(b.area);
      if (ra < 0 || rb < 0) {
        found.push(`${from} -> ${to}: ${ra < 0 ? a.area : b.area} is no area of the areas table`);
        continue;
      }
      if (rb > ra) {
        found.push(`${from} -> ${to}: ${a.area} imports ${b.area}, an area above it`);
        continue;
      }
      if (a.area === "components" && a.feature && b.feature && a.feature !== b.feature) {
        const fa = order.featureOrder.indexOf(a.feature);
        const fb = order.featureOrder.indexOf(b.feature);
        if (fa < 0 || fb < 0) {
          found.push(`${from} -> ${to}: components/${fa < 0 ? a.feature : b.feature} is not in featureOrder`);
        } else if (fb > fa) {
          found.push(`${from} -> ${to}: the ${a.feature} feature imports the ${b.feature} feature's insides, a feature above it`);
        }
      }
    }
  }
  return found.sort();
}

// check returns what breaks the rules in graph, and the exceptions no
// longer needed, with the given tables.
export function check(graph, tables = { areas, featureOrder, upwardExceptions, circleExceptions }) {
  const broken = [];
  const stale = [];
  const usedUp = new Set();
  for (const line of upward(graph, tables)) {
    const key = line.slice(0, line.indexOf(":"));
    if (key in tables.upwardExceptions) usedUp.add(key);
    else broken.push(`import up a layer: ${line}`);
  }
  for (const key of Object.keys(tables.upwardExceptions)) {
    if (!usedUp.has(key)) stale.push(`${key} is no longer imported: remove it from upwardExceptions in frontend/scripts/imports.mjs`);
  }
  const known = tables.circleExceptions.map((c) => [...c].sort().join(" "));
  const usedCircles = new Set();
  for (const circle of circles(graph)) {
    const key = circle.join(" ");
    if (known.includes(key)) usedCircles.add(key);
    else broken.push(`import circle among: ${circle.join(", ")}`);
  }
  for (const key of known) {
    if (!usedCircles.has(key)) stale.push(`the circle ${key} is gone: remove it from circleExceptions in frontend/scripts/imports.mjs`);
  }
  return { broken, stale };
}
