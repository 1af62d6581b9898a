import { useApp, useController } from "../state/context";
import ConfirmDialog from "./ConfirmDialog";

/** Asked when the window is closed while a turn runs or an approval waits (quit-* ids beside the confirm-* ones). */
export default function QuitDialog() {
  const c = useController();
  const work = useApp((s) => s.quit);
  if (!work) return null;
  const n = work.sessions.length;
  return (
    <ConfirmDialog
      title="Quit Pilot?"
      acceptLabel="Quit anyway"
      cancelLabel="Keep working"
      danger
      aliases={{ dialog: "quit-confirm", accept: "quit-now", cancel: "quit-cancel" }}
      onAccept={() => void c.desktop.quit()}
      onCancel={() => c.desktop.keepWorking()}
    >
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
    </ConfirmDialog>
  );
}
