package tools

import (
	"slices"
	"sync"
)

// Names returns the names of the built-in tools, in registry order: the
// tools every session offers, whatever its project (MCP tools are named
// by their servers' configuration, not here). The list is made once: the
// gate checks the settings files' rules against it at every call.
func Names() []string { return slices.Clone(names()) }

var names = sync.OnceValue(func() []string {
	ts := New(Deps{Env: []string{}}).tools
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name()
	}
	return out
})
