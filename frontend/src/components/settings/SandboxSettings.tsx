import { useEffect, useState } from "react";
import type { SandboxStatus } from "../../lib/wire.gen";
import { errorText } from "../../lib/format";
import { useController } from "../../state/context";

/**
 * Settings' sandbox part: whether commands run in the OS sandbox on this
 * machine (and if not, why and what to install), what the machine offers,
 * and the extra paths hidden from commands, saved on their own.
 */
export default function SandboxSettings() {
  const c = useController();
  const [status, setStatus] = useState<SandboxStatus | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [saved, setSaved] = useState<"idle" | "saving" | "saved">("idle");
  // A list the backend refuses: its sentence under the editor, which
  // keeps what the user typed so it can be corrected.
  const [refused, setRefused] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    c.backend
      .sandboxStatus()
      .then((s) => {
        if (!live) return;
        setStatus(s);
        setText(s.hidden.join("\n"));
      })
      .catch((err: unknown) => live && setFailed(errorText(err)));
    return () => {
      live = false;
    };
  }, [c]);

  const save = async () => {
    setSaved("saving");
    try {
      const s = await c.backend.setSandboxHidden(text.split("\n"));
      setStatus(s);
      setText(s.hidden.join("\n"));
      setRefused(null);
      setSaved("saved");
    } catch (err) {
      setRefused(errorText(err));
      setSaved("idle");
    }
  };

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
      <label className="field">
        <span>More paths to hide from commands, one per line</span>
        <textarea
          data-testid="sandbox-hidden"
          rows={3}
          value={text}
          placeholder={"~/.config/my-app\n/srv/keys"}
          onChange={(e) => {
            setText(e.target.value);
            setSaved("idle");
          }}
          aria-describedby="sandbox-hidden-hint"
        />
      </label>
      <p className="muted small-text" id="sandbox-hidden-hint">
        Always hidden: ~/.ssh, ~/.gnupg, ~/.aws, ~/.config/gcloud, ~/.kube, ~/.docker/config.json, ~/.netrc, keyrings and Pilot&apos;s own folder. Write absolute paths,
        or ~/ for your home folder.
      </p>
      {refused && (
        <p className="field-error" role="alert" data-testid="sandbox-hidden-error">
          {refused}
        </p>
      )}
      <div className="row">
        <button type="button" className="small" data-testid="sandbox-hidden-save" disabled={saved === "saving"} onClick={() => void save()}>
          Save hidden paths
        </button>
        {saved === "saved" && (
          <span className="muted" role="status">
            Saved; sessions whose sandbox starts from now on hide them.
          </span>
        )}
      </div>
    </fieldset>
  );
}
