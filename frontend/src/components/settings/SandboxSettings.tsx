import { useEffect, useState } from "react";
import type { SandboxStatus } from "../../lib/wire.gen";
import { errorText } from "../../lib/format";
import { useRead } from "../../lib/useRead";
import { useController } from "../../state/context";

/** The secrets always hidden from commands, as Settings names them (backend/sandbox DefaultHidden). */
const alwaysHidden =
  "~/.ssh, ~/.gnupg, ~/.aws, ~/.azure, ~/.config/gcloud, ~/.kube, ~/.docker/config.json, ~/.netrc, ~/.git-credentials, ~/.npmrc, ~/.pypirc, " +
  "~/.cargo/credentials.toml, ~/.gem/credentials, the logins of Claude Code, Codex and other tools, browser profiles, shell and REPL histories, keyrings and Pilot's own folder";

/** The sandbox's lists of paths the user edits: the extra hidden paths, the sockets commands may connect to. */
type ListName = "hidden" | "sockets";

interface PathListProps {
  /** The list; the test id of its textarea is sandbox-NAME, of its save button and error sandbox-NAME-save, sandbox-NAME-error. */
  list: ListName;
  status: SandboxStatus;
  label: string;
  placeholder: string;
  hint: string;
  savedText: string;
  saveLabel: string;
  onSaved: (s: SandboxStatus) => void;
}

/** One list of paths, one per line, saved on its own; a refused list keeps what the user typed, with the backend's sentence. */
function PathList({ list, status, label, placeholder, hint, savedText, saveLabel, onSaved }: PathListProps) {
  const c = useController();
  const testId = `sandbox-${list}`;
  const paths = status[list];
  const [text, setText] = useState(paths.join("\n"));
  const [saved, setSaved] = useState<"idle" | "saving" | "saved">("idle");
  const [refused, setRefused] = useState<string | null>(null);
  // Another list saved gives a new status: this one's text changes only
  // when its saved paths do, so an edit not saved yet is kept.
  const savedPaths = paths.join("\n");
  useEffect(() => setText(savedPaths), [savedPaths]);

  const onSave = async () => {
    setSaved("saving");
    try {
      const lines = text.split("\n");
      const s = await (list === "hidden" ? c.backend.setSandboxHidden(lines) : c.backend.setSandboxSockets(lines));
      setText(s[list].join("\n"));
      onSaved(s);
      setRefused(null);
      setSaved("saved");
    } catch (err) {
      setRefused(errorText(err));
      setSaved("idle");
    }
  };

  return (
    <>
      <label className="field">
        <span>{label}</span>
        <textarea
          data-testid={`sandbox-${list}`}
          rows={3}
          value={text}
          placeholder={placeholder}
          onChange={(e) => {
            setText(e.target.value);
            setSaved("idle");
          }}
          aria-describedby={`${testId}-hint`}
        />
      </label>
      <p className="muted small-text" id={`${testId}-hint`}>
        {hint}
      </p>
      {refused && (
        <p className="field-error" role="alert" data-testid={`${testId}-error`}>
          {refused}
        </p>
      )}
      <div className="row">
        <button type="button" className="small" data-testid={`${testId}-save`} disabled={saved === "saving"} onClick={() => void onSave()}>
          {saveLabel}
        </button>
        {saved === "saved" && (
          <span className="muted" role="status">
            {savedText}
          </span>
        )}
      </div>
    </>
  );
}

/**
 * Settings' sandbox part: whether commands run in the OS sandbox on this
 * machine (and if not, why and what to install), what the machine offers,
 * the extra paths hidden from commands and the host's unix sockets they
 * may connect to, each list saved on its own.
 */
export default function SandboxSettings() {
  const c = useController();
  const { value: status, error: failed, set: setStatus } = useRead(() => c.backend.sandboxStatus(), [c]);

  return (
    <fieldset className="sandbox" data-testid="settings-sandbox">
      <legend>Sandbox for commands</legend>
      {failed ? (
        <p className="error" data-testid="sandbox-state" data-state="unavailable">
          Could not check the sandbox: {failed}
        </p>
      ) : !status ? (
        <p className="muted">Checking the sandbox…</p>
      ) : (
        <div data-testid="sandbox-state" data-state={status.ready ? "ready" : "unavailable"}>
          {status.ready ? (
            <p>
              <span className="badge sandbox-badge">ready</span> Commands run in the sandbox: the project and a private temporary folder are writable, the rest of
              the file system is read-only, your secrets are hidden, and the network is reached only through Pilot&apos;s proxy, to hosts you allow. In{" "}
              <em>edits</em> mode they run without asking.
            </p>
          ) : (
            <p>
              <span className="badge sandbox-unavailable">unavailable</span> <span data-testid="sandbox-why">{status.why}</span> Until then, commands are
              asked as before in <em>edits</em> mode, and each card says it did not run in the sandbox.
            </p>
          )}
          <ul className="muted small-text sandbox-facts">
            <li data-testid="sandbox-bwrap">
              bubblewrap: {status.bwrap ? `${status.bwrap}${status.bwrapVersion ? ` (${status.bwrapVersion})` : ""}` : "not found"}
            </li>
            {status.userNamespaces && <li data-testid="sandbox-userns">User namespaces: {status.userNamespaces}</li>}
            <li data-testid="sandbox-landlock">Landlock: {status.landlockAbi > 0 ? `ABI ${status.landlockAbi}` : "not available"}</li>
          </ul>
        </div>
      )}
      {status && (
        <>
          <PathList
            list="hidden"
            status={status}
            label="More paths to hide from commands, one per line"
            placeholder={"~/.config/my-app\n/srv/keys"}
            hint={`Always hidden: ${alwaysHidden}. Write absolute paths, or ~/ for your home folder.`}
            savedText="Saved; sessions whose sandbox starts from now on hide them."
            saveLabel="Save hidden paths"
            onSaved={setStatus}
          />
          <PathList
            list="sockets"
            status={status}
            label="Unix sockets commands may connect to, one per line"
            placeholder={"~/.docker/run/docker.sock\n~/.colima"}
            hint={
              "Every other unix socket under your home folder (Docker Desktop's, Colima's, Podman's, 1Password's agent…) is covered when a session's sandbox " +
              "starts: a command cannot connect to it, since the program behind it acts with your rights. A socket made after that is covered from the " +
              "session's next sandbox on. A folder allows the sockets under it."
            }
            savedText="Saved; sessions whose sandbox starts from now on may connect to them."
            saveLabel="Save sockets"
            onSaved={setStatus}
          />
        </>
      )}
    </fieldset>
  );
}
