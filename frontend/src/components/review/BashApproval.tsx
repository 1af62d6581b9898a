import type { Approval } from "../../lib/types";
import AlwaysAllow from "./AlwaysAllow";
import { useCommandDecision } from "./useCommandDecision";

/** A command waiting for approval: what, where, how long. */
export default function BashApproval({ approval }: { approval: Approval }) {
  const { always, setAlways, feedback, setFeedback, sent, card, decide } = useCommandDecision(approval);

  const mcp = approval.kind === "mcp";
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
