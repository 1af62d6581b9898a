import { useApp, useController } from "../../state/context";
import { jobsOf } from "../../state/jobs";
import { stateText } from "./JobsPanel";
import { useJobs } from "./useJobs";

/** On the run_bash card that started a background job: the job's state, and a way to its output in the Jobs panel. */
export default function JobLink({ jobId }: { jobId: string }) {
  const c = useController();
  const sessionId = useApp((s) => s.session?.id ?? null);
  const job = useJobs((s) => jobsOf(s, sessionId).list.find((j) => j.id === jobId));
  if (sessionId === null) return null;
  return (
    <p className="job-link-row">
      <button type="button" className="link" data-testid="job-link" data-job-id={jobId} onClick={() => c.jobs.show(sessionId, jobId)}>
        Background job #{jobId}
        {job ? ` · ${stateText(job)}` : ""} — show its output
      </button>
    </p>
  );
}
