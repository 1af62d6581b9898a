import { useCallback, useEffect, useState } from "react";
import type { MCPServer, MCPServers } from "../../lib/wire.gen";
import { errorText } from "../../lib/format";
import { useController } from "../../state/context";
import { askMcpTrust } from "../mcp/McpTrust";
import { ServerSignIn } from "../mcp/MCPSignIn";
import Visible from "../Visible";
import { emptyMcpForm, mcpFormFrom, mcpInput, type McpForm } from "./mcpForm";

const stateLabel: Record<MCPServer["state"], string> = { starting: "starting…", ready: "ready", failed: "failed", disabled: "off" };

/** The MCP servers of the open project (its .mcp.json and the user's), their state, tools and stderr: the servers' and the files' text with every character visible. */
export default function McpServersEditor() {
  const c = useController();
  const [list, setList] = useState<MCPServers | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState<McpForm | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  // The project's servers that wait for the user to trust its .mcp.json.
  const [untrusted, setUntrusted] = useState<string[]>([]);

  const load = useCallback(() => {
    c.backend
      .mcpTrustPrompt()
      .then((p) => setUntrusted(p.needed ? p.servers.map((s) => s.name) : []))
      .catch(() => setUntrusted([]));
    c.backend
      .mcpServers()
      .then((l) => {
        setList(l);
        setError(null);
      })
      .catch((err: unknown) => setError(errorText(err)));
  }, [c]);
  useEffect(() => {
    load();
    return c.backend.on("mcp:updated", load);
  }, [c, load]);

  const act = async (f: () => Promise<void>) => {
    try {
      await f();
      setError(null);
      load();
    } catch (err) {
      setError(errorText(err));
    }
  };

  const save = async () => {
    if (!form) return;
    const input = mcpInput(form);
    if (typeof input === "string") {
      setFormError(input);
      return;
    }
    try {
      await c.backend.mcpSaveServer(input);
      setForm(null);
      setFormError(null);
      load();
    } catch (err) {
      setFormError(errorText(err));
    }
  };
  const set = <K extends keyof McpForm>(k: K, v: McpForm[K]) => setForm((f) => (f ? { ...f, [k]: v } : f));

  return (
    <fieldset className="rules mcp" data-testid="settings-mcp">
      <legend>Servers</legend>
      <p className="muted small-text">
        Tools from Model Context Protocol servers: yours (<code>mcp.json</code> in Pilot's data folder) and this project's <code>.mcp.json</code>. The model sees them as{" "}
        <code>mcp__server__tool</code>; each call is asked for like a command.
      </p>
      {error && <p className="error">{error}</p>}
      {list?.configError && <p className="error">{list.configError}</p>}
      {list === null && !error && <p className="empty">Loading servers…</p>}
      {list && list.servers.length === 0 && <p className="empty">No MCP servers yet.</p>}
      {list && list.servers.length > 0 && (
        <ul className="mcp-list">
          {list.servers.map((s) => (
            <li key={`${s.scope}/${s.name}`} data-testid="mcp-server" data-name={s.name} data-state={s.state}>
              <div className="mcp-head">
                <strong>
                  <Visible text={s.name} />
                </strong>
                <span className="badge">{s.scope}</span>
                <span className={`badge mcp-state-${s.state}`} data-testid="mcp-server-state">
                  {stateLabel[s.state]}
                </span>
                <span className="grow" />
                {s.scope === "project" && untrusted.includes(s.name) && (
                  <button
                    type="button"
                    className="small primary"
                    data-testid="mcp-server-trust"
                    title="Shows the project's .mcp.json servers with their commands; nothing runs before you accept"
                    onClick={askMcpTrust}
                  >
                    Trust and start…
                  </button>
                )}
                <button type="button" className="small" aria-label={`Edit MCP server ${s.name}`} onClick={() => setForm(mcpFormFrom(s))}>
                  Edit
                </button>
                <button type="button" className="small" data-testid="mcp-server-toggle" onClick={() => void act(() => c.backend.mcpSetDisabled(s.scope, s.name, !s.disabled))}>
                  {s.disabled ? "Enable" : "Disable"}
                </button>
                <button type="button" className="icon" aria-label={`Remove MCP server ${s.name}`} onClick={() => void act(() => c.backend.mcpRemoveServer(s.scope, s.name))}>
                  ×
                </button>
              </div>
              <code className="mcp-display">
                <Visible text={s.display} />
              </code>
              <ServerSignIn s={s} />
              {s.error && (
                <p className={s.state === "failed" ? "error" : "muted small-text"} data-testid="mcp-server-error">
                  <Visible text={s.error} lines />
                </p>
              )}
              {s.tools.length > 0 && (
                <details>
                  <summary>{s.tools.length === 1 ? "1 tool" : `${s.tools.length} tools`}</summary>
                  <ul className="mcp-tools" data-testid="mcp-server-tools">
                    {s.tools.map((t) => (
                      <li key={t.name}>
                        <code>
                          <Visible text={t.tool} />
                        </code>{" "}
                        <span className="muted">
                          <Visible text={t.description.split("\n")[0] ?? ""} />
                        </span>
                      </li>
                    ))}
                  </ul>
                </details>
              )}
              {s.stderr.length > 0 && (
                <details>
                  <summary>Last lines of stderr</summary>
                  <pre className="mcp-stderr" data-testid="mcp-server-stderr">
                    <Visible text={s.stderr.join("\n")} lines />
                  </pre>
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
      {form ? (
        <div className="mcp-form" data-testid="mcp-form">
          <label>
            <span>Name</span>
            <input data-testid="mcp-form-name" value={form.name} onChange={(e) => set("name", e.target.value)} />
          </label>
          <label>
            <span>Where</span>
            <select value={form.scope} onChange={(e) => set("scope", e.target.value === "project" ? "project" : "user")}>
              <option value="user">all my projects</option>
              <option value="project">this project (.mcp.json)</option>
            </select>
          </label>
          <label>
            <span>Kind</span>
            <select data-testid="mcp-form-type" value={form.type} onChange={(e) => set("type", e.target.value === "http" ? "http" : e.target.value === "sse" ? "sse" : "stdio")}>
              <option value="stdio">a command (stdio)</option>
              <option value="http">a URL (Streamable HTTP)</option>
              <option value="sse">a URL (older HTTP+SSE)</option>
            </select>
          </label>
          {form.type === "stdio" ? (
            <>
              <label>
                <span>Command</span>
                <input data-testid="mcp-form-command" placeholder="npx" value={form.command} onChange={(e) => set("command", e.target.value)} />
              </label>
              <label>
                <span>Arguments, one per line</span>
                <textarea data-testid="mcp-form-args" rows={3} value={form.args} onChange={(e) => set("args", e.target.value)} />
              </label>
              <label>
                <span>Environment, NAME=value per line (${"{VAR}"} is expanded)</span>
                <textarea data-testid="mcp-form-env" rows={2} value={form.env} onChange={(e) => set("env", e.target.value)} />
              </label>
              <label>
                <span>Working folder (empty: the project)</span>
                <input value={form.cwd} onChange={(e) => set("cwd", e.target.value)} />
              </label>
            </>
          ) : (
            <>
              <label>
                <span>URL</span>
                <input data-testid="mcp-form-url" placeholder="https://example.com/mcp" value={form.url} onChange={(e) => set("url", e.target.value)} />
              </label>
              <label>
                <span>Headers, "Name: value" per line</span>
                <textarea rows={2} value={form.headers} onChange={(e) => set("headers", e.target.value)} />
              </label>
            </>
          )}
          {formError && (
            <p className="error" data-testid="mcp-form-error">
              {formError}
            </p>
          )}
          <div className="rule-form">
            <button type="button" className="small primary" data-testid="mcp-form-save" onClick={() => void save()}>
              Save server
            </button>
            <button type="button" className="small" onClick={() => (setForm(null), setFormError(null))}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="small" data-testid="mcp-add" onClick={() => setForm({ ...emptyMcpForm })}>
          Add a server
        </button>
      )}
    </fieldset>
  );
}
