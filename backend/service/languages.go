package service

import "pilot/backend/wire"

// SKELETON: the diagnostics work of issue 27 replaces this.

// LanguageServers lists the language servers Pilot knows for a project.
func (w *Service) LanguageServers(projectID int64) ([]wire.LanguageServer, error) {
	return []wire.LanguageServer{}, nil
}
