import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import type { SettingsView } from "../../lib/wire.gen";
import { errorText, formatMib } from "../../lib/format";
import { useDebounced } from "../../lib/useDebounced";
import { MODES } from "../../state/plan";
import { modeLabel, modeWhat } from "../plan/ModeSelect";
import AboutSection from "./AboutSection";
import { Section, SettingsNav, type SectionId } from "./SettingsNav";
import { useReportError } from "../../lib/useReportError";
import { useApp, useController } from "../../state/context";
import Modal from "../Modal";
import McpServersEditor from "./McpServersEditor";
import RulesEditor from "./RulesEditor";
import SandboxSettings from "./SandboxSettings";
import SetupSection from "./SetupSection";
import LanguagesSection from "./LanguagesSection";
import WebSection from "./WebSection";
import ModelsSection from "./ModelsSection";
import NumberField, { FieldError } from "./NumberField";
import ProviderField, { KeyField, Override } from "./ProviderField";
import { backendProvider, COMPATIBLE, formFromView, isHttpUrl, presetOf, protocolOf, thinkingOptions, toInput, validate, type FormErrors, type ProviderChoice, type SettingsForm } from "./validate";

/**
 * The sections of the side index, in order.
 */
const SECTIONS: SectionId[] = ["provider", "models", "approvals", "sandbox", "mcp", "setup", "languages", "web", "notifications", "helpers", "about"];

