import { useCallback, useEffect, useState } from "react";
import type { MCPServer, MCPTrustPrompt } from "../../lib/wire.gen";
import { errorText } from "../../lib/format";
import { useApp, useController } from "../../state/context";
import Modal from "../Modal";
import Visible from "../Visible";
import { watchServers } from "./watchServers";

/** The event that brings the trust prompt back after "Not now" (Settings' "Trust and start…"). */
const ASK = "pilot:mcp-trust";

/** Shows the trust prompt again, as if the project had just been opened. */
export function askMcpTrust(): void {
  window.dispatchEvent(new Event(ASK));
}

/** What became of the servers started by "Trust and start": still starting, or each one's outcome. */
export type StartOutcome = { name: string; state: MCPServer["state"]; tools: number; error: string };

/** The sentence saying how the trusted servers started, or null while any is still starting. */
export function startedText(outcomes: StartOutcome[]): { text: string; failed: boolean } | null {
  if (outcomes.length === 0 || outcomes.some((o) => o.state === "starting")) return null;
  const parts = outcomes.map((o) =>
    o.state === "ready"
      ? `${o.name} started with ${o.tools === 1 ? "1 tool" : `${o.tools} tools`}`
      : o.state === "failed"
        ? `${o.name} did not start: ${o.error || "it failed"}`
        : `${o.name} is off${o.error ? `: ${o.error}` : ""}`,
  );
  const failed = outcomes.some((o) => o.state !== "ready");
  return {
    text: `MCP: ${parts.join("; ")}.${failed ? " Settings › MCP servers shows its last lines of stderr; fix .mcp.json or the command, and it is started again." : ""}`,
    failed,
  };
}

/**
 * Asks once per version of a project's .mcp.json and settings files
 * whether their servers may start, their allow rules apply and their hooks
 * run, showing the exact command (or URL) of each server, each rule and
 * each hook command, every character of them visible (Visible). Nothing of the file
 * runs before the user accepts. "Not now" hides it until a later change to
 * the file, or until Settings' "Trust and start…" on a server asks again.
 * After "Trust and start", a notice above the status bar says how each
 * server started.
 */
export default function McpTrust() {
  const c = useController();
  const project = useApp((s) => s.project);
  const [prompt, setPrompt] = useState<MCPTrustPrompt | null>(null);
  const [dismissed, setDismissed] = useState<string>("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState<{ names: string[]; outcomes: StartOutcome[] } | null>(null);

  const check = useCallback(() => {
    c.backend
      .mcpTrustPrompt()
      .then((p) => setPrompt(p.needed ? p : null))
      .catch(() => setPrompt(null)); // no project open: nothing to trust
  }, [c]);
  useEffect(() => {
    if (!project) return;
    check();
    const again = () => {
      setDismissed("");
      check();
    };
    window.addEventListener("focus", check); // the file may have been edited meanwhile
    window.addEventListener(ASK, again);
    const off = c.backend.on("mcp:updated", check);
    return () => {
      window.removeEventListener("focus", check);
      window.removeEventListener(ASK, again);
      off();
    };
  }, [c, project, check]);

  // The servers just trusted: followed until each one is ready or failed.
  const names = started?.names;
  useEffect(() => {
    if (!names) return;
    return watchServers(c.backend, (l) => {
      const outcomes = names.map((name): StartOutcome => {
        const s = l.servers.find((x) => x.scope === "project" && x.name === name);
        if (!s) return { name, state: "failed", tools: 0, error: "it is no longer in .mcp.json" };
        // Off but not switched off by the user: the hub has not taken the trust yet.
        const state = s.state === "disabled" && !s.disabled ? "starting" : s.state;
        return { name, state, tools: s.tools.length, error: s.error };
      });
      setStarted((x) => (x && x.names === names ? { names, outcomes } : x));
    });
  }, [c, names]);

  const accept = async (p: MCPTrustPrompt) => {
    setBusy(true);
    try {
      await c.backend.trustProject(p.token);
      setPrompt(null);
      setError(null);
      if (servesMcp(p)) setStarted({ names: p.servers.map((s) => s.name), outcomes: [] });
    } catch (err) {
      setError(errorText(err));
      check();
    } finally {
      setBusy(false);
    }
  };

  const outcome = started ? startedText(started.outcomes) : null;
  const notice = started && (
    <div className={`mcp-started${outcome?.failed ? " failed" : ""}`} data-testid="mcp-started" data-state={outcome ? (outcome.failed ? "failed" : "ready") : "starting"} role="status">
      <span>{outcome ? outcome.text : `MCP: starting ${started.names.join(", ")}…`}</span>
      {outcome?.failed && (
        <button type="button" className="small" onClick={() => c.setDialog("settings")}>
          Open Settings
        </button>
      )}
      <button type="button" className="icon" aria-label="Dismiss the MCP notice" onClick={() => setStarted(null)}>
        ×
      </button>
    </div>
  );

  if (!prompt || dismissed === prompt.token) return notice || null;
  const mcp = servesMcp(prompt);
  const others = prompt.sections.filter((s) => s.kind !== "mcp");
  return (
    <>
      {notice}
      <Modal title={others.length === 0 ? "Start this project's MCP servers?" : "Trust this project's setup?"} onClose={() => setDismissed(prompt.token)} testId="mcp-trust" wide>
        {mcp && (
          <>
            <p>
              {prompt.changed ? "The project's " : "This project has a "}
              <code>
                <Visible text={prompt.path} />
              </code>
              {prompt.changed ? " changed since you trusted it. " : ". "}
              Trusting it lets Pilot run these commands on your computer, with your user's rights, whenever this project is open:
            </p>
            <ul className="mcp-trust-list">
              {prompt.servers.map((s) => (
                <li key={s.name} data-testid="mcp-trust-server" data-name={s.name}>
                  <strong>
                    <Visible text={s.name} />
                  </strong>
                  <code>
                    <Visible text={s.display} />
                  </code>
                </li>
              ))}
            </ul>
          </>
        )}
        {others.map((s) => (
          <section key={`${s.kind}:${s.path}`} data-testid="trust-section" data-kind={s.kind}>
            <p>
              <code>
                <Visible text={s.path} />
              </code>
              {s.changed ? " changed since you trusted it. Trusting it " : " is the project's. Trusting it "}
              {s.kind === "rules"
                ? "lets these calls run without asking (its deny and ask rules apply already):"
                : "lets Pilot run these hooks on your computer, with your user's rights, as the agent works:"}
            </p>
            <ul className="mcp-trust-list">
              {s.items.map((item) => (
                <li key={item}>
                  <code>
                    <Visible text={item} />
                  </code>
                </li>
              ))}
            </ul>
          </section>
        ))}
        <p className="muted small-text">
          Not now: nothing of these files runs or is allowed{mcp ? "; Settings › MCP servers offers “Trust and start…” on each server when you want them" : ""}. A later change to a file asks again; <code>pilot trust</code> does the same from a terminal.
        </p>
        {error && <p className="error">Could not trust it: {error}</p>}
        <div className="modal-actions">
          <button type="button" data-testid="mcp-trust-later" onClick={() => setDismissed(prompt.token)}>
            Not now
          </button>
          <button type="button" className="primary" data-testid="mcp-trust-accept" disabled={busy} onClick={() => void accept(prompt)}>
            {mcp ? "Trust and start" : "Trust"}
          </button>
        </div>
      </Modal>
    </>
  );
}

/** Whether the prompt shows .mcp.json's servers (rather than only settings files). */
function servesMcp(p: MCPTrustPrompt): boolean {
  return p.sections.some((s) => s.kind === "mcp");
}
