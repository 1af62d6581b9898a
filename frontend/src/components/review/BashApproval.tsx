import { useEffect, useState } from "react";
import type { Approval } from "../../lib/wire.gen";
import { useController } from "../../state/context";
import { visibleString } from "../../lib/visible";
import Visible from "../Visible";
import AlwaysAllow from "./AlwaysAllow";
import DecisionButtons, { ReasonField } from "./DecisionButtons";
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

/** The read-only tools an ask rule can make the agent ask about. */
const READS = ["read_file", "list_files", "glob", "grep"];

/**
 * A command waiting for approval: what, where, how long; an MCP tool call:
 * which tool of which server, what it does, with what. A command asking
 * to run outside the OS sandbox (kind outside_sandbox) says so plainly,
 * with the model's reason; one that would run outside it because the
 * sandbox cannot start here says why. The model's and the server's text
 * (command, reason, server, tool, what it does, arguments) is shown with
 * every character visible.
 */
export default function BashApproval({ approval }: { approval: Approval }) {
  const { always, setAlways, feedback, setFeedback, sent, card, decide } = useCommandDecision(approval);

  const mcp = approval.kind === "mcp";
  const outside = approval.kind === "outside_sandbox";
  const description = useMcpToolDescription(mcp ? approval.server : undefined, approval.mcpTool);
  return (
    <div
      ref={card}
      tabIndex={-1}
      className={`review-card bash-card${outside ? " outside-sandbox" : ""}`}
      data-testid="bash-approval"
      data-approval-id={approval.id}
      data-kind={mcp ? "mcp" : outside ? "outside_sandbox" : "command"}
    >
      <header className="review-title">
        <strong>{mcp ? "Call an MCP tool?" : outside ? "Run a command outside the sandbox?" : READS.includes(approval.tool) ? "Let the agent read this?" : "Run a command?"}</strong>
      </header>
      {approval.askRule && (
        <p className="muted small-text" data-testid="ask-rule">
          Asked every time, whatever the mode, by the rule{" "}
          <code>
            <Visible text={approval.askRule} />
          </code>{" "}
          of a settings file (its <code>permissions.ask</code>).
        </p>
      )}
      {outside && (
        <div className="sandbox-warning" data-testid="bash-outside">
          <p>
            <strong>This command runs with your full rights, outside the sandbox:</strong> it can write anywhere you can, read your secrets and reach any host.
          </p>
          <p>
            The agent&apos;s reason: <q data-testid="bash-outside-reason">
              <Visible text={approval.reason ?? ""} />
            </q>
          </p>
        </div>
      )}
      {!outside && approval.noSandbox && (
        <p className="sandbox-warning" data-testid="bash-no-sandbox">
          {approval.noSandbox}
        </p>
      )}
      {mcp ? (
        <>
          <dl className="command-meta">
            <dt>server</dt>
            <dd data-testid="mcp-approval-server">
              <Visible text={approval.server ?? ""} />
            </dd>
            <dt>tool</dt>
            <dd data-testid="mcp-approval-tool">
              <Visible text={approval.mcpTool ?? ""} />
            </dd>
            {description && (
              <>
                <dt>does</dt>
                <dd data-testid="mcp-approval-description" className="mcp-description">
                  <Visible text={description} lines />
                </dd>
              </>
            )}
          </dl>
          <pre className="command" data-testid="mcp-approval-arguments">
            <Visible text={prettyJSON(approval.arguments ?? "")} lines />
          </pre>
        </>
      ) : (
        <>
          <pre className="command" data-testid="bash-command">
            <span aria-hidden="true">$ </span>
            <Visible text={approval.command ?? ""} lines />
          </pre>
          <dl className="command-meta">
            <dt>in</dt>
            <dd data-testid="bash-cwd">
              <Visible text={approval.cwd || "project folder"} />
            </dd>
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
              ? `Always allow ${visibleString(approval.server ?? "")}'s tool ${visibleString(approval.mcpTool ?? "")} in this project`
              : (approval.alwaysRules?.length ?? 0) > 1
                ? "Always allow each part of this command in this project"
                : "Always allow this command in this project"
          }
          checked={always}
          onChange={setAlways}
          disabled={sent !== "no"}
        />
      )}
      <ReasonField testId="bash-feedback" no="reject" value={feedback} onChange={setFeedback} disabled={sent !== "no"} />
      <DecisionButtons
        yes={{ testId: "bash-approve", label: mcp ? "▶ Call" : "▶ Run", sent: mcp ? "Approved — calling…" : "Approved — running…" }}
        no={{ testId: "bash-reject", label: "✕ Reject", sent: "Rejected." }}
        sent={sent}
        decide={decide}
      />
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
