package service

import (
	"context"

	"pilot/backend/config"
	"pilot/backend/doctor"
	"pilot/backend/lsp"
	"pilot/backend/wire"
)

// Doctor checks what Pilot relies on: the sandbox of commands and what it
// needs (bubblewrap, user namespaces, Landlock, the proxy), git and rg.
// The proxy check starts a real pod, so the running executable must call
// sandbox.RunPodIfAsked first thing (main does). It needs no open
// Service: a machine whose PILOT_HOME cannot be opened is checked too.
//
// The language servers (optional) are listed too, the user's own from
// the settings under home ("": none), each found on PATH or not, with its
// version; none is started. As everywhere, a program is taken only from
// an absolute PATH entry outside the projects and worktrees Pilot knows
// (read from home's database when there is one); one found only there is
// said, and logged to home's log.
func Doctor(ctx context.Context, home string) wire.DoctorReport {
	var user []lsp.ServerConfig
	if home != "" {
		s, _ := config.LoadSettings(home) // a corrupt file is reported where settings are read
		user = s.LanguageServers
		defer doctorFolders(ctx, home)()
	}
	r := doctorReport(doctor.Run(ctx))
	l := newDiagnostics(nil, user, 0, nil)
	defer l.close()
	r.LanguageServers = markUser(l.current().Servers(""), user)
	return r
}

func doctorReport(r doctor.Report) wire.DoctorReport {
	out := wire.DoctorReport{Ready: r.Ready}
	if r.Checks != nil {
		out.Checks = make([]wire.DoctorCheck, len(r.Checks))
	}
	for i, c := range r.Checks {
		out.Checks[i] = wire.DoctorCheck{Name: c.Name, OK: c.OK, Needed: c.Needed, Detail: c.Detail}
	}
	return out
}