function Form({ view }: { view: SettingsView }) {
  const c = useController();
  const project = useApp((s) => s.project);
  const at = useApp((s) => s.settingsAt);
  const start = SECTIONS.find((id) => id === at);
  const scroller = useRef<HTMLDivElement>(null);
  const [f, setF] = useState<SettingsForm>(() => formFromView(view));
  const [errors, setErrors] = useState<FormErrors>({});
  const [saveState, setSaveState] = useState<{ s: "idle" | "saving" | "saved" } | { s: "failed"; error: string }>({ s: "idle" });
  // The model list of one query (provider, base URL, key); shown only
  // while the form still asks that, so a stale answer never shows.
  const [listed, setListed] = useState<{ q: string } & ({ s: "idle" | "loading" } | { s: "ok"; list: string[] } | { s: "failed"; error: string })>({ q: "", s: "idle" });
  const set = <K extends keyof SettingsForm>(k: K, val: SettingsForm[K]) => {
    setF((x) => ({ ...x, [k]: val }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };
  const presets = useMemo(() => view.presets ?? [], [view.presets]);
  const preset = presetOf(f.provider, presets);
  const protocol = protocolOf(f.provider, presets);

  // The chosen server's models: asked again (debounced) when the provider,
  // base URL or typed key changes; a model not listed can still be typed.
  const query = `${f.provider}\n${f.baseUrl}\n${f.apiKey}`;
  const modelQuery = useDebounced(query, 400);
  useEffect(() => {
    const [p = "", url = "", key = ""] = modelQuery.split("\n");
    if (url ? !isHttpUrl(url) : p === COMPATIBLE) {
      setListed({ q: modelQuery, s: "idle" });
      return;
    }
    let live = true;
    setListed({ q: modelQuery, s: "loading" });
    c.backend
      .listModels(backendProvider(p), url, key)
      .then((list) => live && setListed({ q: modelQuery, s: "ok", list }))
      .catch((err: unknown) => live && setListed({ q: modelQuery, s: "failed", error: errorText(err) }));
    return () => {
      live = false;
    };
  }, [c, modelQuery]);
  const models = listed.q === query ? listed : { q: query, s: "loading" as const };
  const modelList = models.s === "ok" ? models.list : [];

  useReportError("settings", saveState.s === "failed" ? `Could not save: ${saveState.error}` : null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = validate(f, presets);
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

  /** A number field's part that comes from the form. */
  const number = (name: "retentionMb" | "mcpTimeout" | "helpers" | "jobs") => ({ name, value: f[name], error: errors[name], onChange: (v: string) => set(name, v) });
  const err = (k: keyof SettingsForm) => <FieldError name={k} error={errors[k]} />;

  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      <div className="settings-layout">
        <SettingsNav sections={SECTIONS} scroller={scroller} start={start} />
        <div className="settings-sections" ref={scroller}>
          {(view.warnings ?? []).map((w) => (
            <p key={w} className="warning" role="note">
              {w}
            </p>
          ))}
          <Section id="provider">
            <ProviderField
              view={view}
              presets={presets}
              value={f.provider}
              onChange={(p: ProviderChoice, baseUrl: string, model: string) => {
                setF((x) => ({ ...x, provider: p, baseUrl, model, apiKey: "", clearKey: false }));
                setErrors({});
              }}
            />

            <label className="field">
              <span>Base URL</span>
              <input
                data-testid="settings-base-url"
                type="url"
                value={f.baseUrl}
                placeholder={preset ? `default: ${preset.baseUrl}` : "e.g. http://localhost:11434/v1"}
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
                placeholder={preset?.model ? `e.g. ${preset.model}` : "e.g. qwen2.5-coder:7b"}
                aria-invalid={!!errors.model}
                spellCheck={false}
                onChange={(e) => set("model", e.target.value)}
              />
              <datalist id="model-options">
                {modelList.map((m) => (
                  <option key={m} value={m} />
                ))}
              </datalist>
              {err("model")}
              {models.s === "loading" && <span className="hint">Asking the server for its models…</span>}
              {models.s === "ok" && (
                <span className="hint" data-testid="settings-models">
                  {models.list.length === 1
                    ? "The server offers 1 model; one not listed can be typed."
                    : models.list.length > 0
                      ? `The server offers ${models.list.length} models; one not listed can be typed.`
                      : "The server lists no models; type the model's id."}
                </span>
              )}
              {models.s === "failed" && (
                <span className="field-error" role="note" data-testid="settings-models-error">
                  Could not list the models: {models.error} You can still type a model id.
                </span>
              )}
              <Override view={view} field="model" />
            </label>

            {protocol === "anthropic" && (
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

            <KeyField view={view} choice={f.provider} preset={preset} apiKey={f.apiKey} clearKey={f.clearKey} onKey={(k) => set("apiKey", k)} onClear={(v) => set("clearKey", v)} />

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
          </Section>

          <Section id="models">
            <ModelsSection view={view} offered={modelList} />
          </Section>

          <Section id="approvals">
            <fieldset className="field" data-testid="settings-default-mode">
              <legend>Default mode</legend>
              <p className="hint" id="default-mode-hint">
                New sessions start in this mode; each session can change its own mode in the chat.
              </p>
              {MODES.map((m) => (
                <label key={m} className="radio">
                  <input
                    type="radio"
                    name="approval"
                    value={m}
                    checked={f.approvalMode === m}
                    onChange={() => set("approvalMode", m)}
                    data-testid={`settings-approval-${m}`}
                    aria-describedby="default-mode-hint"
                  />
                  <strong>{modeLabel[m]}</strong> <span className="muted">— {modeWhat[m]}</span>
                </label>
              ))}
            </fieldset>

            <NumberField {...number("retentionMb")} label="Checkpoints" testId="settings-retention" unit="MiB kept per project" hintId="retention-hint" hintTestId="settings-retention-usage">
              {project ? `${formatMib(view.checkpointUsageBytes)} used by this project. ` : ""}
              The content of changed files, so changes can be shown and undone; the oldest sessions' content goes first.
            </NumberField>

            {project && <RulesEditor projectId={project.id} projectName={project.name || project.path} />}
          </Section>

          <Section id="sandbox">
            <SandboxSettings />
          </Section>

          <Section id="mcp">
            {project ? <McpServersEditor /> : <p className="muted">Open a project to see and add its MCP servers.</p>}
            <NumberField {...number("mcpTimeout")} label="MCP tool calls" testId="settings-mcp-timeout" unit="seconds at most" hintId="mcp-timeout-hint">
              After this, the call is given up (the server is told to cancel) and the model hears that it timed out.
            </NumberField>
          </Section>

          <Section id="setup">
            {project ? <SetupSection projectId={project.id} /> : <p className="muted">Open a project to see the hooks, skills, rules, MCP servers and commands Pilot found for it.</p>}
          </Section>

          <Section id="languages">
            <LanguagesSection projectId={project?.id ?? 0} />
          </Section>

          <Section id="web">
            <WebSection />
          </Section>

          <Section id="notifications">
            <label className="check">
              <span>
                <input type="checkbox" data-testid="settings-notifications" checked={f.notifications} onChange={(e) => set("notifications", e.target.checked)} /> Tell me when a change or command
                waits for approval, or a turn ends, while the window is not in front
              </span>
            </label>
          </Section>

          <Section id="helpers">
            <NumberField {...number("helpers")} label="Helpers" testId="settings-helpers" unit="at once" hintId="helpers-hint">
              Read-only helper agents the model starts with the task tool to search widely; more at once finish sooner and spend the same tokens faster.
            </NumberField>
            <NumberField {...number("jobs")} label="Background jobs" testId="settings-jobs" unit="running at once per session" hintId="jobs-hint">
              Servers and watchers the model starts with run_bash in the background. Past this many running, it is told which jobs run and can stop one.
            </NumberField>
          </Section>

          <Section id="about">
            <AboutSection />
          </Section>
        </div>
      </div>

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
  useReportError("settings", !view && status === "failed" ? "Could not read the settings." : null);
  useEffect(() => {
    if (first.current && !view) void c.loadSettings();
    first.current = false;
  }, [c, view]);

  return (
    <Modal title="Settings" onClose={() => c.setDialog("none")} testId="settings-dialog" wide className="settings-modal">
      {view ? <Form view={view} /> : status === "failed" ? <p className="error">Could not read the settings.</p> : <p>Loading…</p>}
    </Modal>
  );
}
