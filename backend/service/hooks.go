package service

import (
	"pilot/backend/hooks"
)

// hooksFor is agent.Deps.Hooks: the hooks of the user's settings files
// and of the project's, read now (SettingsFiles), run in root. A project
// file's hooks run only while its content is trusted (SettingsTrusted: the
// trust prompt or pilot trust).
func (w *Service) hooksFor(project, root string) *hooks.Set {
	return hooks.New(w.SettingsFiles(project), hooks.Options{Trusted: w.SettingsTrusted, Project: root, Env: w.agentEnv})
}
