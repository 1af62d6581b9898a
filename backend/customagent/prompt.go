package customagent

import "strings"

// Prompt is the task tool's part about the custom agents: how to call
// one and one line per agent with its name and description. "" when there
// are none.
func Prompt(list []Agent) string {
	if len(list) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\nCustom agents the user set up. To hand a task to one, give its name as subagent_type; it works with its own instructions and tools (an agent that may change files or run commands does so under the same approvals as you). Without subagent_type the task goes to the read-only helper described above.\n")
	for _, a := range list {
		b.WriteString("- ")
		b.WriteString(a.Name)
		b.WriteString(": ")
		b.WriteString(a.Description)
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}
