package agent

import (
	"pilot/backend/mcp"
	"pilot/backend/settingsjson"
)

// guarded are the paths of the session's folder that grant or run things
// on the host: its .claude/ and .pilot/ folders and the scripts the hooks
// of every settings file name (settingsjson.Guarded), and its .mcp.json
// (mcp.ProjectPath). The pod binds those that exist when it starts
// read-only (sandbox.Policy.Guarded), so a sandboxed command cannot change
// what Pilot later runs or trusts; sandbox.Explain tells the model to
// propose such a change with write_file or patch_file, or to ask with
// sandbox: false. One made later (a .claude/ a command creates) stays
// writable until the session's next pod, and runs nothing until the user
// trusts it, its scripts included (see docs/ARCHITECTURE.md, "Hooks").
func (p *pod) guarded() []string {
	l := p.l
	o := l.m.opt.Sandbox
	dir := l.root.Dir()
	files := settingsjson.LoadRun(o.home(), o.PilotHome, l.project.Path, dir)
	return append(settingsjson.Guarded(dir, files), mcp.ProjectPath(dir))
}
