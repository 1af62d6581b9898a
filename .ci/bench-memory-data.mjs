// Writes two session exports for .ci/bench-memory.sh: a long one
// (N messages: prompts, Markdown answers with code, read_file calls and
// their results) and a short one, in the format of
// `pilot sessions export ID --format json`.
//
//   node .ci/bench-memory-data.mjs DIR [N]
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const [dir, nArg] = process.argv.slice(2);
const n = Number(nArg || 2000);
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
