// Data of the work at scale, shared by specs/scale.spec.mjs (correctness)
// and bench-scale.mjs (timings): a 2,000-message session, a 20,000-line
// file with a 200-hunk change, and a long Markdown answer.
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { run } from "./env.mjs";

/**
 * Imports the 2,000-message session of the memory benchmark
 * (.ci/bench-memory-data.mjs) and a short one into home for project, with
 * the given binary. Returns their titles.
 */
export async function importLongSession({ repoRoot, binary, home, project, tmp, messages = 2000 }) {
  const dir = mkdtempSync(join(tmp, "sessions-"));
  try {
    await run(process.execPath, [join(repoRoot, ".ci/bench-memory-data.mjs"), dir, String(messages), "1", "1"]);
    const env = { ...process.env, PILOT_HOME: home };
    for (const f of ["long.json", "short.json"]) await run(binary, ["sessions", "import", join(dir, f), "--project", project], { env });
    const title = (f) => JSON.parse(readFileSync(join(dir, f), "utf8")).session.title;
    return { long: title("long.json"), short: title("short.json"), messages };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of the long session's last message (an assistant answer with a Go test). */
export const lastMessageText = (messages = 2000) => `TestHandler${Math.floor((messages - 1) / 4)}`;

/**
 * A file of `lines` lines and a proposal changing one line in every
 * lines/hunks, far enough apart that each change is its own hunk.
 */
export function bigEdit(lines = 20_000, hunks = 200) {
  const text = (i) => `\tvalue${i} := compute(${i}, "row ${i} of the table") // keep ${i % 7}`;
  const step = Math.floor(lines / hunks);
  const original = [];
  const proposed = [];
  for (let i = 1; i <= lines; i++) {
    original.push(text(i));
    proposed.push(i % step === step / 2 ? `\tvalue${i} := computeChecked(${i}, "row ${i} of the table") // changed` : text(i));
  }
  return { path: "table.go", original: original.join("\n") + "\n", proposed: proposed.join("\n") + "\n", hunks };
}

/** A fake-LLM script: read the file (write_file needs it), propose the whole new text, then close. */
export function bigEditScript(edit) {
  return {
    turns: [
      { toolCalls: [{ name: "read_file", input: { path: edit.path } }] },
      { when: { hasToolResult: true }, toolCalls: [{ name: "write_file", input: { path: edit.path, content: edit.proposed } }] },
      { when: { hasToolResult: true }, text: "The table is updated." },
    ],
  };
}

/**
 * A long Markdown answer: headings, lists, code, and paragraphs well over
 * the length from which a streamed paragraph is cut into segments, with
 * inline code, emphasis, links and snake_case names. plain is its text as
 * the window shows it, without whitespace.
 */
export function longAnswer() {
  const sentence = (i) =>
    `Sentence ${i} reads **field_${i}** from \`config.value_${i}\`, checks _the limit_ of [the docs](https://example.com/p${i}) and moves on. `;
  const para = (from, n) => Array.from({ length: n }, (_, k) => sentence(from + k)).join("").trim();
  const parts = [
    "# Plan",
    para(0, 40),
    "- first item with `code`\n- second item\n  continued",
    "```go\nfunc main() {\n\tfmt.Println(\"*not emphasis*\")\n}\n```",
    para(40, 60),
    "## Then",
    para(100, 30),
  ];
  const md = parts.join("\n\n");
  const plainSentence = (i) => `Sentence ${i} reads field_${i} from config.value_${i}, checks the limit of the docs and moves on. `;
  const plainPara = (from, n) => Array.from({ length: n }, (_, k) => plainSentence(from + k)).join("");
  const plain = [
    "Plan",
    plainPara(0, 40),
    "first item with codesecond item\n  continued",
    'goCopyfunc main() {\n\tfmt.Println("*not emphasis*")\n}',
    plainPara(40, 60),
    "Then",
    plainPara(100, 30),
  ]
    .join("")
    .replace(/\s+/g, "");
  return { md, plain };
}

/** The name of the i-th file of a flat folder. */
export const flatName = (i) => `file${String(i).padStart(6, "0")}.txt`;

/** Creates n empty files named name(i) in dir (open + close: the fastest way from Node). */
export function emptyFiles(dir, n, name) {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) closeSync(openSync(join(dir, name(i)), "w"));
}
