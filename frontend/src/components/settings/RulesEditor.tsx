import { useEffect, useState, type ChangeEvent } from "react";
import type { ImportedRules, Rule, RuleEffect } from "../../lib/wire.gen";
import { errorText } from "../../lib/format";
import { useReportError } from "../../lib/useReportError";
import { useController } from "../../state/context";

const TOOLS = ["edits", "write_file", "patch_file", "multi_patch", "run_bash", "web_fetch", "read_file", "list_files", "glob", "grep"];

export default function RulesEditor({ projectId, projectName }: { projectId: number; projectName: string }) {
  const c = useController();
  const [rules, setRules] = useState<Rule[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useReportError("settings", error);
  const [tool, setTool] = useState("run_bash");
  const [pattern, setPattern] = useState("");
  const [effect, setEffect] = useState<RuleEffect>("allow");
  // A rule the backend refuses (bad pattern, unknown tool, empty
  // pattern): its sentence under the form, which keeps what the user
  // typed so it can be corrected.
  const [refused, setRefused] = useState<string | null>(null);

  const [imported, setImported] = useState<ImportedRules | null>(null);

  useEffect(() => {
    let live = true;
    c.backend
      .listRules(projectId)
      .then((r) => live && setRules(r))
      .catch((err: unknown) => live && setError(errorText(err)));
    c.backend
      .importedRules(projectId)
      .then((r) => live && setImported(r))
      .catch((err: unknown) => live && setError(errorText(err)));
    return () => {
      live = false;
    };
  }, [c, projectId]);

  const add = async () => {
    if (!pattern.trim() || !tool.trim()) return;
    try {
      const r = await c.backend.addRule(projectId, tool.trim(), pattern.trim(), effect);
      setRules((x) => [...(x ?? []).filter((y) => y.id !== r.id), r]);
      setPattern("");
      setRefused(null);
    } catch (err) {
      setRefused(errorText(err));
    }
  };

  /** What the tool and the pattern inputs share: typing in either clears the refusal, which describes both while shown. */
  const edited = (value: string, set: (v: string) => void) => ({
    value,
    "aria-invalid": refused ? true : undefined,
    "aria-describedby": refused ? "rule-error" : undefined,
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      set(e.target.value);
      setRefused(null);
    },
  });

  const remove = async (id: number) => {
    try {
      await c.backend.deleteRule(projectId, id);
      setRules((x) => (x ?? []).filter((r) => r.id !== id));
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <fieldset className="rules" data-testid="settings-rules">
      <legend>Permission rules for {projectName}</legend>
      <p className="muted small-text">
        A rule allows or denies a tool on paths (or commands) matching a pattern like <code>src/**/*.ts</code> or <code>go test *</code>; an MCP tool is{" "}
        <code>mcp__server__tool</code> with <code>*</code>, or <code>mcp__server</code> with a pattern on its tool names; <code>web_fetch</code> takes a host such as{" "}
        <code>*.github.com</code> (a private or local address is fetched only with such a rule). The rules of Claude Code&apos;s and Pilot&apos;s{" "}
        <code>settings.json</code> files are listed below Pilot&apos;s own, with their file; edit them there.
      </p>
      {error && <p className="error">{error}</p>}
      {rules === null && !error && <p className="empty">Loading rules…</p>}
      {rules && rules.length === 0 && <p className="empty">No rules: every change and command is asked for.</p>}
      {rules && rules.length > 0 && (
        <ul className="rule-list">
          {rules.map((r) => (
            <li key={r.id} data-testid="rule-item" data-invalid={r.invalid ? "true" : "false"} className={r.invalid ? "invalid" : undefined}>
              <div className="rule-row">
                <span className={`badge ${r.effect === "allow" ? "add" : "del"}`}>{r.effect}</span>
                <code>{r.tool}</code>
                <code className="grow">{r.pattern}</code>
                {r.invalid && <span className="badge invalid">⚠ never matches</span>}
                <button type="button" className="icon" aria-label={`Remove rule ${r.tool} ${r.pattern}`} onClick={() => void remove(r.id)}>
                  ×
                </button>
              </div>
              {r.invalid && (
                <p className="rule-problem" data-testid="rule-problem">
                  {r.invalid} Remove it and add it again corrected.
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      {imported && <ImportedList imported={imported} />}
      {/* Not a <form>: the rules sit inside the Settings form, and forms do not nest. Enter in the pattern adds the rule. */}
      <div className="rule-form" role="group" aria-label="Add a rule">
        <input
          aria-label="Tool"
          list="rule-tools"
          className="rule-tool"
          {...edited(tool, setTool)}
        />
        <datalist id="rule-tools">
          {TOOLS.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <input
          aria-label="Pattern"
          placeholder="pattern, e.g. src/**"
          {...edited(pattern, setPattern)}
          onKeyDown={(e) => {
            if (e.key !== "Enter") return;
            e.preventDefault(); // not the Settings form's submit
            void add();
          }}
        />
        <select
          aria-label="Effect"
          value={effect}
          onChange={(e) => {
            setEffect(e.target.value === "deny" ? "deny" : "allow");
            setRefused(null);
          }}
        >
          <option value="allow">allow</option>
          <option value="deny">deny</option>
        </select>
        <button type="button" className="small" disabled={!pattern.trim() || !tool.trim()} onClick={() => void add()}>
          Add rule
        </button>
      </div>
      {refused && (
        <p className="field-error" id="rule-error" data-testid="rule-error" role="alert">
          {refused}
        </p>
      )}
    </fieldset>
  );
}

/** The badge class of an effect: allow green, deny red, ask neutral. */
function effectClass(effect: string): string {
  return effect === "allow" ? "add" : effect === "deny" ? "del" : "ask";
}

/**
 * The rules the settings files bring (Claude Code's and Pilot's
 * settings.json), grouped by file with their scope, beside Pilot's own:
 * each with the entry it comes from, and, for an allow rule of a project
 * file not trusted, that it does not apply. Then the entries Pilot
 * ignores, each with the reason. Edit the files themselves to change them.
 */
function ImportedList({ imported }: { imported: ImportedRules }) {
  if (imported.rules.length === 0 && imported.ignored.length === 0) return null;
  const files = [...new Set(imported.rules.map((r) => r.file))];
  return (
    <div className="imported-rules" data-testid="imported-rules">
      {files.map((file) => {
        const rs = imported.rules.filter((r) => r.file === file);
        return (
          <div key={file} className="imported-file">
            <p className="muted small-text">
              From <code>{file}</code> ({rs[0].scope})
            </p>
            <ul className="rule-list">
              {rs.map((r, i) => (
                <li key={i} data-testid="rule-item" data-invalid="false" data-file={r.file} data-applies={r.applies ? "true" : "false"}>
                  <div className="rule-row">
                    <span className={`badge ${effectClass(r.effect)}`}>{r.effect}</span>
                    <code>{r.tool}</code>
                    <code className="grow">{r.pattern}</code>
                    <span className="muted small-text" title={`as the file writes it: ${r.entry}`}>
                      {r.entry}
                    </span>
                    {!r.applies && <span className="badge invalid">not applied</span>}
                  </div>
                  {!r.applies && <p className="rule-problem">{r.notApplied}</p>}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
      {imported.ignored.length > 0 && (
        <div className="imported-file">
          <p className="muted small-text">Ignored entries of settings files:</p>
          <ul className="rule-list">
            {imported.ignored.map((g, i) => (
              <li key={i} data-testid="rule-item" data-invalid="true" data-file={g.file} className="invalid">
                <div className="rule-row">
                  {g.effect && <span className={`badge ${effectClass(g.effect)}`}>{g.effect}</span>}
                  <code className="grow">{g.entry || g.file}</code>
                  <span className="badge invalid">ignored</span>
                </div>
                <p className="rule-problem" data-testid="rule-problem">
                  {g.reason} <span className="muted">({g.file})</span>
                </p>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
