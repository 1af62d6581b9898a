import type { Preset, SettingsView } from "../../lib/wire.gen";
import { backendProvider, COMPATIBLE, defaultUrlFor, formFromView, presetOf, type ProviderChoice } from "./validate";

/** Where a value comes from: "X sets this and overrides what you save here.", "Saved here." or Pilot's default. */
export function Override({ view, field }: { view: SettingsView; field: string }) {
  const src = view.source?.[field];
  if (src === "settings" || src === "default")
    return (
      <span className="hint source" data-testid={`settings-${field}-source`}>
        {src === "settings" ? "Saved here." : "Pilot's default: not set here or in the environment."}
      </span>
    );
  if (src !== "env" && src !== "dotenv") return null;
  const from = view.sourceFrom?.[field];
  return (
    <span className="hint" data-testid={`settings-${field}-source`}>
      {from ? <code>{from}</code> : src === "env" ? "The environment" : "A .env file"} sets this and overrides what you save here.
    </span>
  );
}

/** The presets of one kind (hosted, local) in the provider's list; nothing when there are none. */
function PresetGroup({ label, presets }: { label: string; presets: Preset[] }) {
  if (presets.length === 0) return null;
  return (
    <optgroup label={label}>
      {presets.map((p) => (
        <option key={p.id} value={p.id} data-testid="settings-preset">
          {p.name}
        </option>
      ))}
    </optgroup>
  );
}

/**
 * The provider: every preset (hosted services, then servers on this
 * machine), and any other OpenAI-compatible server. Choosing one moves the
 * base URL to the one saved for it (else its own) and the model to its
 * default, or back to what is saved when it is the saved provider.
 */
export default function ProviderField({
  view,
  presets,
  value,
  onChange,
}: {
  view: SettingsView;
  presets: Preset[];
  value: ProviderChoice;
  onChange: (p: ProviderChoice, baseUrl: string, model: string) => void;
}) {
  const hosted = presets.filter((p) => !p.local);
  const local = presets.filter((p) => p.local);
  const saved = formFromView(view);
  return (
    <label className="field">
      <span>Provider</span>
      <select
        data-testid="settings-provider"
        value={value}
        onChange={(e) => {
          const p = e.target.value;
          if (p === saved.provider) return onChange(p, saved.baseUrl, saved.model);
          if (p === COMPATIBLE) return onChange(p, "", "");
          onChange(p, defaultUrlFor(p, presets), presetOf(p, presets)?.model ?? "");
        }}
        autoFocus
      >
        {presets.length === 0 && (
          <>
            <option value="anthropic">Anthropic</option>
            <option value="openai">OpenAI</option>
          </>
        )}
        <PresetGroup label="Services" presets={hosted} />
        <PresetGroup label="On this machine" presets={local} />
        <option value={COMPATIBLE}>Other OpenAI-compatible server</option>
      </select>
      <Override view={view} field="provider" />
    </label>
  );
}

/**
 * The API key of the chosen provider. Keys are kept per provider: this
 * says whether the chosen one's key comes from its environment variable or
 * is saved here, and which variable Pilot reads it from.
 */
export function KeyField({
  view,
  choice,
  preset,
  apiKey,
  clearKey,
  onKey,
  onClear,
}: {
  view: SettingsView;
  choice: ProviderChoice;
  preset: Preset | undefined;
  apiKey: string;
  clearKey: boolean;
  onKey: (k: string) => void;
  onClear: (v: boolean) => void;
}) {
  const id = backendProvider(choice);
  const keyPreset = preset ?? view.presets?.find((p) => p.id === id);
  const current = id === view.provider;
  const source = current ? view.source?.apiKey : keyPreset?.keySource;
  const from = (current ? view.sourceFrom?.apiKey : undefined) || keyPreset?.keyEnv;
  const hint = current ? view.keyHint : keyPreset?.keyHint;
  const fromEnv = source === "env" || source === "dotenv";
  const saved = (current ? view.hasKey && !fromEnv : source === "settings") && !clearKey;
  const name = keyPreset?.name ?? "this server";
  return (
    <label className="field">
      <span>API key</span>
      <input
        data-testid="settings-api-key"
        type="password"
        autoComplete="off"
        value={apiKey}
        disabled={clearKey}
        placeholder={
          fromEnv
            ? `from ${from} (${hint}); a key typed here is saved for when it is not set`
            : saved
              ? `saved (${hint}) — type to replace`
              : keyPreset?.needsKey === false || choice === COMPATIBLE
                ? "often not needed for local servers"
                : "paste your key"
        }
        onChange={(e) => onKey(e.target.value)}
      />
      {fromEnv ? (
        <span className="hint" data-testid="settings-key-env">
          <code>{from}</code> provides the key{hint ? ` (${hint})` : ""}; it overrides a key saved here.
        </span>
      ) : (
        <span className="hint" data-testid="settings-key-var">
          {keyPreset?.keyEnv ? (
            <>
              {name}&apos;s key is read from <code>{keyPreset.keyEnv}</code> when it is set, else the key saved here{saved ? "" : " (none is saved)"}.
            </>
          ) : (
            <>{name} usually needs no key; one saved here is sent as a bearer token.</>
          )}
        </span>
      )}
      {(saved || clearKey) && !fromEnv && (
        <label className="check">
          <input type="checkbox" checked={clearKey} onChange={(e) => onClear(e.target.checked)} />
          Remove the saved key
        </label>
      )}
    </label>
  );
}
