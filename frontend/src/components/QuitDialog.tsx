import type { WorkInFlight } from "../lib/wire.gen";
import { useApp, useController } from "../state/context";
import ConfirmDialog from "./ConfirmDialog";

/** "1 running job", "2 running jobs". */
const jobsText = (n: number) => (n === 1 ? "1 running job" : `${n} running jobs`);

/** The hint under the lists: what quitting does to what they name. */
function hint(turns: number, jobs: number): string {
  const turnHint = "Quitting stops them: what was written so far is kept in the session, and the commands they started are ended. You can send again later.";
  const jobHint = jobs === 1 ? "The job ends with every process it started." : "Each job ends with every process it started.";
  if (turns === 0) return jobHint;
  return jobs === 0 ? turnHint : `${turnHint} ${jobHint}`;
}

/**
 * Asked when the window is closed while a turn runs, an approval waits or a
 * background job runs (quit-* ids beside the confirm-* ones): it names the
 * sessions and the jobs that quitting stops.
 */
export default function QuitDialog() {
  const c = useController();
  const work = useApp((s) => s.quit);
  if (!work) return null;
  return <QuitQuestion work={work} onQuit={() => void c.desktop.quit()} onKeep={() => c.desktop.keepWorking()} />;
}

function QuitQuestion({ work, onQuit, onKeep }: { work: WorkInFlight; onQuit: () => void; onKeep: () => void }) {
  const n = work.sessions.length;
  const jobs = work.jobs ?? [];
  return (
    <ConfirmDialog
      title="Quit Pilot?"
      acceptLabel="Quit anyway"
      cancelLabel="Keep working"
      danger
      aliases={{ dialog: "quit-confirm", accept: "quit-now", cancel: "quit-cancel" }}
      onAccept={onQuit}
      onCancel={onKeep}
    >
      {n > 0 && (
        <>
          <p>
            {n === 1 ? "A turn is still running" : `${n} turns are still running`}
            {work.waiting > 0 ? ` and ${work.waiting === 1 ? "an approval waits" : `${work.waiting} approvals wait`} for you` : ""}:
          </p>
          <ul className="quit-sessions">
            {work.sessions.map((title, i) => (
              <li key={i}>{title || "Untitled session"}</li>
            ))}
          </ul>
        </>
      )}
      {jobs.length > 0 && (
        <>
          <p data-testid="quit-jobs">
            Quitting stops {jobsText(jobs.length)}
            {jobs.length === 1 ? `: ${jobs[0]}` : ":"}
          </p>
          {jobs.length > 1 && (
            <ul className="quit-jobs">
              {jobs.map((name, i) => (
                <li key={i}>{name}</li>
              ))}
            </ul>
          )}
        </>
      )}
      <p className="hint">{hint(n, jobs.length)}</p>
    </ConfirmDialog>
  );
}
