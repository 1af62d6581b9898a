// The shell the Windows smoke test gives run_bash in place of Git Bash
// (docs/WINDOWS.md): gosh, the bash-compatible interpreter of the
// mvdan/sh project, built for Windows by .ci/windows/smoke.sh. A module of
// its own, so it is no dependency of Pilot.
module pilot/ci/windows/gosh

go 1.26.0

tool mvdan.cc/sh/v3/cmd/gosh

require (
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/term v0.45.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
