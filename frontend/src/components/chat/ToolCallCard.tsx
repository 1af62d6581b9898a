import { memo, useEffect, useRef, useState } from "react";
import type { Block, ChangeSummary, CommandEffects, SandboxInfo, ToolCall, ToolStatus } from "../../lib/wire.gen";
import type { SessionView } from "../../state/sessionState";
import { useApp, useController } from "../../state/context";
import MessageImage from "./MessageImage";
import { checkpointUndone } from "../../state/ledger";
import ChangeDetailView from "./ChangeDetailView";
import CommandEffectsView from "./CommandEffectsView";
import DiagnosticsSummary from "./DiagnosticsSummary";
import PlanCard from "../plan/PlanCard";
import HelperCalls, { callCountText, useHelperCallCount } from "./HelperCalls";
import HookRuns, { hookName } from "./HookRuns";
import JobLink from "../jobs/JobLink";
import { CallSignIn } from "../mcp/MCPSignIn";
import Visible from "../Visible";
import ElicitationForm, { ElicitationRecords } from "../mcp/ElicitationForm";

const statusText: Record<ToolStatus, string> = {
  running: "running",
  awaiting_approval: "waiting for approval",
  done: "done",
  error: "failed",
  rejected: "rejected",
  cancelled: "cancelled",
};

const statusIcon: Record<ToolStatus, string> = {
  running: "◌",
  awaiting_approval: "●",
  done: "✓",
  error: "✕",
  rejected: "⊘",
  cancelled: "–",
};

/**
 * Who refused a rejected call, in a few words: a refusal nobody was asked
 * about (plan mode, the approval mode, a deny rule) must not read like the
 * user's own "no". Null when not rejected or not known (older sessions).
 */
export function refusalText(call: ToolCall): string | null {
  if (call.status !== "rejected" || !call.refusedBy) return null;
  switch (call.refusedBy) {
    case "user":
      return "rejected by you";
    case "plan":
      return "not run: plan mode";
    case "mode":
      return call.name === "present_plan" ? "not run: not in plan mode" : "not run: approval mode none";
    case "rule":
      return call.refusedRule ? `denied by rule ${call.refusedRule}` : "denied: no rule allows it";
    case "hook":
      return call.refusedRule ? `blocked by hook ${hookName(call.refusedRule)}` : "blocked by a hook";
  }
  return null;
}

/** The tools whose calls are file changes reviewed hunk by hunk. */
const FILE_TOOLS = new Set(["write_file", "patch_file", "multi_patch"]);

/** What became of a decided change, in a few words. */
function changeText(ch: ChangeSummary, undone: boolean): string {
  if (undone) return "reverted";
  if (ch.recovery) return `interrupted by a crash; ${ch.recovery}`;
  if (ch.edited) return "edited by you";
  if (ch.applied === 0 && ch.total > 0) return "rejected";
  if (ch.applied < ch.total) return `applied ${ch.applied} of ${ch.total} hunks`;
  return "applied";
}

/**
 * A file change's card label once decided: the size in its label is the
 * model's proposal, so when only some hunks were written, or the user
 * edited it, the label says so rather than pass it off as what was written
 * (the Changes view gives the size written).
 */
export function decidedLabel(label: string, ch: ChangeSummary | undefined): string {
  if (!ch || (ch.applied === ch.total && !ch.edited) || ch.applied === 0) return label;
  return label.replace(/ \(([^()]*)\)$/, " (proposed: $1)");
}

function effectsText(e: CommandEffects, undone: boolean): string {
  if (undone) return "done · reverted";
  const n = e.files.length + (e.omitted ?? 0);
  return n === 0 ? "done" : `done · ${n.toLocaleString("en-US")} file${n === 1 ? "" : "s"} changed`;
}

function Output({ call, live }: { call: ToolCall; live: boolean }) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (el && live) el.scrollTop = el.scrollHeight;
  }, [call.output, live]);
  return (
    <pre ref={ref} className={`tool-output${call.isError ? " is-error" : ""}`} data-testid="tool-output">
      {call.output || (call.status === "running" ? "Waiting for output…" : "(no output)")}
    </pre>
  );
}

