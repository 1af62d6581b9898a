import { useCallback, useEffect, useState } from "react";
import type { LanguageServer, LanguageServerConfig, LanguageServerState } from "../../lib/wire.gen";
import { errorText } from "../../lib/format";
import { useController } from "../../state/context";

const stateText: Record<LanguageServerState, string> = {
  missing: "not installed",
  found: "found",
  running: "running",
  failed: "failed",
};

/**
 * One language server: where it stands, where it is, its version, its last error, how to install it.
 * A missing one with an error was found only where Pilot does not run programs from (a relative PATH
 * entry, a project): the error says where.
 */
function ServerRow({ s }: { s: LanguageServer }) {
  return (
    <li className="language-server" data-testid="language-server" data-name={s.name} data-state={s.state}>
      <div className="ls-head">
        <span className={`badge ls-${s.state}`}>{s.state === "missing" && s.lastError ? "not run" : stateText[s.state]}</span>
        <code>{s.name}</code>
        <span className="grow muted">
          {(s.languages ?? []).join(", ")}
          {s.user && " · yours"}
        </span>
        {s.version && <span className="muted small-text">{s.version}</span>}
      </div>
      {s.path && (
        <p className="ls-detail muted">
          <code>{s.path}</code>
        </p>
      )}
      {s.state === "missing" && s.install && (
        <p className="ls-detail muted">
          Install it with <code>{s.install}</code>
        </p>
      )}
      {s.lastError && <p className="ls-detail ls-error">{s.lastError}</p>}
    </li>
  );
}

interface Row {
  name: string;
  command: string;
  patterns: string;
}

const toRow = (x: LanguageServerConfig): Row => ({ name: x.name, command: x.command.join(" "), patterns: x.patterns.join(", ") });
const fromRow = (r: Row): LanguageServerConfig => ({
  name: r.name.trim(),
  command: r.command.split(/\s+/).filter(Boolean),
  patterns: r.patterns.split(/[\s,]+/).filter(Boolean),
});

/**
 * Settings › Languages: the language servers whose diagnostics the agent
 * reads after each change (found on PATH or not, running, version, last
 * error), and the user's own servers, editable: a name, the command, the
 * files it serves.
 */
export default function LanguagesSection({ projectId }: { projectId: number }) {
  const c = useController();
  const [servers, setServers] = useState<LanguageServer[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [rows, setRows] = useState<Row[]>([]);
  const [saved, setSaved] = useState<"idle" | "saving" | "saved">("idle");
  const [refused, setRefused] = useState<string | null>(null);
  /** Why the user's own servers could not be read: saving would overwrite them, so it is off. */
  const [unread, setUnread] = useState<string | null>(null);

  const list = useCallback(() => {
    c.backend
      .languageServers(projectId)
      .then((s) => {
        setServers(s);
        setFailed(null);
      })
      .catch((err: unknown) => setFailed(errorText(err)));
  }, [c, projectId]);

  useEffect(() => {
    let live = true;
    list();
    c.backend
      .userLanguageServers()
      .then((u) => {
        if (!live) return;
        setRows(u.map(toRow));
        setUnread(null);
      })
      .catch((err: unknown) => live && setUnread(errorText(err)));
    return () => {
      live = false;
    };
  }, [c, list]);

  const edit = (i: number, k: keyof Row, v: string) => {
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, [k]: v } : r)));
    setSaved("idle");
  };

  const save = async () => {
    setSaved("saving");
    try {
      const u = await c.backend.setLanguageServers(rows.map(fromRow));
      setRows(u.map(toRow));
      setRefused(null);
      setSaved("saved");
      list();
    } catch (err) {
      setRefused(errorText(err));
      setSaved("idle");
    }
  };

  return (
    <div className="languages" data-testid="settings-languages">
      <p className="muted small-text">
        After each change the agent makes, Pilot asks the language server of the changed files for their errors and gives them to the agent with the change&apos;s result;
        the card shows them and the file tree marks the files with errors. Servers are found on your PATH, started when a session first reads or changes one of their files, and
        stopped when idle.
      </p>
      {failed ? (
        <p className="error">Could not list the language servers: {failed}</p>
      ) : !servers ? (
        <p className="muted">Looking for language servers…</p>
      ) : (
        <ul className="language-servers">
          {servers.map((s) => (
            <ServerRow key={s.name} s={s} />
          ))}
        </ul>
      )}
      <h4>Your own servers</h4>
      <p className="muted small-text">A server for other files, or one to use instead of the built-in one: its name, the command that starts it speaking LSP on stdin, and the files it serves (globs such as **/*.zig).</p>
      {rows.map((r, i) => (
        <div className="user-server-row" key={i} data-testid="user-language-server">
          <input aria-label="Name" placeholder="zls" value={r.name} onChange={(e) => edit(i, "name", e.target.value)} data-testid="user-language-server-name" />
          <input aria-label="Command" placeholder="zls --stdio" value={r.command} onChange={(e) => edit(i, "command", e.target.value)} data-testid="user-language-server-command" />
          <input aria-label="File patterns" placeholder="**/*.zig" value={r.patterns} onChange={(e) => edit(i, "patterns", e.target.value)} data-testid="user-language-server-patterns" />
          <button
            type="button"
            className="small"
            aria-label={`Remove ${r.name || "this server"}`}
            onClick={() => {
              setRows((rs) => rs.filter((_, j) => j !== i));
              setSaved("idle");
            }}
          >
            Remove
          </button>
        </div>
      ))}
      {unread && (
        <p className="error" role="alert">
          Could not read your language servers from the settings: {unread}. Saving is off so that they are not overwritten; fix or remove the
          settings file, then open Settings again.
        </p>
      )}
      {refused && (
        <p className="field-error" role="alert" data-testid="user-language-server-error">
          {refused}
        </p>
      )}
      <div className="ls-actions">
        <button
          type="button"
          className="small"
          data-testid="user-language-server-add"
          onClick={() => {
            setRows((rs) => [...rs, { name: "", command: "", patterns: "" }]);
            setSaved("idle");
          }}
        >
          Add a server
        </button>
        <button type="button" className="small" data-testid="user-language-server-save" disabled={saved === "saving" || unread !== null} onClick={() => void save()}>
          Save servers
        </button>
        {saved === "saved" && (
          <span className="muted" role="status">
            Saved; servers start again with the new list when a session next reads or changes a file.
          </span>
        )}
      </div>
    </div>
  );
}
