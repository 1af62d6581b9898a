package wire

// SlashCommand is a command of the prompt box's / picker: a custom
// command (a Markdown file), an MCP server's prompt or a skill.
type SlashCommand struct {
	Name         string      `json:"name"`
	Description  string      `json:"description"`
	ArgumentHint string      `json:"argumentHint"`
	Source       SlashSource `json:"source"`
}

// RememberFiles names the files the window's "Remember" form adds to, as
// the user knows them: the project's instruction file (/remember) and the
// user's own, for every project (/remember-user).
type RememberFiles struct {
	Project string `json:"project"` // "AGENTS.md", or "CLAUDE.md" when the project has only that
	User    string `json:"user"`    // "~/.claude/CLAUDE.md", or "~/.codex/AGENTS.md" when only that exists
}
