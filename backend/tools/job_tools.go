package tools

import (
	"strings"

	"pilot/backend/toolname"
)

// Tools on a session's background jobs, which the agent loop runs itself
// (the jobs are the session's, not the registry's): job_output reads a
// job's output since the model's last read, job_stop ends it. Both only
// touch Pilot's own jobs, so they need no approval.
const (
	JobOutputTool = toolname.JobOutput
	JobStopTool   = toolname.JobStop
)

// MaxJobWait caps job_output's wait_seconds.
const MaxJobWait = 30

// JobOutputParams is the input of job_output.
type JobOutputParams struct {
	JobID       string `json:"job_id" desc:"The job's id, as run_bash gave it: \"1\", \"2\", ..."`
	WaitSeconds int    `json:"wait_seconds,omitempty" desc:"Wait up to this many seconds (at most 30) for new output or the job's end; leave it out to read at once."`
}

// JobStopParams is the input of job_stop.
type JobStopParams struct {
	JobID string `json:"job_id" desc:"The job's id, as run_bash gave it: \"1\", \"2\", ..."`
}

func newJobOutput() Tool {
	return loopTool(JobOutputTool, func(p JobOutputParams) string {
		return "→ Reading the output of job " + truncate(strings.TrimSpace(p.JobID), 20)
	})
}

func newJobStop() Tool {
	return loopTool(JobStopTool, func(p JobStopParams) string { return "→ Stopping job " + truncate(strings.TrimSpace(p.JobID), 20) })
}