const noImages: Block[] = [];

/** Outputs that say images came with them: read_file's, an MCP tool's. */
const saysImage = /( is an image \(|^\[image [^\]\n]*, attached\]$)/m;

/**
 * The images a tool returned (read_file of an image, an MCP tool's
 * images), from its tool_result block: looked up only for a call whose
 * output says it returned one.
 */
function resultImages(s: SessionView | null | undefined, call: ToolCall | undefined): Block[] {
  if (!s || !call || !saysImage.test(call.output)) return noImages;
  for (let i = s.messageIds.length - 1; i >= 0; i--) {
    const b = s.messages[s.messageIds[i]!]?.blocks.find((x) => x.type === "tool_result" && x.toolUseId === call.id);
    if (b) return b.images ?? noImages;
  }
  return noImages;
}

/** How a command ran with respect to the OS sandbox, in a word. */
function SandboxBadge({ info }: { info: SandboxInfo }) {
  if (info.sandboxed) {
    return (
      <span className="badge sandbox-badge" data-testid="sandbox-badge" title="Ran in the sandbox: the project is writable, the rest read-only, secrets hidden, network only to hosts you allow">
        sandboxed
      </span>
    );
  }
  if (info.outside) {
    return (
      <span className="badge sandbox-outside" data-testid="sandbox-badge" title={`Ran outside the sandbox, with your full rights. The agent's reason: ${info.reason ?? ""}`}>
        outside the sandbox
      </span>
    );
  }
  if (info.unavailable) {
    return (
      <span className="badge sandbox-unavailable" data-testid="sandbox-badge" title={info.unavailable}>
        not sandboxed
      </span>
    );
  }
  return null;
}

/**
 * What the sandbox blocked, one sentence each, and why a command ran
 * without it: shown on the card whether it is open or not, so a block is
 * never hidden behind the output.
 */
