package wire

// MCPConfigChange is what adding, replacing or removing a configured MCP
// server changed: the server, the scope and file it is (or was) in, and
// for a server saved, the line that says what it runs (Display).
type MCPConfigChange struct {
	Name     string   `json:"name"`
	Scope    MCPScope `json:"scope"`
	Path     string   `json:"path"` // PILOT_HOME/mcp.json or the project's .mcp.json
	Display  string   `json:"display,omitempty"`
	Replaced bool     `json:"replaced,omitempty"` // a server of that name was there and is replaced
}
