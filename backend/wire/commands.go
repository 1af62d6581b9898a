package wire

// SlashCommand is a command of the prompt box's / picker: a custom
// command (a Markdown file), an MCP server's prompt or a skill.
type SlashCommand struct {
	Name         string      `json:"name"`
	Description  string      `json:"description"`
	ArgumentHint string      `json:"argumentHint"`
	Source       SlashSource `json:"source"`
}
