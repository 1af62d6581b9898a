// Package toolname names the tools Pilot offers the model, once: the
// registry (backend/tools) offers them under these names, the gate and
// the rules (backend/gate, backend/permission) judge them by these names,
// the hooks (backend/hooks) map them to Claude Code's, and the agent
// declares each one's kind. The names are part of Pilot's outside
// contract (docs/CLI.md, "Tools the model sees"): never rename one. MCP
// tools are named by their servers (mcp__<server>__<tool>).
package toolname

// The built-in tools, in the registry's order.
const (
	ListFiles   = "list_files"
	ReadFile    = "read_file"
	Glob        = "glob"
	Grep        = "grep"
	Diagnostics = "diagnostics"
	WriteFile   = "write_file"
	PatchFile   = "patch_file"
	MultiPatch  = "multi_patch"
	RunBash     = "run_bash"
	JobOutput   = "job_output"
	JobStop     = "job_stop"
	TodoWrite   = "todo_write"
	PresentPlan = "present_plan"
	Task        = "task"
	WebFetch    = "web_fetch"
	WebSearch   = "web_search"
	Skill       = "skill"
	Remember    = "remember"
)

// ReportFinding is the reviewer's own tool (/review, pilot review): it
// records one finding on a line of the reviewed changes. Only the
// reviewer is offered it.
const ReportFinding = "report_finding"
