package service

import (
	"errors"

	"pilot/backend/wire"
)

// SKELETON: the jobs work of issue 27 replaces these.

// ListJobs returns a session's background jobs, running and ended.
func (w *Service) ListJobs(sessionID int64) ([]wire.Job, error) {
	return []wire.Job{}, nil
}

// JobOutput returns the output Pilot still holds of one job.
func (w *Service) JobOutput(sessionID int64, jobID string) (wire.JobOutput, error) {
	return wire.JobOutput{}, errors.New("no such job")
}

// StopJob stops a job's whole process group.
func (w *Service) StopJob(sessionID int64, jobID string) error {
	return errors.New("no such job")
}
