import { useEffect, useState } from "react";
import type { Approval } from "../../lib/types";
import { useController } from "../../state/context";
import AlwaysAllow from "./AlwaysAllow";
import { useCommandDecision } from "./useCommandDecision";

/** What the server says its tool does ("" until known, or when it says nothing). */
function useMcpToolDescription(server: string | undefined, tool: string | undefined): string {
  const c = useController();
  const [text, setText] = useState("");
  useEffect(() => {
    if (!server || !tool) return;
    let live = true;
    c.backend
      .mcpServers()
      .then((l) => {
        const t = l.servers.find((s) => s.name === server)?.tools.find((x) => x.tool === tool);
        if (live) setText(t?.description.trim() ?? "");
      })
      .catch(() => {}); // the card still shows the server, tool and arguments
    return () => {
      live = false;
    };
  }, [c, server, tool]);
  return text;
}

/** A command waiting for approval: what, where, how long; an MCP tool call: which tool of which server, what it does, with what. */
export default function BashApproval({ approval }: { approval: Approval }) {
  const { always, setAlways, feedback, setFeedback, sent, card, decide } = useCommandDecision(approval);

  const mcp = approval.kind === "mcp";
  const description = useMcpToolDescription(mcp ? approval.server : undefined, approval.mcpTool);
  return (
    <div ref={card} tabIndex={-1} className="review-card bash-card" data-testid="bash-approval" data-approval-id={approval.id} data-kind={mcp ? "mcp" : "command"}>
      <header className="review-title">
        <strong>{mcp ? "Call an MCP tool?" : "Run a command?"}</strong>
      </header>
      {mcp ? (
        <>
          <dl className="command-meta">
            <dt>server</dt>
            <dd data-testid="mcp-approval-server">{approval.server}</dd>
            <dt>tool</dt>
            <dd data-testid="mcp-approval-tool">{approval.mcpTool}</dd>
            {description && (
              <>
                <dt>does</dt>
                <dd data-testid="mcp-approval-description" className="mcp-description">
                  {description}
                </dd>
              </>
            )}
          </dl>
          <pre className="command" data-testid="mcp-approval-arguments">
            {prettyJSON(approval.arguments ?? "")}
          </pre>
        </>
      ) : (
        <>
          <pre className="command" data-testid="bash-command">
            <span aria-hidden="true">$ </span>
            {approval.command}
          </pre>
          <dl className="command-meta">
            <dt>in</dt>
            <dd data-testid="bash-cwd">{approval.cwd || "project folder"}</dd>
            <dt>timeout</dt>
            <dd data-testid="bash-timeout">{approval.timeoutSeconds ? `${approval.timeoutSeconds} s` : "default"}</dd>
          </dl>
        </>
      )}
      {approval.noAlways ? (
        <p className="hint" data-testid="bash-no-always">
          {approval.noAlways}
        </p>
      ) : (
        <AlwaysAllow
          approval={approval}
          testId="bash-always"
          label={
            mcp
              ? `Always allow ${approval.server}'s tool ${approval.mcpTool ?? ""} in this project`
              : (approval.alwaysRules?.length ?? 0) > 1
                ? "Always allow each part of this command in this project"
                : "Always allow this command in this project"
          }
          checked={always}
          onChange={setAlways}
          disabled={sent !== "no"}
        />
      )}
      <label className="feedback">
        <span>Reason, if you reject (sent to the model)</span>
        <input type="text" data-testid="bash-feedback" value={feedback} onChange={(e) => setFeedback(e.target.value)} disabled={sent !== "no"} />
      </label>
      <div className="review-actions">
        <button type="button" className="primary" data-testid="bash-approve" disabled={sent !== "no"} onClick={() => void decide(true)}>
          {mcp ? "▶ Call" : "▶ Run"}
        </button>
        <button type="button" className="danger-outline" data-testid="bash-reject" disabled={sent !== "no"} onClick={() => void decide(false)}>
          ✕ Reject
        </button>
        {sent !== "no" && <span className="muted" role="status">{sent === "approve" ? (mcp ? "Approved — calling…" : "Approved — running…") : "Rejected."}</span>}
      </div>
    </div>
  );
}

/** The arguments indented for reading; text that is not JSON as it came. */
function prettyJSON(s: string): string {
  try {
    return JSON.stringify(JSON.parse(s), null, 2);
  } catch {
    return s;
  }
}
