package main

import "pilot/backend/wire"

// UserLanguageServers returns the language servers the user named in
// Settings › Languages.
func (a *App) UserLanguageServers() []wire.LanguageServerConfig {
	return a.ws().Languages.User()
}

// SetLanguageServers validates and saves the user's own language servers
// (name, command, file patterns) and returns them as saved.
func (a *App) SetLanguageServers(servers []wire.LanguageServerConfig) ([]wire.LanguageServerConfig, error) {
	return a.ws().Languages.Set(servers)
}
