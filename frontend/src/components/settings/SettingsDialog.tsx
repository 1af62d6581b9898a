import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import type { ApprovalMode, SettingsView } from "../../lib/types";
import { errorText, formatMib } from "../../lib/format";
import { useDebounced } from "../../lib/useDebounced";
import { useApp, useController } from "../../state/context";
import Modal from "../Modal";
import McpServersEditor from "./McpServersEditor";
import RulesEditor from "./RulesEditor";
import { backendProvider, compatiblePresets, defaultUrlFor, formFromView, isHttpUrl, thinkingOptions, toInput, validate, type FormErrors, type ProviderChoice, type SettingsForm } from "./validate";

const modes: { value: ApprovalMode; label: string; hint: string }[] = [
  { value: "ask", label: "Ask", hint: "every change and command waits for you" },
  { value: "edits", label: "Edits", hint: "file changes are applied, commands are asked" },
  { value: "all", label: "All", hint: "everything runs without asking" },
];

const envVar: Record<string, string> = { anthropic: "ANTHROPIC_API_KEY", openai: "OPENAI_API_KEY", compatible: "OPENAI_API_KEY" };

/** "Set by X, which overrides this field." when a value comes from outside Settings. */
function Override({ view, field }: { view: SettingsView; field: string }) {
  const src = view.source?.[field];
  if (src !== "env" && src !== "dotenv") return null;
  const from = view.sourceFrom?.[field];
  return (
    <span className="hint" data-testid={`settings-${field}-source`}>
      {from ? <code>{from}</code> : src === "env" ? "The environment" : "A .env file"} sets this and overrides what you save here.
    </span>
  );
}

