package wire

// Background jobs: commands the model started with run_bash background:
// true. They belong to their session; the Jobs panel lists them
// (ListJobs), shows their retained output (JobOutput, then the
// agent:job_output stream) and stops them (StopJob).

// JobState is where a background job stands (the job-item's data-state).
type JobState string

// Job states.
const (
	JobRunning JobState = "running" // still running
	JobExited  JobState = "exited"  // ended on its own (ExitCode says how)
	JobStopped JobState = "stopped" // stopped by job_stop, the Stop button, the session's end or quitting
)

// Job is one background job of a session.
type Job struct {
	SessionID int64 `json:"sessionId"`
	// ID is the job's id within its session: "1", "2", ... (job_output's
	// and job_stop's job_id).
	ID      string   `json:"id"`
	Command string   `json:"command"`
	State   JobState `json:"state"`
	// ExitCode is the exit status once ended (128+signal for a signal);
	// nil while running.
	ExitCode *int `json:"exitCode,omitempty"`
	// ToolCallID is the run_bash call that started it.
	ToolCallID string `json:"toolCallId"`
	Sandboxed  bool   `json:"sandboxed"`
	StartedAt  int64  `json:"startedAt"`         // unix ms
	EndedAt    int64  `json:"endedAt,omitempty"` // unix ms, once ended
	// Bytes is all the output the job wrote, kept or not.
	Bytes int64 `json:"bytes"`
}

// JobOutput is the output of a job Pilot still holds: the last part of
// it, when the job wrote more than the cap (Cut says some was dropped
// before Start).
type JobOutput struct {
	Job  Job    `json:"job"`
	Text string `json:"text"`
	// Start is the offset in the job's whole output of Text's first byte.
	Start int64 `json:"start"`
	Cut   bool  `json:"cut"`
}

// JobPayload carries a job's current state (started, ended, stopped).
type JobPayload struct {
	Seq
	Job Job `json:"job"`
}

// JobOutputPayload appends output to a job (batched like a command's
// live output). Offset is the position of Chunk's first byte in the job's
// whole output, so a reader that fetched JobOutput can skip what it has.
type JobOutputPayload struct {
	Seq
	JobID  string `json:"jobId"`
	Offset int64  `json:"offset"`
	Chunk  string `json:"chunk"`
}
