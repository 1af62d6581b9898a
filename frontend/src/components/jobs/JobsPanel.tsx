import type { Job } from "../../lib/wire.gen";
import { useApp, useController } from "../../state/context";
import { jobsOf, shownJob } from "../../state/jobs";
import Elapsed from "./Elapsed";
import JobOutputView from "./JobOutputView";
import { useJobs } from "./useJobs";

/** A job's state in words: "running", "exited 0", "exited 1 (failed)", "stopped". */
export function stateText(job: Job): string {
  if (job.state === "running") return "running";
  if (job.state === "stopped") return job.exitCode === undefined || job.exitCode === null ? "stopped" : `stopped (exit ${job.exitCode})`;
  if (job.exitCode === undefined || job.exitCode === null) return "exited";
  return job.exitCode === 0 ? "exited 0" : `exited ${job.exitCode} (failed)`;
}

function JobItem({ job, sessionId, selected, stopping }: { job: Job; sessionId: number; selected: boolean; stopping: boolean }) {
  const c = useController();
  return (
    <li className={`job-item state-${job.state}${selected ? " selected" : ""}`} data-testid="job-item" data-job-id={job.id} data-state={job.state}>
      <button type="button" className="job-select" aria-pressed={selected} title={job.command} onClick={() => c.jobs.select(sessionId, job.id)}>
        <span className="job-id">#{job.id}</span>
        <code className="job-command">{job.command}</code>
        <span className="job-meta">
          <span className="job-state">{stateText(job)}</span>
          <span aria-hidden="true"> · </span>
          <Elapsed startedAt={job.startedAt} endedAt={job.endedAt || undefined} />
          {!job.sandboxed && <span className="job-outside"> · outside the sandbox</span>}
        </span>
      </button>
      {job.state === "running" && (
        <button type="button" className="small danger" data-testid="job-stop" disabled={stopping} onClick={() => void c.jobs.stop(sessionId, job.id)} title="Stop the job and every process it started">
          {stopping ? "Stopping…" : "Stop"}
        </button>
      )}
    </li>
  );
}

/** The open session's background jobs: each one's command, state and time, Stop, and the chosen one's live output. */
export default function JobsPanel() {
  const sessionId = useApp((s) => s.session?.id ?? null);
  const sj = useJobs((s) => jobsOf(s, sessionId));
  if (sessionId === null) return <p className="empty pad">Open a session to see its background jobs.</p>;
  const job = shownJob(sj);
  return (
    <section className="jobs-panel" data-testid="jobs-panel" aria-label="Background jobs">
      {sj.error && <p className="error pad">{sj.error}</p>}
      {sj.list.length === 0 && sj.error ? null : sj.list.length === 0 ? (
        <p className="empty pad">
          {sj.status === "loading" ? "Reading the session's jobs…" : "No background jobs in this session. When the agent starts a server or a watcher with run_bash in the background, it shows here with its live output."}
        </p>
      ) : (
        <>
          <ul className="job-list" aria-label="Jobs">
            {sj.list.map((j) => (
              <JobItem key={j.id} job={j} sessionId={sessionId} selected={j.id === job?.id} stopping={sj.stopping.includes(j.id)} />
            ))}
          </ul>
          {job && <JobOutputView key={`${sessionId}/${job.id}`} sessionId={sessionId} jobId={job.id} />}
        </>
      )}
    </section>
  );
}
