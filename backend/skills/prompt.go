package skills

import "pilot/backend/frontmatter"

// Prompt is the system prompt's part about the skills: how to use them and
// one line per skill with its name and description (the bodies stay on
// disk until the model calls the skill tool). "" when there are none.
func Prompt(list []Skill) string {
	return frontmatter.Prompt("# Skills\nSkills are instructions (and files) the user installed for particular tasks. When a task matches a skill's description, call `skill` with its name before you start, and follow what it says; call `skill` with \"NAME/FILE\" to read a file of the skill's folder it points you to.\n",
		list, func(k Skill) (string, string) { return k.Name, k.Description })
}
