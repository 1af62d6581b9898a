import { useCallback, useEffect, useState } from "react";
import type { McpTrustPrompt } from "../../lib/types";
import { errorText } from "../../lib/format";
import { useApp, useController } from "../../state/context";
import Modal from "../Modal";

/**
 * Asks once per version of a project's .mcp.json whether its servers may
 * start, showing the exact command (or URL) of each. Nothing of the file
 * runs before the user accepts.
 */
export default function McpTrust() {
  const c = useController();
  const project = useApp((s) => s.project);
  const [prompt, setPrompt] = useState<McpTrustPrompt | null>(null);
  const [dismissed, setDismissed] = useState<string>("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const check = useCallback(() => {
    c.backend
      .mcpTrustPrompt()
      .then((p) => setPrompt(p.needed ? p : null))
      .catch(() => setPrompt(null)); // no project open: nothing to trust
  }, [c]);
  useEffect(() => {
    if (!project) return;
    check();
    window.addEventListener("focus", check); // the file may have been edited meanwhile
    const off = c.backend.on("mcp:updated", check);
    return () => {
      window.removeEventListener("focus", check);
      off();
    };
  }, [c, project, check]);

  if (!prompt || dismissed === prompt.hash) return null;
  const accept = async () => {
    setBusy(true);
    try {
      await c.backend.mcpTrust(prompt.hash);
      setPrompt(null);
      setError(null);
    } catch (err) {
      setError(errorText(err));
      check();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title="Start this project's MCP servers?" onClose={() => setDismissed(prompt.hash)} testId="mcp-trust" wide>
      <p>
        {prompt.changed ? "The project's " : "This project has a "}
        <code>{prompt.path}</code>
        {prompt.changed ? " changed since you trusted it. " : ". "}
        Trusting it lets Pilot run these commands on your computer, with your user's rights, whenever this project is open:
      </p>
      <ul className="mcp-trust-list">
        {prompt.servers.map((s) => (
          <li key={s.name} data-testid="mcp-trust-server" data-name={s.name}>
            <strong>{s.name}</strong>
            <code>{s.display}</code>
          </li>
        ))}
      </ul>
      <p className="muted small-text">Not now: the servers stay off until you accept (Settings shows them); a later change to the file asks again.</p>
      {error && <p className="error">Could not trust it: {error}</p>}
      <div className="modal-actions">
        <button type="button" onClick={() => setDismissed(prompt.hash)}>
          Not now
        </button>
        <button type="button" className="primary" data-testid="mcp-trust-accept" disabled={busy} onClick={() => void accept()}>
          Trust and start
        </button>
      </div>
    </Modal>
  );
}
