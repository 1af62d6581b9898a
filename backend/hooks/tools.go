package hooks

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"pilot/backend/toolname"
)

// Call is a tool call as Claude Code names it: the tool_name and
// tool_input a hook reads.
type Call struct {
	Name  string
	Input json.RawMessage
}

// Names maps Pilot's tools to Claude Code's names (docs/CLAUDE-CODE.md).
// MCP tools keep their mcp__server__tool name; a tool missing here is
// given to hooks under its Pilot name.
var Names = map[string]string{
	toolname.RunBash:     "Bash",
	toolname.WriteFile:   "Write",
	toolname.PatchFile:   "Edit",
	toolname.MultiPatch:  "MultiEdit",
	toolname.ReadFile:    "Read",
	toolname.ListFiles:   "LS",
	toolname.Glob:        "Glob",
	toolname.Grep:        "Grep",
	toolname.WebFetch:    "WebFetch",
	toolname.WebSearch:   "WebSearch",
	toolname.Task:        "Task",
	toolname.TodoWrite:   "TodoWrite",
	toolname.PresentPlan: "ExitPlanMode",
	toolname.JobOutput:   "BashOutput",
	toolname.JobStop:     "KillShell",
	toolname.Skill:       "Skill",
}

// ToolName is the name hooks see for a Pilot tool.
func ToolName(pilot string) string {
	if n, ok := Names[pilot]; ok {
		return n
	}
	return pilot
}

