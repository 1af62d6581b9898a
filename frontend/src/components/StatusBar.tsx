import type { AppReadyPayload } from "../lib/wire.gen";
import type { AgentStatus } from "../lib/wire.gen";
import { formatCost, formatTokens } from "../lib/format";
import { factFrom } from "../lib/modelFacts";
import { useApp, useController } from "../state/context";
import { sessionTokens } from "../state/usage";

interface Props {
  ready: AppReadyPayload | null;
}

const stateText: Record<AgentStatus, string> = {
  idle: "Idle",
  streaming: "Writing…",
  awaiting_approval: "Waiting for your approval",
  tool_executing: "Running a tool…",
  error: "Error",
};

export default function StatusBar({ ready }: Props) {
  const c = useController();
  const state = useApp((s) => s.session?.agentState ?? "idle");
  const retrying = useApp((s) => s.session?.retry != null);
  const usage = useApp((s) => s.session?.usage ?? null);
  const summary = useApp((s) => s.session?.summary ?? null);
  const settings = useApp((s) => s.settings);
  const provider = summary?.provider || settings?.provider || "";
  const model = summary?.model || settings?.model || "";
  const tokens = useApp((s) => sessionTokens(s, s.session?.id ?? 0, s.session?.summary?.tokens ?? 0));
  const ctx = usage && usage.contextWindow > 0 ? Math.min(100, Math.round((usage.contextTokens / usage.contextWindow) * 100)) : null;

  return (
    <footer className="statusbar" aria-label="Status">
      <span className="provider" data-testid="status-model" title="Provider and model">
        {provider ? `${provider} · ${model || "default model"}` : "no model configured"}
      </span>
      <span data-testid="agent-state" data-state={state} className={`state state-${state}`} role="status">
        <span className="dot" aria-hidden="true" />
        {retrying && state === "streaming" ? "Waiting to retry…" : stateText[state]}
      </span>
      <span data-testid="usage" className="usage" title={usage ? `in ${usage.inputTokens}, out ${usage.outputTokens}, cache read ${usage.cacheReadTokens}, cache write ${usage.cacheWriteTokens}` : undefined}>
        {formatTokens(tokens)} tokens
        {usage?.costKnown ? ` · ${formatCost(usage.costUsd)}` : summary && summary.costUsd > 0 ? ` · ${formatCost(summary.costUsd)}` : ""}
      </span>
      {ctx !== null && usage && (
        <span className={`context${ctx >= 80 ? " warn" : ""}`} data-testid="context-use" title={`${usage.contextTokens} of ${usage.contextWindow} context tokens; the window ${factFrom[usage.contextWindowSource]}`}>
          context {ctx}%{" "}
          <span data-testid="model-window-source" data-source={usage.contextWindowSource}>
            of {formatTokens(usage.contextWindow)}
            {usage.contextWindowSource === "guess" && (
              <>
                , guessed:{" "}
                <button type="button" className="link" data-testid="context-guess" onClick={() => c.setDialog("settings", "models")}>
                  set it in Settings › Models
                </button>
              </>
            )}
          </span>
        </span>
      )}
      <span className="spacer" />
      {ready && (
        <span className="startup" data-testid="startup-time" title="Time from launch to the first call from the window">
          ready in {ready.startupMs} ms
        </span>
      )}
      <button type="button" className="link" data-testid="settings-open" onClick={() => c.setDialog("settings")}>
        ⚙ Settings
      </button>
      <button type="button" className="link" data-testid="about-open" onClick={() => c.setDialog("about")}>
        About
      </button>
    </footer>
  );
}
