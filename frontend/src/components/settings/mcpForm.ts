import type { MCPScope, MCPServer, MCPServerInput } from "../../lib/wire.gen";

/** The add/edit form of an MCP server, as the user types it. */
export interface McpForm {
  scope: MCPScope;
  name: string;
  type: "stdio" | "http" | "sse";
  command: string;
  /** One argument per line. */
  args: string;
  /** K=V per line. */
  env: string;
  cwd: string;
  url: string;
  /** "Name: value" per line. */
  headers: string;
}

export const emptyMcpForm: McpForm = { scope: "user", name: "", type: "stdio", command: "", args: "", env: "", cwd: "", url: "", headers: "" };

export function mcpFormFrom(s: MCPServer): McpForm {
  return {
    scope: s.scope,
    name: s.name,
    type: s.transport,
    command: s.command,
    args: (s.args ?? []).join("\n"),
    env: Object.entries(s.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join("\n"),
    cwd: s.cwd,
    url: s.url,
    headers: Object.entries(s.headers ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join("\n"),
  };
}

function pairs(text: string, sep: string, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const i = line.indexOf(sep);
    if (i <= 0) throw new Error(`${what} "${line}": write it as NAME${sep}${sep === ":" ? " " : ""}value`);
    out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return out;
}

/** The input to save, or an error sentence saying what to fix. */
export function mcpInput(f: McpForm): MCPServerInput | string {
  const name = f.name.trim();
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(name) || name.includes("__")) return "Name: letters, digits, '-' and single '_' (at most 40).";
  try {
    if (f.type === "stdio") {
      if (!f.command.trim()) return "Command: the program that starts the server, e.g. npx.";
      const args = f.args.split("\n").map((a) => a.trim()).filter((a) => a !== "");
      return { scope: f.scope, name, type: "stdio", command: f.command.trim(), args, env: pairs(f.env, "=", "Environment"), cwd: f.cwd.trim(), url: "", headers: {} };
    }
    if (!/^https?:\/\//.test(f.url.trim())) return "URL: the server's http:// or https:// address.";
    return { scope: f.scope, name, type: f.type, command: "", args: [], env: {}, cwd: "", url: f.url.trim(), headers: pairs(f.headers, ":", "Header") };
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
