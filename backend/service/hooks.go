package service

import (
	"pilot/backend/hooks"
	"pilot/backend/settingsjson"
)

// hooksFor is agent.Deps.Hooks: the hooks of the user's settings files
// and of the project's, read now, run in root (the scripts they name read
// there). A project file's hooks run only while its content and its
// scripts' are trusted (SettingsTrusted: the trust prompt or pilot
// trust); why not is said in a sentence (a script changed, a link out).
func (c *core) hooksFor(project, root string) *hooks.Set {
	files := settingsjson.LoadRun(c.userHome(), c.home, project, root)
	return hooks.New(files, hooks.Options{Trusted: c.svc.Rules.SettingsTrusted, Untrusted: func(f settingsjson.File) string {
		if refusedScript(f) == "" && len(settingsjson.ChangedScripts(c.home, f)) == 0 {
			return "" // never trusted as it is: the general sentence says how
		}
		return settingsjson.Untrusted(c.home, f, "hooks run")
	}, Project: root, Env: c.agentEnv})
}
