package service

import (
	"pilot/backend/hooks"
	"pilot/backend/settingsjson"
)

// hooksFor is agent.Deps.Hooks: the hooks of the user's settings files
// and of the project's, read now (settingsjson.Load), run in root. A
// project file's hooks run only once its content is trusted
// (Service.hookTrust: nil until the project-settings trust is wired in, so none is).
func (w *Service) hooksFor(project, root string) *hooks.Set {
	files := settingsjson.Load(w.getenv("HOME"), w.home, project)
	return hooks.New(files, hooks.Options{Trusted: w.hookTrust, Project: root, Env: w.agentEnv})
}
