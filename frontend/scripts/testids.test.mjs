// node --test: the test ids of docs/CLI.md are the ones frontend/src
// carries, both ways. The ids are read with TypeScript's parser: every
// string and template in the value of a data-testid, testId or aliases
// (ConfirmDialog's second names) attribute,
// and, where data-testid takes a parameter of its function, the strings
// the file passes for that parameter. A template (`view-${v}`) stands for
// the ids it can make: the document lists them, and each must fit one.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import test from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(here, "..", "src");
const docPath = path.join(here, "..", "..", "docs", "CLI.md");

const idAttributes = new Set(["data-testid", "testId", "hintTestId", "aliases"]);

// idsOf returns the literal ids and the templates (as regular expressions)
// of one file's text.
export function idsOf(fileName, text) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const literals = new Set();
  const templates = [];
  const collect = (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) literals.add(node.text);
    else if (ts.isTemplateExpression(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
      templates.push({ text: node.getText(sf), re: new RegExp(`^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[A-Za-z0-9-]+")}$`) });
      return;
    }
    ts.forEachChild(node, collect);
  };
  const params = []; // [function name, parameter index]
  const visit = (node) => {
    if (ts.isJsxAttribute(node) && idAttributes.has(node.name.getText(sf)) && node.initializer) {
      const init = node.initializer;
      const expr = ts.isJsxExpression(init) ? init.expression : init;
      if (expr && ts.isIdentifier(expr)) {
        // A parameter of the function around it: the callers give the id.
        for (let p = node.parent; p; p = p.parent) {
          if ((ts.isArrowFunction(p) || ts.isFunctionExpression(p) || ts.isFunctionDeclaration(p)) && p.parameters) {
            const i = p.parameters.findIndex((q) => q.name.getText(sf) === expr.text);
            const owner = ts.isFunctionDeclaration(p) ? p.name : ts.isVariableDeclaration(p.parent) ? p.parent.name : null;
            if (i >= 0 && owner) params.push([owner.getText(sf), i]);
            if (i >= 0) break;
          }
        }
      } else if (expr) collect(expr);
    } else if (ts.isPropertyAssignment(node) && idAttributes.has(node.name.getText(sf))) {
      // An id handed over in an object ({ testId: "bash-approve", ... }).
      collect(node.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const calls = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      for (const [name, i] of params) {
        const arg = node.arguments[i];
        if (node.expression.text === name && arg && ts.isStringLiteral(arg)) literals.add(arg.text);
      }
    }
    ts.forEachChild(node, calls);
  };
  if (params.length) calls(sf);
  return { literals, templates };
}

function sourceIds() {
  const literals = new Set();
  const templates = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "__tests__" && e.name !== "test") walk(full);
      } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
        const ids = idsOf(full, fs.readFileSync(full, "utf8"));
        ids.literals.forEach((id) => literals.add(id));
        templates.push(...ids.templates);
      }
    }
  };
  walk(src);
  return { literals, templates };
}

// docIds returns the ids of the first column of the test id table.
export function docIds(doc) {
  const start = doc.indexOf("\n## Test ids");
  assert.ok(start >= 0, "docs/CLI.md has no section ## Test ids");
  const end = doc.indexOf("\n## ", start + 1);
  const ids = new Set();
  for (const line of doc.slice(start, end < 0 ? undefined : end).split("\n")) {
    if (!line.startsWith("| `")) continue;
    const first = line.split("|")[1];
    for (const m of first.matchAll(/`([A-Za-z0-9-]+)`/g)) ids.add(m[1]);
  }
  return ids;
}

// compare returns what one side has and the other lacks.
export function compare(doc, code) {
  const problems = [];
  for (const id of [...code.literals].sort()) if (!doc.has(id)) problems.push(`the test id ${id} is in frontend/src but not in docs/CLI.md`);
  for (const t of code.templates) {
    if (![...doc].some((id) => t.re.test(id))) problems.push(`no test id of docs/CLI.md is made by ${t.text} in frontend/src`);
  }
  for (const id of [...doc].sort()) {
    if (!code.literals.has(id) && !code.templates.some((t) => t.re.test(id))) problems.push(`the test id ${id} is in docs/CLI.md but not in frontend/src`);
  }
  return problems;
}

test("docs/CLI.md lists the test ids frontend/src carries, and no other", () => {
  const code = sourceIds();
  assert.ok(code.literals.size > 100, `read ${code.literals.size} test ids from frontend/src; it has more`);
  assert.deepEqual(compare(docIds(fs.readFileSync(docPath, "utf8")), code), []);
});

test("the comparison catches an id on either side alone", () => {
  const code = idsOf(
    "x.tsx",
    `function Tab(testId: string) { return <b data-testid={testId} />; }
     export const A = () => <div data-testid="chat-input" testId={on ? "quit-now" : undefined}>{Tab("tab-files")}<i data-testid={\`view-\${v}\`} /><Buttons yes={{ testId: "bash-approve", label: "Run" }} /></div>;`,
  );
  assert.deepEqual([...code.literals].sort(), ["bash-approve", "chat-input", "quit-now", "tab-files"]);
  const doc = docIds("\n## Test ids\n| id | what |\n|---|---|\n| `chat-input`, `quit-now` | x |\n| `tab-files`, `view-chat`, `bash-approve` | y |\n");
  assert.deepEqual(compare(doc, code), []);
  doc.delete("quit-now");
  doc.add("chat-send");
  assert.deepEqual(compare(doc, code), [
    "the test id quit-now is in frontend/src but not in docs/CLI.md",
    "the test id chat-send is in docs/CLI.md but not in frontend/src",
  ]);
  doc.delete("view-chat");
  assert.ok(compare(doc, code).includes("no test id of docs/CLI.md is made by `view-${v}` in frontend/src"));
});