function Form({ view }: { view: SettingsView }) {
  const c = useController();
  const project = useApp((s) => s.project);
  const [f, setF] = useState<SettingsForm>(() => formFromView(view));
  const [errors, setErrors] = useState<FormErrors>({});
  const [saveState, setSaveState] = useState<{ s: "idle" | "saving" | "saved" } | { s: "failed"; error: string }>({ s: "idle" });
  const [models, setModels] = useState<string[]>([]);
  const set = <K extends keyof SettingsForm>(k: K, val: SettingsForm[K]) => {
    setF((x) => ({ ...x, [k]: val }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };

  const modelQuery = useDebounced(`${f.provider}\n${f.baseUrl}\n${f.apiKey}`, 400);
  useEffect(() => {
    const [p = "", url = "", key = ""] = modelQuery.split("\n");
    if (url ? !isHttpUrl(url) : p === "compatible") return;
    let live = true;
    c.backend
      .listModels(backendProvider(p as ProviderChoice), url, key)
      .then((m) => live && setModels(m))
      .catch(() => live && setModels([]));
    return () => {
      live = false;
    };
  }, [c, modelQuery]);

  const keySrc = view.source?.apiKey;
  const keyEnv = keySrc === "env" || keySrc === "dotenv";
  const keySaved = view.hasKey && !f.clearKey;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = validate(f);
    setErrors(errs);
    if (Object.values(errs).some(Boolean)) return;
    setSaveState({ s: "saving" });
    try {
      await c.saveSettings(toInput(f));
      setSaveState({ s: "saved" });
      c.setDialog("none");
    } catch (err) {
      setSaveState({ s: "failed", error: errorText(err) });
    }
  };

  const presets = useMemo(() => compatiblePresets(view.presets ?? []), [view.presets]);
  const err = (k: keyof SettingsForm) =>
    errors[k] ? (
      <span className="field-error" id={`err-${k}`} role="alert">
        {errors[k]}
      </span>
    ) : null;

  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      {(view.warnings ?? []).map((w) => (
        <p key={w} className="warning" role="note">
          {w}
        </p>
      ))}
      <label className="field">
        <span>Provider</span>
        <select
          data-testid="settings-provider"
          value={f.provider}
          onChange={(e) => {
            const p = e.target.value as ProviderChoice;
            set("provider", p);
            // Move the base URL along unless the user typed one of their own.
            const known = !f.baseUrl || (view.presets ?? []).some((x) => x.baseUrl === f.baseUrl);
            if (known) set("baseUrl", defaultUrlFor(p, view.presets ?? []));
          }}
          autoFocus
        >
          <option value="anthropic">Anthropic</option>
          <option value="openai">OpenAI</option>
          <option value="compatible">OpenAI-compatible (Ollama, LM Studio, llama.cpp, OpenRouter…)</option>
        </select>
        <Override view={view} field="provider" />
      </label>

      {f.provider === "compatible" && presets.length > 0 && (
        <div className="field">
          <span>Presets</span>
          <div className="presets" role="group" aria-label="Server presets">
            {presets.map((p) => (
              <button
                key={p.name}
                type="button"
                className={`seg${f.baseUrl === p.baseUrl ? " on" : ""}`}
                aria-pressed={f.baseUrl === p.baseUrl}
                data-testid="settings-preset"
                onClick={() => {
                  set("baseUrl", p.baseUrl);
                  if (p.model && !f.model.trim()) set("model", p.model);
                }}
                title={p.baseUrl}
              >
                {p.name}
              </button>
            ))}
          </div>
        </div>
      )}

      <label className="field">
        <span>Base URL</span>
        <input
          data-testid="settings-base-url"
          type="url"
          value={f.baseUrl}
          placeholder={f.provider === "anthropic" ? "default: https://api.anthropic.com" : f.provider === "openai" ? "default: https://api.openai.com/v1" : "http://localhost:11434/v1"}
          aria-invalid={!!errors.baseUrl}
          aria-describedby={errors.baseUrl ? "err-baseUrl" : undefined}
          spellCheck={false}
          onChange={(e) => set("baseUrl", e.target.value)}
        />
        {err("baseUrl")}
        <Override view={view} field="baseUrl" />
      </label>

      <label className="field">
        <span>Model</span>
        <input
          data-testid="settings-model"
          type="text"
          list="model-options"
          value={f.model}
          placeholder={f.provider === "anthropic" ? "e.g. claude-sonnet-4-5" : "e.g. qwen2.5-coder:7b"}
          aria-invalid={!!errors.model}
          spellCheck={false}
          onChange={(e) => set("model", e.target.value)}
        />
        <datalist id="model-options">
          {models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        {err("model")}
        {models.length > 0 && <span className="hint">{models.length} models offered by the server.</span>}
        <Override view={view} field="model" />
      </label>

      {f.provider === "anthropic" && (
        <label className="field">
          <span>Extended thinking</span>
          <select
            data-testid="settings-thinking"
            value={f.thinking}
            aria-invalid={!!errors.thinking}
            aria-describedby={errors.thinking ? "err-thinking" : undefined}
            onChange={(e) => set("thinking", e.target.value)}
          >
            {thinkingOptions(f.thinking).map((o) => (
              <option key={o.value} value={String(o.value)}>
                {o.label}
              </option>
            ))}
          </select>
          <span className="hint">Claude thinks before it answers and between tool calls, up to this many tokens per call, billed as output.</span>
          {err("thinking")}
          <Override view={view} field="thinkingBudget" />
        </label>
      )}

      <label className="field">
        <span>API key</span>
        <input
          data-testid="settings-api-key"
          type="password"
          autoComplete="off"
          value={f.apiKey}
          disabled={f.clearKey}
          placeholder={keySaved ? `saved (${view.keyHint}) — type to replace` : f.provider === "compatible" ? "often not needed for local servers" : "paste your key"}
          onChange={(e) => set("apiKey", e.target.value)}
        />
        {keyEnv && (
          <span className="hint" data-testid="settings-key-env">
            <code>{view.sourceFrom?.apiKey || envVar[f.provider]}</code> provides the key{view.keyHint ? ` (${view.keyHint})` : ""}; it overrides a key saved here.
          </span>
        )}
        {view.hasKey && !keyEnv && (
          <label className="check">
            <input type="checkbox" checked={f.clearKey} onChange={(e) => set("clearKey", e.target.checked)} />
            Remove the saved key
          </label>
        )}
      </label>

      <fieldset className="field">
        <legend>Approval</legend>
        {modes.map((m) => (
          <label key={m.value} className="radio">
            <input type="radio" name="approval" value={m.value} checked={f.approvalMode === m.value} onChange={() => set("approvalMode", m.value)} data-testid={`settings-approval-${m.value}`} />
            <strong>{m.label}</strong> <span className="muted">— {m.hint}</span>
          </label>
        ))}
      </fieldset>

      <fieldset className="field budget">
        <legend>Budget per session (empty for none)</legend>
        <label>
          <span>Tokens</span>
          <input data-testid="settings-budget-tokens" inputMode="numeric" value={f.budgetTokens} aria-invalid={!!errors.budgetTokens} onChange={(e) => set("budgetTokens", e.target.value)} />
        </label>
        <label>
          <span>Dollars</span>
          <input data-testid="settings-budget-usd" inputMode="decimal" value={f.budgetUsd} aria-invalid={!!errors.budgetUsd} onChange={(e) => set("budgetUsd", e.target.value)} />
        </label>
        {err("budgetTokens")}
        {err("budgetUsd")}
      </fieldset>

      <label className="field">
        <span>Checkpoints</span>
        <span className="retention">
          <input
            data-testid="settings-retention"
            inputMode="numeric"
            value={f.retentionMb}
            aria-invalid={!!errors.retentionMb}
            aria-describedby={errors.retentionMb ? "err-retentionMb" : "retention-hint"}
            onChange={(e) => set("retentionMb", e.target.value)}
          />{" "}
          MiB kept per project
        </span>
        <span className="hint" id="retention-hint" data-testid="settings-retention-usage">
          {project ? `${formatMib(view.checkpointUsageBytes)} used by this project. ` : ""}
          The content of changed files, so changes can be shown and undone; the oldest sessions' content goes first.
        </span>
        {err("retentionMb")}
      </label>

      <label className="field">
        <span>MCP tool calls</span>
        <span className="retention">
          <input
            data-testid="settings-mcp-timeout"
            inputMode="numeric"
            value={f.mcpTimeout}
            aria-invalid={!!errors.mcpTimeout}
            aria-describedby={errors.mcpTimeout ? "err-mcpTimeout" : "mcp-timeout-hint"}
            onChange={(e) => set("mcpTimeout", e.target.value)}
          />{" "}
          seconds at most
        </span>
        <span className="hint" id="mcp-timeout-hint">
          After this, the call is given up (the server is told to cancel) and the model hears that it timed out.
        </span>
        {err("mcpTimeout")}
      </label>

      {project && <RulesEditor projectId={project.id} projectName={project.name || project.path} />}
      {project && <McpServersEditor />}

      {saveState.s === "failed" && <p className="error">Could not save: {saveState.error}</p>}
      <div className="modal-actions">
        <button type="button" onClick={() => c.setDialog("none")}>
          Cancel
        </button>
        <button type="submit" className="primary" data-testid="settings-save" disabled={saveState.s === "saving"}>
          {saveState.s === "saving" ? "Saving…" : "Save"}
        </button>
      </div>
    </form>
  );
}

export default function SettingsDialog() {
  const c = useController();
  const view = useApp((s) => s.settings);
  const status = useApp((s) => s.settingsStatus);
  const first = useRef(true);
  useEffect(() => {
    if (first.current && !view) void c.loadSettings();
    first.current = false;
  }, [c, view]);

  return (
    <Modal title="Settings" onClose={() => c.setDialog("none")} testId="settings-dialog" wide>
      {view ? <Form view={view} /> : status === "failed" ? <p className="error">Could not read the settings.</p> : <p>Loading…</p>}
    </Modal>
  );
}
