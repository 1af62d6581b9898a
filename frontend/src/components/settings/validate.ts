import type { ApprovalMode, Preset, SettingsInput, SettingsView } from "../../lib/wire.gen";

/**
 * A preset's id ("anthropic", "openai", "deepseek", "ollama"…), or
 * "compatible": any other OpenAI-compatible server, saved as "openai" with
 * its base URL.
 */
export type ProviderChoice = string;

export const COMPATIBLE = "compatible";

export interface SettingsForm {
  provider: ProviderChoice;
  model: string;
  baseUrl: string;
  apiKey: string;
  clearKey: boolean;
  approvalMode: ApprovalMode;
  /** Extended thinking budget in tokens, "0" for off (Anthropic only). */
  thinking: string;
  budgetTokens: string;
  budgetUsd: string;
  /** Checkpoint content kept per project, in MiB. */
  retentionMb: string;
  mcpTimeout: string;
  /** Helpers (task calls) of a turn running at once. */
  helpers: string;
  /** Background jobs one session may run at once. */
  jobs: string;
  /** Desktop notifications when an approval waits or a turn ends out of sight. */
  notifications: boolean;
}

/** The least checkpoint content a project may keep: below it, undo would forget too soon. */
export const MIN_RETENTION_MB = 10;

/** Anthropic's smallest thinking budget. */
export const MIN_THINKING = 1024;

/**
 * The budgets the Settings dialog offers. 32k is 31,999 tokens: a budget
 * must stay below what the model writes per answer, 32,000 for Claude Opus 4
 * and 4.1.
 */
export const thinkingPresets: { value: number; label: string }[] = [
  { value: 0, label: "Off" },
  { value: 4096, label: "4k tokens" },
  { value: 16384, label: "16k tokens" },
  { value: 31999, label: "32k tokens" },
];

/** The presets, and the budget in force when it is none of them (set in settings.json or the environment). */
export function thinkingOptions(current: string): { value: number; label: string }[] {
  const n = Number(current);
  if (!Number.isSafeInteger(n) || thinkingPresets.some((p) => p.value === n)) return thinkingPresets;
  return [...thinkingPresets, { value: n, label: `${n.toLocaleString("en-US")} tokens` }];
}

export type FormErrors = Partial<Record<keyof SettingsForm, string>>;

const OPENAI_URL = /^https:\/\/api\.openai\.com(\/|$)/;

/** The preset of a choice ("compatible" has none). */
export function presetOf(choice: ProviderChoice, presets: Preset[]): Preset | undefined {
  return choice === COMPATIBLE ? undefined : presets.find((p) => p.id === choice);
}

/** The protocol a choice speaks: "anthropic" or "openai". */
export function protocolOf(choice: ProviderChoice, presets: Preset[]): string {
  return presetOf(choice, presets)?.provider ?? (choice === "anthropic" ? "anthropic" : "openai");
}

/** The base URL to show after switching to a choice: the one saved for it, else its own. */
export function defaultUrlFor(choice: ProviderChoice, presets: Preset[]): string {
  const p = presetOf(choice, presets);
  return p ? (p.savedBaseUrl ?? p.baseUrl) : "";
}

export function formFromView(v: SettingsView): SettingsForm {
  const compatible = v.provider === "openai" && v.baseUrl !== "" && !OPENAI_URL.test(v.baseUrl);
  return {
    provider: compatible ? COMPATIBLE : v.provider,
    model: v.model,
    baseUrl: v.baseUrl,
    apiKey: "",
    clearKey: false,
    approvalMode: v.approvalMode,
    thinking: String(v.thinkingBudget),
    budgetTokens: v.budgetTokens ? String(v.budgetTokens) : "",
    budgetUsd: v.budgetUsd ? String(v.budgetUsd) : "",
    retentionMb: String(v.checkpointRetentionMb),
    mcpTimeout: String(v.mcpTimeoutSeconds || 60),
    helpers: String(v.helperConcurrency || 3),
    jobs: String(v.jobsPerSession || 3),
    notifications: v.notifications,
  };
}

/** The provider the backend saves for a choice: another OpenAI-compatible server is "openai". */
export function backendProvider(p: ProviderChoice): string {
  return p === COMPATIBLE ? "openai" : p;
}

export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && !!u.hostname;
  } catch {
    return false;
  }
}

export function validate(f: SettingsForm, presets: Preset[] = []): FormErrors {
  const e: FormErrors = {};
  const url = f.baseUrl.trim();
  if (url) {
    if (!isHttpUrl(url)) e.baseUrl = "The base URL must start with http:// or https://, e.g. http://localhost:11434/v1.";
  } else if (f.provider === COMPATIBLE) {
    e.baseUrl = "An OpenAI-compatible server needs its base URL; pick a preset or type one.";
  }
  // Only Anthropic thinks with a budget; other providers keep the saved one.
  const thinking = Number(f.thinking);
  if (protocolOf(f.provider, presets) === "anthropic" && (!Number.isSafeInteger(thinking) || (thinking !== 0 && thinking < MIN_THINKING)))
    e.thinking = `The thinking budget must be 0 (off) or at least ${MIN_THINKING} tokens.`;
  const tok = f.budgetTokens.trim();
  if (tok && !(/^\d+$/.test(tok) && Number.isSafeInteger(Number(tok)))) e.budgetTokens = "The token budget must be a whole number, 0 or more (empty for none).";
  const usd = f.budgetUsd.trim();
  if (usd && !(Number.isFinite(Number(usd)) && Number(usd) >= 0)) e.budgetUsd = "The dollar budget must be a number, 0 or more (empty for none).";
  const mb = f.retentionMb.trim();
  if (!(/^\d+$/.test(mb) && Number.isSafeInteger(Number(mb)) && Number(mb) >= MIN_RETENTION_MB))
    e.retentionMb = `Keep at least ${MIN_RETENTION_MB} MiB of checkpoints per project (a whole number of MiB).`;
  const t = f.mcpTimeout.trim();
  if (!(/^\d+$/.test(t) && Number(t) >= 1 && Number(t) <= 3600)) e.mcpTimeout = "The MCP call timeout must be 1 to 3600 seconds.";
  const hc = f.helpers.trim();
  if (!(/^\d+$/.test(hc) && Number(hc) >= 1 && Number(hc) <= 8)) e.helpers = "Helpers at once must be 1 to 8.";
  const jb = f.jobs.trim();
  if (!(/^\d+$/.test(jb) && Number(jb) >= 1 && Number(jb) <= 20)) e.jobs = "Background jobs per session must be 1 to 20.";
  if (f.model.trim().length > 200) e.model = "That model id is too long.";
  return e;
}

export function toInput(f: SettingsForm): SettingsInput {
  return {
    provider: backendProvider(f.provider),
    model: f.model.trim(),
    baseUrl: f.baseUrl.trim(),
    apiKey: f.clearKey ? "" : f.apiKey.trim(),
    clearKey: f.clearKey,
    approvalMode: f.approvalMode,
    thinkingBudget: Number(f.thinking) || 0,
    budgetTokens: f.budgetTokens.trim() ? Number(f.budgetTokens.trim()) : 0,
    budgetUsd: f.budgetUsd.trim() ? Number(f.budgetUsd.trim()) : 0,
    checkpointRetentionMb: Number(f.retentionMb.trim()),
    mcpTimeoutSeconds: Number(f.mcpTimeout.trim()),
    helperConcurrency: Number(f.helpers.trim()),
    jobsPerSession: Number(f.jobs.trim()),
    notifications: f.notifications,
  };
}
