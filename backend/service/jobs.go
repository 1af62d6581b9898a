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

// ListJobs returns a session's background jobs, running and ended, oldest
// first.
func (w *Service) ListJobs(sessionID int64) ([]wire.Job, error) {
	return w.agent.Jobs(sessionID), nil
}

// JobOutput returns the output Pilot still holds of one job.
func (w *Service) JobOutput(sessionID int64, jobID string) (wire.JobOutput, error) {
	out, err := w.agent.JobOutput(sessionID, jobID)
	if errors.Is(err, agent.ErrNoJob) {
		return out, noJob(sessionID, jobID)
	}
	return out, err
}

// StopJob stops a job's whole process group and returns once it has ended.
func (w *Service) StopJob(sessionID int64, jobID string) error {
	err := w.agent.StopJob(context.Background(), sessionID, jobID)
	if errors.Is(err, agent.ErrNoJob) {
		return noJob(sessionID, jobID)
	}
	return err
}

// StopJobs stops every running job of a session and returns them as they
// ended: pilot -p does at the end of its turn.
func (w *Service) StopJobs(ctx context.Context, sessionID int64) []wire.Job {
	return w.agent.StopJobs(ctx, sessionID)
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

// jobsPerSession is the setting in force, read when a job starts.
func (w *Service) jobsPerSession() int {
	s, err := config.LoadSettings(w.home)
	if err != nil {
		return config.DefaultJobsPerSession
	}
	return s.Jobs()
}