// Calls maps one Pilot tool call to the calls hooks see, with Claude
// Code's input fields and absolute paths under root (the session's
// folder). It is one call, except multi_patch, whose edits may span files:
// one MultiEdit per file, in the order the files first appear. An input
// that cannot be read is passed as it came, under the Claude Code name.
func Calls(pilot string, input json.RawMessage, root string) []Call {
	name := ToolName(pilot)
	abs := func(p string) string {
		if p == "" {
			return root
		}
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(root, p)
	}
	one := func(v any) []Call {
		b, err := json.Marshal(v)
		if err != nil {
			b = input
		}
		return []Call{{name, b}}
	}
	raw := []Call{{name, input}}
	switch pilot {
	case toolname.RunBash:
		var in struct {
			Command        string `json:"command"`
			TimeoutSeconds int    `json:"timeout_seconds"`
			Background     bool   `json:"background"`
			Reason         string `json:"reason"`
			Sandbox        *bool  `json:"sandbox"`
		}
		if json.Unmarshal(input, &in) != nil {
			return raw
		}
		out := map[string]any{"command": in.Command}
		if in.Reason != "" {
			out["description"] = in.Reason
		}
		if in.TimeoutSeconds > 0 {
			out["timeout"] = in.TimeoutSeconds * 1000 // Claude Code: milliseconds
		}
		if in.Background {
			out["run_in_background"] = true
		}
		if in.Sandbox != nil && !*in.Sandbox {
			out["dangerouslyDisableSandbox"] = true
		}
		return one(out)
	case toolname.WriteFile:
		var in struct{ Path, Content string }
		if json.Unmarshal(input, &in) != nil {
			return raw
		}
		return one(map[string]any{"file_path": abs(in.Path), "content": in.Content})
	case toolname.PatchFile:
		var in struct {
			Path       string `json:"path"`
			OldText    string `json:"old_text"`
			NewText    string `json:"new_text"`
			ReplaceAll bool   `json:"replace_all"`
		}
		if json.Unmarshal(input, &in) != nil {
			return raw
		}
		return one(map[string]any{"file_path": abs(in.Path), "old_string": in.OldText, "new_string": in.NewText, "replace_all": in.ReplaceAll})
	case toolname.MultiPatch:
		var in struct {
			Edits []struct {
				Path    string `json:"path"`
				OldText string `json:"old_text"`
				NewText string `json:"new_text"`
			} `json:"edits"`
		}
		if json.Unmarshal(input, &in) != nil || len(in.Edits) == 0 {
			return raw
		}
		type edit struct {
			OldString string `json:"old_string"`
			NewString string `json:"new_string"`
		}
		var order []string
		by := map[string][]edit{}
		for _, e := range in.Edits {
			p := abs(e.Path)
			if _, ok := by[p]; !ok {
				order = append(order, p)
			}
			by[p] = append(by[p], edit{e.OldText, e.NewText})
		}
		var out []Call
		for _, p := range order {
			out = append(out, one(map[string]any{"file_path": p, "edits": by[p]})...)
		}
		return out
	case toolname.ReadFile:
		var in struct {
			Path      string `json:"path"`
			StartLine int    `json:"start_line"`
			EndLine   int    `json:"end_line"`
		}
		if json.Unmarshal(input, &in) != nil {
			return raw
		}
		out := map[string]any{"file_path": abs(in.Path)}
		if in.StartLine > 0 {
			out["offset"] = in.StartLine
		}
		if in.EndLine > 0 {
			out["limit"] = in.EndLine - max(in.StartLine, 1) + 1
		}
		return one(out)
	case toolname.ListFiles:
		var in struct{ Path string }
		_ = json.Unmarshal(input, &in)
		return one(map[string]any{"path": abs(in.Path)})
	case toolname.Glob:
		var in struct{ Pattern, Path string }
		if json.Unmarshal(input, &in) != nil {
			return raw
		}
		return one(map[string]any{"pattern": in.Pattern, "path": abs(in.Path)})
	case toolname.Grep:
		var in struct {
			Pattern     string `json:"pattern"`
			Path        string `json:"path"`
			FilePattern string `json:"file_pattern"`
		}
		if json.Unmarshal(input, &in) != nil {
			return raw
		}
		out := map[string]any{"pattern": in.Pattern, "path": abs(in.Path)}
		if in.FilePattern != "" {
			out["glob"] = in.FilePattern
		}
		return one(out)
	case toolname.TodoWrite:
		var in struct {
			Todos []struct{ Content, Status string } `json:"todos"`
		}
		if json.Unmarshal(input, &in) != nil {
			return raw
		}
		todos := make([]map[string]string, len(in.Todos))
		for i, t := range in.Todos {
			st := t.Status
			if st == "done" {
				st = "completed"
			}
			todos[i] = map[string]string{"content": t.Content, "status": st, "activeForm": t.Content}
		}
		return one(map[string]any{"todos": todos})
	case toolname.JobOutput:
		var in struct {
			JobID string `json:"job_id"`
		}
		_ = json.Unmarshal(input, &in)
		return one(map[string]any{"bash_id": in.JobID})
	case toolname.JobStop:
		var in struct {
			JobID string `json:"job_id"`
		}
		_ = json.Unmarshal(input, &in)
		return one(map[string]any{"shell_id": in.JobID})
	case toolname.Skill:
		var in struct{ Name string }
		_ = json.Unmarshal(input, &in)
		return one(map[string]any{"skill": in.Name})
	}
	// web_fetch {url, prompt}, web_search {query, allowed_domains, and
	// Pilot's count}, task {description, prompt, subagent_type},
	// present_plan {plan, ...} and MCP tools already use Claude Code's
	// field names.
	return raw
}

// Response is the tool_response a PostToolUse hook reads for a call that
// produced output. File tools answer as Claude Code's do ({filePath,
// success}); Bash with {stdout, stderr, interrupted}; every other tool
// with its output as text.
func Response(pilot string, c Call, output string, isError bool) json.RawMessage {
	var v any
	switch ToolName(pilot) {
	case "Write", "Edit", "MultiEdit":
		var in struct {
			FilePath string `json:"file_path"`
			Content  string `json:"content"`
		}
		_ = json.Unmarshal(c.Input, &in)
		m := map[string]any{"filePath": in.FilePath, "success": !isError, "output": output}
		if in.Content != "" {
			m["content"] = in.Content
		}
		v = m
	case "Bash":
		v = map[string]any{"stdout": output, "stderr": "", "interrupted": strings.HasPrefix(output, "Stopped:"), "is_error": isError}
	default:
		v = map[string]any{"output": output, "is_error": isError}
	}
	b, _ := json.Marshal(v)
	return b
}
