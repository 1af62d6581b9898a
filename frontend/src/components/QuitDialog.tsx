import { useApp, useController } from "../state/context";
import Modal from "./Modal";

/** Asked when the window is closed while a turn runs or an approval waits. */
export default function QuitDialog() {
  const c = useController();
  const work = useApp((s) => s.quit);
  if (!work) return null;
  const n = work.sessions.length;
  return (
    <Modal title="Quit Pilot?" onClose={() => c.desktop.keepWorking()} testId="quit-confirm">
      <p>
        {n === 1 ? "A turn is still running" : `${n} turns are still running`}
        {work.waiting > 0 ? ` and ${work.waiting === 1 ? "an approval waits" : `${work.waiting} approvals wait`} for you` : ""}:
      </p>
      <ul className="quit-sessions">
        {work.sessions.map((title, i) => (
          <li key={i}>{title || "Untitled session"}</li>
        ))}
      </ul>
      <p className="hint">Quitting stops them: what was written so far is kept in the session, and the commands they started are ended. You can send again later.</p>
      <div className="modal-actions">
        <button type="button" data-testid="quit-cancel" onClick={() => c.desktop.keepWorking()}>
          Keep working
        </button>
        <button type="button" className="danger" data-testid="quit-now" onClick={() => void c.desktop.quit()}>
          Quit anyway
        </button>
      </div>
    </Modal>
  );
}
