package tools

// Names returns the names of the built-in tools, in registry order: the
// tools every session offers, whatever its project (MCP tools are named
// by their servers' configuration, not here).
func Names() []string {
	ts := New(Deps{Env: []string{}}).tools
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name()
	}
	return out
}
