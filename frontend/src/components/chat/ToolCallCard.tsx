import { memo, useEffect, useRef, useState } from "react";
import type { ToolStatus } from "../../lib/types";
import { useApp } from "../../state/context";

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

function ToolCallCard({ id }: { id: string }) {
  const call = useApp((s) => s.session?.toolCalls[id]);
  const [open, setOpen] = useState<boolean | null>(null);
  const outRef = useRef<HTMLPreElement>(null);
  const live = call?.name === "run_bash" && call.status === "running";
  // Live command output is open while it runs; everything else starts closed.
  const expanded = open ?? (live || call?.status === "error");

  useEffect(() => {
    const el = outRef.current;
    if (el && live) el.scrollTop = el.scrollHeight;
  }, [call?.output, live]);

  if (!call) return null;
  const label = call.label || `→ ${call.name}`;
  return (
    <div className={`tool-card status-${call.status}`} data-testid="tool-call" data-tool={call.name} data-status={call.status}>
      <button type="button" className="tool-head" aria-expanded={expanded} onClick={() => setOpen(!expanded)}>
        <span className={`tool-icon${call.status === "running" ? " spin" : ""}`} aria-hidden="true">
          {statusIcon[call.status]}
        </span>
        <span className="tool-label">{label}</span>
        <span className="tool-status">{statusText[call.status]}</span>
        <span className="chevron" aria-hidden="true">
          {expanded ? "▾" : "▸"}
        </span>
      </button>
      {expanded && (
        <pre ref={outRef} className={`tool-output${call.isError ? " is-error" : ""}`} data-testid="tool-output">
          {call.output || (call.status === "running" ? "Waiting for output…" : "(no output)")}
        </pre>
      )}
    </div>
  );
}

export default memo(ToolCallCard);
