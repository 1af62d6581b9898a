package skills

import "strings"

// Prompt is the system prompt's part about the skills: how to use them and
// one line per skill with its name and description (the bodies stay on
// disk until the model calls the skill tool). "" when there are none.
func Prompt(list []Skill) string {
	if len(list) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Skills\n")
	b.WriteString("Skills are instructions (and files) the user installed for particular tasks. When a task matches a skill's description, call `skill` with its name before you start, and follow what it says; call `skill` with \"NAME/FILE\" to read a file of the skill's folder it points you to.\n")
	for _, k := range list {
		b.WriteString("- ")
		b.WriteString(k.Name)
		b.WriteString(": ")
		b.WriteString(k.Description)
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}
