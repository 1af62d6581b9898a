package customagent

import "pilot/backend/frontmatter"

// Prompt is the task tool's part about the custom agents: how to call
// one and one line per agent with its name and description. "" when there
// are none.
func Prompt(list []Agent) string {
	return frontmatter.Prompt("\n\nCustom agents the user set up. To hand a task to one, give its name as subagent_type; it works with its own instructions and tools (an agent that may change files or run commands does so under the same approvals as you). Without subagent_type the task goes to the read-only helper described above.\n",
		list, func(a Agent) (string, string) { return a.Name, a.Description })
}
