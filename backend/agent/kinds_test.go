package agent

import (
	"testing"

	"pilot/backend/tools"
)

// TestEveryToolKindIsDeclared: every tool the model can call (the
// registry's built-in tools, an MCP server's tool) and the network call
// of a sandboxed command have a declaration the pipeline runs, and every
// declaration is of a tool that exists. A tool added to the registry
// without its declaration fails here.
func TestEveryToolKindIsDeclared(t *testing.T) {
	t.Parallel()
	names := append(tools.Names(), "mcp__server__tool")
	cases := map[string]*kind{"network": &networkKind}
	for _, name := range names {
		k := declared(name)
		if k == nil {
			t.Errorf("the tool %s has no declaration in kinds (kinds.go): say what it asks the gate and what its effect is", name)
			continue
		}
		cases[name] = k
	}
	for name, k := range cases {
		switch {
		case k.effect == nil:
			t.Errorf("%s: its kind has no effect", name)
		case k.proposes && k.question == nil:
			t.Errorf("%s: its kind proposes a change but asks the gate nothing", name)
		case k == &unknownKind:
			t.Errorf("%s: declared as an unknown tool", name)
		}
	}
	builtin := map[string]bool{}
	for _, name := range tools.Names() {
		builtin[name] = true
	}
	for name := range kinds {
		if !builtin[name] {
			t.Errorf("kinds declares %s, which is no tool of the registry", name)
		}
	}
}
