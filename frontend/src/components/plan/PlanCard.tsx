import { useState } from "react";
import type { ToolCall } from "../../lib/wire.gen";
import { useApp, useController } from "../../state/context";
import type { SessionView } from "../../state/sessionState";
import { toMode } from "../../state/plan";
import Markdown from "../Markdown";
import PlanDecide from "./PlanDecide";
import PlanLines from "./PlanLines";

interface PlanInput {
  plan: string;
  steps: string[];
}

function planOf(input: unknown): PlanInput {
  const x = (input ?? {}) as { plan?: unknown; steps?: unknown };
  return {
    plan: typeof x.plan === "string" ? x.plan : "",
    steps: Array.isArray(x.steps) ? x.steps.filter((s): s is string => typeof s === "string") : [],
  };
}

/** The plan as the message that starts the work: its Markdown, then its steps. */
export function planText(p: PlanInput): string {
  const steps = p.steps.map((s, i) => `${i + 1}. ${s}`).join("\n");
  return steps ? `${p.plan.trim()}\n\n## Steps\n${steps}` : p.plan.trim();
}

/** Whether the user wrote a message after the one holding the plan (approved it, or asked for more). */
function answered(s: SessionView | null | undefined, messageId: number): boolean {
  if (!s) return false;
  const at = s.messageIds.indexOf(messageId);
  if (at < 0) return false;
  return s.messageIds.slice(at + 1).some((id) => {
    const m = s.messages[id];
    return m?.role === "user" && m.blocks.some((b) => b.type === "text" && !!b.text);
  });
}

/**
 * A presented plan: approve it into edits or ask (as written or edited), or
 * keep planning with feedback (PlanDecide; the inbox offers the same).
 */
export default function PlanCard({ call }: { call: ToolCall }) {
  const c = useController();
  const p = planOf(call.input);
  const sessionId = useApp((s) => s.session?.id ?? 0);
  const isAnswered = useApp((s) => answered(s.session, call.messageId));
  const idle = useApp((s) => (s.session?.turn ?? "idle") === "idle");
  const inPlan = useApp((s) => toMode(s.session?.summary?.approvalMode) === "plan");
  const [editing, setEditing] = useState(false);
  const [commenting, setCommenting] = useState(false);
  const [draft, setDraft] = useState(() => planText(p));
  const open = !isAnswered && inPlan;
  const state = isAnswered ? "answered" : open ? "open" : "left";

  return (
    <section className="plan-card" data-testid="plan-card" data-state={state} aria-label="Plan">
      <header className="plan-head">
        <span className="plan-title">Plan</span>
        <span className="plan-status">
          {state === "answered" ? "answered below" : state === "left" ? "not approved: the session left plan mode" : "waiting for you"}
        </span>
      </header>
      {editing && open ? (
        <textarea
          className="plan-edit"
          data-testid="plan-edit"
          aria-label="The plan to approve"
          value={draft}
          rows={Math.min(24, Math.max(6, draft.split("\n").length + 1))}
          onChange={(e) => setDraft(e.target.value)}
        />
      ) : commenting ? (
        <PlanLines sessionId={sessionId} callId={call.id} text={planText(p)} />
      ) : (
        <div className="plan-body">
          <Markdown text={p.plan} />
          {p.steps.length > 0 && (
            <ol className="plan-steps" data-testid="plan-steps">
              {p.steps.map((s, i) => (
                <li key={i}>{s}</li>
              ))}
            </ol>
          )}
        </div>
      )}
      {open && (
        <PlanDecide
          sessionId={sessionId}
          plan={draft}
          idle={idle}
          onApprove={(mode, text) => void c.plan.approve(mode, text)}
          onKeep={(feedback) => void c.plan.keepPlanning(feedback)}
          more={
            <>
              <button type="button" className="small" data-testid="plan-edit-toggle" aria-pressed={editing} onClick={() => setEditing(!editing)}>
                {editing ? "Show the plan" : "Edit the plan"}
              </button>
              <button
                type="button"
                className="small"
                aria-pressed={commenting}
                title="Show the plan line by line, to comment on its lines and send the comments as one review"
                onClick={() => {
                  setEditing(false);
                  setCommenting(!commenting);
                }}
              >
                {commenting ? "Show the plan" : "Comment on lines"}
              </button>
            </>
          }
        />
      )}
    </section>
  );
}
