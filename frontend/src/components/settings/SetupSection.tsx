import { useCallback, useEffect, useState } from "react";
import type { Setup, SetupItem, SetupKind } from "../../lib/wire.gen";
import { errorText } from "../../lib/format";
import { useReportError } from "../../lib/useReportError";
import { useController } from "../../state/context";
import { askMcpTrust } from "../mcp/McpTrust";
import Visible from "../Visible";

/** Each kind's heading and what to do when none is found, in the order the backend lists them. */
const KINDS: { kind: SetupKind; title: string; none: string }[] = [
  { kind: "hook", title: "Hooks", none: "No hooks: add them under \"hooks\" in .claude/settings.json or ~/.claude/settings.json." },
  { kind: "skill", title: "Skills", none: "No skills: a skill is a folder with a SKILL.md in .claude/skills or ~/.claude/skills." },
  { kind: "agent", title: "Agents", none: "No custom agents: an agent is a Markdown file in .claude/agents or ~/.claude/agents." },
  { kind: "rule", title: "Permission rules from settings files", none: "No permission entries in the settings files." },
  { kind: "mcp", title: "MCP servers", none: "No MCP servers: add them in MCP servers above, or in the project's .mcp.json." },
  { kind: "command", title: "Commands", none: "No custom commands: a command is a Markdown file in .claude/commands or ~/.claude/commands." },
  { kind: "memory", title: "Instruction files", none: "No instruction files: Pilot reads ~/.claude/CLAUDE.md, ~/.codex/AGENTS.md, the project's AGENTS.md, CLAUDE.md, progress.md, CLAUDE.local.md and .claude/rules/*.md." },
];

/** The word for an item's state, as its kind says it. */
export function stateLabel(it: SetupItem): string {
  switch (it.state) {
    case "active":
      if (it.kind === "hook") return "runs";
      if (it.kind === "rule") return "applied";
      if (it.kind === "mcp") return it.scope === "project" ? "trusted" : "on";
      return "in use";
    case "untrusted":
      return it.kind === "rule" ? "not applied until trusted" : "not trusted";
    case "disabled":
      return "off";
    case "refused":
      return "not read";
    case "missing":
      return "not found";
    default:
      return it.state;
  }
}

function Item({ it }: { it: SetupItem }) {
  const bad = it.state === "ignored" || it.state === "broken" || it.state === "refused";
  return (
    <li data-testid="setup-item" data-kind={it.kind} data-state={it.state} className={`setup-item state-${it.state}`}>
      <div className="rule-row">
        <span className={`badge setup-state state-${it.state}`}>{stateLabel(it)}</span>
        <code className="setup-name">
          <Visible text={it.name} />
        </code>
        {it.matcher && (
          <code title="matcher">
            [<Visible text={it.matcher} />]
          </code>
        )}
        <span className="grow setup-what">
          <Visible text={it.description} />
        </span>
        {it.tokens ? (
          <span className="muted small-text" data-testid="setup-tokens" title="An estimate: the bytes given to the model / 4">
            ≈ {it.tokens} tokens
          </span>
        ) : null}
      </div>
      <p className="muted small-text setup-file">
        <code>
          <Visible text={it.file} />
        </code>{" "}
        ({it.scope})
      </p>
      {it.detail && (
        <p className={bad ? "rule-problem" : "setup-detail"}>
          <Visible text={it.detail} />
        </p>
      )}
    </li>
  );
}

/** Pilot's tools and the tool_name hooks see for each (Claude Code's names). */
function ToolNames({ names }: { names: Setup["toolNames"] }) {
  if (names.length === 0) return null;
  return (
    <details className="setup-tool-names" data-testid="setup-tool-names">
      <summary>Tool names hooks see</summary>
      <p className="muted small-text">Hooks and the settings files' permission entries name Pilot's tools as Claude Code does, so existing scripts work unchanged. MCP tools keep mcp__server__tool.</p>
      <table>
        <thead>
          <tr>
            <th>Pilot</th>
            <th>tool_name</th>
          </tr>
        </thead>
        <tbody>
          {names.map((n) => (
            <tr key={n.pilot}>
              <td>
                <code>{n.pilot}</code>
              </td>
              <td>
                <code>{n.claude}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/**
 * Settings › Setup: what Pilot found of the user's setup for the project
 * (hooks, skills, agents, rules of settings files, MCP servers, commands,
 * instruction files),
 * each with its file, scope and state and why, read again when the
 * project's trust or servers change. When a project file waits for trust,
 * "Review and trust…" brings back the one trust prompt.
 */
export default function SetupSection({ projectId }: { projectId: number }) {
  const c = useController();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [error, setError] = useState<string | null>(null);
  useReportError("settings", error ? `Could not read the setup: ${error}` : null);

  const load = useCallback(() => {
    c.backend
      .setup(projectId)
      .then((s) => {
        setSetup(s);
        setError(null);
      })
      .catch((err: unknown) => setError(errorText(err)));
  }, [c, projectId]);
  useEffect(() => {
    load();
    return c.backend.on("mcp:updated", load);
  }, [c, load]);

  if (!setup) return error ? <p className="error">Could not read the setup: {error}</p> : <p className="muted">Reading the setup…</p>;
  return (
    <div className="setup-page" data-testid="setup-page">
      <p className="hint">
        What Pilot read from Claude Code's files and its own: <code>~/.claude</code> (user), <code>PILOT_HOME</code> (pilot-user), the project's <code>.claude/</code> and{" "}
        <code>.mcp.json</code> (project, local) and <code>.pilot/</code> (pilot-project). Edit the files to change it.
      </p>
      {setup.needsTrust && (
        <p className="warning setup-trust" role="note">
          Some of the project's files wait for your trust: their hooks do not run, their allow rules do not apply and their servers do not start.{" "}
          <button type="button" data-testid="setup-trust" onClick={askMcpTrust}>
            Review and trust…
          </button>
        </p>
      )}
      {KINDS.map(({ kind, title, none }) => {
        const items = setup.items.filter((it) => it.kind === kind);
        return (
          <div key={kind} className="setup-kind" data-kind={kind}>
            <h4>
              {title} <span className="muted small-text">{items.length}</span>
            </h4>
            {items.length === 0 ? (
              <p className="muted small-text">{none}</p>
            ) : (
              <ul className="rule-list setup-list">
                {items.map((it, i) => (
                  <Item key={i} it={it} />
                ))}
              </ul>
            )}
            {kind === "hook" && <ToolNames names={setup.toolNames} />}
          </div>
        );
      })}
    </div>
  );
}
