package main

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDomainValuesFitWire: the packages below keep their own typed values
// and convert them to the wire's types where they build a payload
// (wire.ToolStatus(c.Status)). Such a conversion is only sound while every
// value of the domain type is one of the wire type's, so a value added to,
// say, store.HunkDecision without wire.HunkDecision fails here instead of
// reaching the window as a string its union does not have.
func TestDomainValuesFitWire(t *testing.T) {
	t.Parallel()
	w, err := load(filepath.Join(repo, "backend/wire"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pkg, typ, wire string
		except         []string // values the edge never sends, and why
	}{
		{"pilot/backend/agent", "State", "AgentStatus", nil},
		{"pilot/backend/agent", "Reason", "TurnEndReason", nil},
		// A session's, a message's and a tool call's states are the wire's
		// own types everywhere (wire.SessionState, wire.MessageState,
		// wire.ToolStatus): nothing to convert, nothing to drift.
		{"pilot/backend/store", "HitKind", "SearchHitKind", nil},
		{"pilot/backend/store", "Effect", "RuleEffect", nil},
		{"pilot/backend/store", "HunkDecision", "HunkDecision", nil},
		{"pilot/backend/store", "CheckpointKind", "CheckpointKind", nil},
		{"pilot/backend/llm", "Kind", "ErrorKind", nil},
		{"pilot/backend/llm", "Role", "Role", nil},
		// present.Message drops redacted thinking (agent's TestThinking...)
		// and the provider's search results (its web_search card shows
		// them); present.Block sends its server_tool_use as tool_use.
		{"pilot/backend/llm", "BlockType", "BlockType", []string{"redacted_thinking", "web_search_tool_result", "server_tool_use"}},
		{"pilot/backend/todo", "Status", "TodoStatus", nil},
		{"pilot/backend/config", "Source", "ValueSource", nil},
		{"pilot/backend/permission", "Mode", "ApprovalMode", nil},
		{"pilot/backend/mcp", "State", "MCPState", nil},
	} {
		t.Run(c.pkg+"."+c.typ, func(t *testing.T) {
			t.Parallel()
			from := sourceValues(t, strings.TrimPrefix(c.pkg, "pilot/"), c.typ)
			to := values(t, w.types, c.wire)
			for _, v := range from {
				if !slices.Contains(to, v) && !slices.Contains(c.except, v) {
					t.Errorf("%s.%s %q is not a wire.%s (%q): add it to backend/wire/enums.go and run make bindings", c.pkg, c.typ, v, c.wire, to)
				}
			}
		})
	}
}

// values lists the string constants of pkg's type name.
func values(t *testing.T, pkg *types.Package, name string) []string {
	t.Helper()
	tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		t.Fatalf("%s has no type %s", pkg.Path(), name)
	}
	var out []string
	for _, n := range pkg.Scope().Names() {
		c, ok := pkg.Scope().Lookup(n).(*types.Const)
		if ok && types.Identical(c.Type(), tn.Type()) && c.Val().Kind() == constant.String {
			out = append(out, constant.StringVal(c.Val()))
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s.%s has no constants", pkg.Path(), name)
	}
	return out
}

// sourceValues lists the string constants declared with type name in the
// non-test files of the package in dir (relative to the repository): the
// domain packages write each value as `Name Type = "value"`.
func sourceValues(t *testing.T, dir, name string) []string {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(repo, dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, n, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != name {
				return true
			}
			for _, v := range vs.Values {
				if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, _ := strconv.Unquote(lit.Value)
					out = append(out, s)
				}
			}
			return true
		})
	}
	if len(out) == 0 {
		t.Fatalf("%s declares no constants of type %s", dir, name)
	}
	return out
}
