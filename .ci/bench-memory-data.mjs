// Writes the data of .ci/bench-memory.sh into DIR:
//   long.json, short.json  two session exports in the format of
//                          `pilot sessions export ID --format json`: N
//                          messages (prompts, Markdown answers with code,
//                          read_file calls and their results) and 20
//   diffs.json             a fakellm script: BATCHES prompts, each answered
//                          by PER patch_file calls (one line of target.txt
//                          each, so no two calls are the same) and a text
//   target.txt             the file those calls patch ("line I: old")
//
//   node .ci/bench-memory-data.mjs DIR [N] [BATCHES] [PER]
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const [dir, nArg, batchesArg, perArg] = process.argv.slice(2);
const n = Number(nArg || 2000);
const batches = Number(batchesArg || 5);
const per = Number(perArg || 40);
const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
const at = (i) => new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString();

function session(title, count, updated) {
  const messages = [];
  for (let i = 0; messages.length < count; i++) {
    const id = `toolu_${i}`;
    messages.push({ role: "user", content: [{ type: "text", text: `Step ${i}: explain handler${i} and check its tests.` }], usage, state: "complete", createdAt: at(4 * i) });
    messages.push({
      role: "assistant",
      content: [
        { type: "text", text: `Looking at **handler${i}** first.` },
        { type: "tool_use", id, name: "read_file", input: { path: `pkg/h${i}.go` } },
      ],
      usage: { ...usage, inputTokens: 900, outputTokens: 40 },
      state: "complete",
      createdAt: at(4 * i + 1),
      toolCalls: [{ toolUseId: id, name: "read_file", input: { path: `pkg/h${i}.go` }, output: `1\tpackage pkg\n2\n3\tfunc handler${i}() error {\n4\t\treturn nil\n5\t}\n`, status: "done", approval: "none", startedAt: at(4 * i + 1), finishedAt: at(4 * i + 2) }],
    });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: `1\tpackage pkg\n2\n3\tfunc handler${i}() error {\n4\t\treturn nil\n5\t}\n` }], usage, state: "complete", createdAt: at(4 * i + 2) });
    messages.push({
      role: "assistant",
      content: [{ type: "text", text: `\`handler${i}\` returns no error yet. A test could be:\n\n\`\`\`go\nfunc TestHandler${i}(t *testing.T) {\n\tif err := handler${i}(); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n\`\`\`\n\n- it runs in the package\n- it needs no fixtures` }],
      usage: { ...usage, inputTokens: 1000, outputTokens: 120 },
      state: "complete",
      createdAt: at(4 * i + 3),
    });
  }
  messages.length = count;
  return {
    format: "pilot-session",
    version: 1,
    project: "/bench",
    session: { title, provider: "anthropic", model: "claude-sonnet-4-5", createdAt: at(0), updatedAt: updated, usage, costUsd: 0, state: "idle", approvalMode: "ask" },
    messages,
  };
}

writeFileSync(join(dir, "long.json"), JSON.stringify(session(`Long session (${n} messages)`, n, "2026-11-20T10:00:00Z")));
writeFileSync(join(dir, "short.json"), JSON.stringify(session("Short session", 20, "2026-11-20T09:00:00Z")));

const turns = [];
const lines = [];
for (let b = 0; b < batches; b++) {
  for (let j = 0; j < per; j++) {
    const i = b * per + j;
    lines.push(`line ${i}: old`);
    turns.push({
      text: `Changing line ${i}.`,
      toolCalls: [{ name: "patch_file", input: { path: "target.txt", old_text: `line ${i}: old\n`, new_text: `line ${i}: new\n` } }],
    });
  }
  turns.push({ text: `Batch ${b} done: ${per} lines changed.` });
}
writeFileSync(join(dir, "diffs.json"), JSON.stringify({ turns }));
writeFileSync(join(dir, "target.txt"), lines.join("\n") + "\n");