function SandboxNotes({ info }: { info: SandboxInfo }) {
  const blocked = info.blocked ?? [];
  if (blocked.length === 0 && !info.unavailable && !info.outside) return null;
  return (
    <div className="sandbox-notes">
      {info.outside && info.reason && (
        <p className="muted small-text" data-testid="sandbox-outside-reason">
          Ran outside the sandbox, with your full rights. The agent&apos;s reason: {info.reason}
        </p>
      )}
      {!info.outside && info.unavailable && (
        <p className="muted small-text" data-testid="sandbox-unavailable">
          Not sandboxed: {info.unavailable}
        </p>
      )}
      {blocked.length > 0 && (
        <ul className="sandbox-blocks">
          {blocked.map((b, i) => (
            <li key={i} data-testid="sandbox-block">
              {b}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The nested instruction files (a subfolder's AGENTS.md or CLAUDE.md) this
 * call brought in: their text went to the model with its result.
 */
function InstructionsNote({ files }: { files: string[] }) {
  return (
    <p className="muted small-text" data-testid="tool-instructions" data-files={files.join(" ")}>
      Gave the model the project&apos;s instructions for these files: <Visible text={files.join(", ")} />
    </p>
  );
}

function ToolCallCard({ id }: { id: string }) {
  const c = useController();
  const call = useApp((s) => s.session?.toolCalls[id]);
  const images = useApp((s) => resultImages(s.session, s.session?.toolCalls[id]));
  const change = call && FILE_TOOLS.has(call.name) ? call.change : undefined;
  const effects = call?.name === "run_bash" ? call.effects : undefined;
  const checkpointId = change?.checkpointId ?? effects?.checkpointId;
  const ledgerUndone = useApp((s) => checkpointUndone(s, checkpointId));
  const undone = ledgerUndone || !!change?.undone || !!effects?.undone;
  const helperCalls = useHelperCallCount(id);
  const form = useApp((s) => s.session?.pending.find((a) => a.kind === "elicitation" && a.toolCallId === id));
  const task = call?.name === "task";
  const [open, setOpen] = useState<boolean | null>(null);
  const live = call?.name === "run_bash" && call.status === "running";
  // Live command output is open while it runs; everything else starts closed.
  const expanded = open ?? (live || call?.status === "error");

  if (!call) return null;
  if (call.name === "present_plan" && call.status === "done") return <PlanCard call={call} />;
  const label = decidedLabel(call.label || `→ ${call.name}`, change);
  const refusal = refusalText(call);
  const sandbox = call.name === "run_bash" ? call.sandbox : undefined;
  return (
    <div
      className={`tool-card status-${call.status}${undone ? " undone" : ""}`}
      data-testid="tool-call"
      data-tool={call.name}
      data-status={call.status}
      data-refused-by={call.status === "rejected" ? call.refusedBy : undefined}
      data-parent-id={call.parentId}
      data-sandboxed={sandbox?.sandboxed ? "true" : undefined}
    >
      <button type="button" className="tool-head" aria-expanded={expanded} onClick={() => setOpen(!expanded)}>
        <span className={`tool-icon${call.status === "running" ? " spin" : ""}`} aria-hidden="true">
          {statusIcon[call.status]}
        </span>
        <span className="tool-label">
          <Visible text={label} />
        </span>
        {sandbox && <SandboxBadge info={sandbox} />}
        {refusal && (!change || call.refusedBy !== "user") ? (
          <span className={`tool-status refusal refused-by-${call.refusedBy}`} data-testid="tool-refusal" title={call.output}>
            <Visible text={refusal} />
          </span>
        ) : change ? (
          <span
            className={`tool-status change-status${change.applied < change.total && !change.edited ? " partial" : ""}`}
            data-testid="change-summary"
            data-applied={change.applied}
            data-total={change.total}
            data-undone={undone ? "true" : undefined}
          >
            {changeText(change, undone)}
          </span>
        ) : (
          <span className="tool-status" data-testid={task ? "helper-status" : undefined} data-calls={task ? helperCalls : undefined}>
            {effects ? effectsText(effects, undone) : statusText[call.status]}
            {task && ` · ${callCountText(helperCalls)}`}
          </span>
        )}
        <span className="chevron" aria-hidden="true">
          {expanded ? "▾" : "▸"}
        </span>
      </button>
      {sandbox && <SandboxNotes info={sandbox} />}
      {call.needsSignIn && <CallSignIn call={call} />}
      {call.hooks && call.hooks.length > 0 && <HookRuns runs={call.hooks} />}
      {call.jobId && <JobLink jobId={call.jobId} />}
      {call.diagnostics && <DiagnosticsSummary d={call.diagnostics} />}
      {call.instructions && call.instructions.length > 0 && <InstructionsNote files={call.instructions} />}
      {call.elicitations && call.elicitations.length > 0 && <ElicitationRecords list={call.elicitations} />}
      {form && <ElicitationForm key={form.id} approval={form} />}
      {expanded && change && (
        <div className="tool-body">
          <ChangeDetailView callId={call.id} summary={change} />
          <div className="tool-actions">
            {undone ? (
              <span className="badge" data-testid="change-undone">reverted</span>
            ) : (
              change.checkpointId !== undefined &&
              change.checkpointId > 0 && (
                <button type="button" className="small" data-testid="change-revert" title="Put back the files as they were before this change" onClick={() => void c.ledger.revertCheckpoint(change.checkpointId!)}>
                  ↶ Revert this change
                </button>
              )
            )}
          </div>
          <details className="sent">
            <summary>Sent to the model</summary>
            <Output call={call} live={false} />
          </details>
        </div>
      )}
      {expanded && task && <HelperCalls taskId={call.id} card={(cid) => <ToolCallCard id={cid} />} />}
      {expanded && !change && <Output call={call} live={live} />}
      {images.length > 0 && (
        <div className="tool-images">
          {images.map((b, i) => (b.hash ? <MessageImage key={i} block={b} /> : null))}
        </div>
      )}
      {expanded && effects && <CommandEffectsView effects={effects} undone={undone} />}
    </div>
  );
}

export default memo(ToolCallCard);
