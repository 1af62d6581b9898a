package service

import (
	"context"

	"pilot/backend/doctor"
	"pilot/backend/wire"
)

// Doctor checks what Pilot relies on: the sandbox of commands and what it
// needs (bubblewrap, user namespaces, Landlock, the proxy), git and rg.
// The proxy check starts a real pod, so the running executable must call
// confine.RunPodIfAsked first thing (main does). It needs no open
// Service: a machine whose PILOT_HOME cannot be opened is checked too.
func Doctor(ctx context.Context) wire.DoctorReport {
	return doctorReport(doctor.Run(ctx))
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
