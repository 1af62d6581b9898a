// Programs of the Windows smoke test (.ci/windows/smoke.sh, docs/WINDOWS.md),
// built for Windows: gosh, the bash-compatible interpreter of the mvdan/sh
// project, which stands in for Git Bash, and conprobe, which runs a
// program in a console. A module of its own, so neither is a dependency
// of Pilot.
module pilot/ci/windows/tools

go 1.26.0

tool mvdan.cc/sh/v3/cmd/gosh

require golang.org/x/sys v0.47.0

require (
	golang.org/x/term v0.45.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
