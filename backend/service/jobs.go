package service

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"pilot/backend/agent"
	"pilot/backend/config"
	"pilot/backend/wire"
)

// Jobs are a session's background jobs.
type Jobs struct{ *core }

// List returns a session's background jobs, running and ended, oldest
// first.
func (j *Jobs) List(sessionID int64) ([]wire.Job, error) {
	return j.agent.Jobs(sessionID), nil
}

// Output returns the output Pilot still holds of one job.
func (j *Jobs) Output(sessionID int64, jobID string) (wire.JobOutput, error) {
	out, err := j.agent.JobOutput(sessionID, jobID)
	if errors.Is(err, agent.ErrNoJob) {
		return out, noJob(sessionID, jobID)
	}
	return out, err
}

// Stop stops a job's whole process group and returns once it has ended.
func (j *Jobs) Stop(sessionID int64, jobID string) error {
	err := j.agent.StopJob(context.Background(), sessionID, jobID)
	if errors.Is(err, agent.ErrNoJob) {
		return noJob(sessionID, jobID)
	}
	return err
}

// StopAll stops every running job of a session and returns them as they
// ended: pilot -p does at the end of its turn.
func (j *Jobs) StopAll(ctx context.Context, sessionID int64) []wire.Job {
	return j.agent.StopJobs(ctx, sessionID)
}

// jobName is a job's command as a question names it: its first line, at
// most 80 characters.
func jobName(j wire.Job) string {
	c, _, more := strings.Cut(strings.TrimSpace(j.Command), "\n")
	if r := []rune(c); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	if more {
		return c + " …"
	}
	return c
}

func noJob(sessionID int64, jobID string) error {
	return fmt.Errorf("session %d has no background job %q (jobs are kept only while Pilot runs)", sessionID, jobID)
}

// perSession is the setting in force, read when a job starts.
func (j *Jobs) perSession() int {
	s, err := config.LoadSettings(j.home)
	if err != nil {
		return config.JobsBound.Default
	}
	return s.Jobs()
}
