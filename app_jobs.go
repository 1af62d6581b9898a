package main

import "pilot/backend/wire"

// ListJobs returns a session's background jobs, running and ended.
func (a *App) ListJobs(sessionID int64) ([]wire.Job, error) {
	return a.ws().Jobs.List(sessionID)
}

// JobOutput returns the output Pilot still holds of one job.
func (a *App) JobOutput(sessionID int64, jobID string) (wire.JobOutput, error) {
	return a.ws().Jobs.Output(sessionID, jobID)
}

// StopJob stops a job's whole process group.
func (a *App) StopJob(sessionID int64, jobID string) error {
	return a.ws().Jobs.Stop(sessionID, jobID)
}

// LanguageServers lists the language servers Pilot knows for a project
// (Settings › Languages): found or not, running, version, last error.
func (a *App) LanguageServers(projectID int64) ([]wire.LanguageServer, error) {
	return a.ws().Languages.List(projectID)
}
