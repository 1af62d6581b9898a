package wire

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestFrontendMirrorsEventNames fails when an event constant of this package
// is missing from the frontend's typed event map.
func TestFrontendMirrorsEventNames(t *testing.T) {
	t.Parallel()
	ts, err := os.ReadFile("../../frontend/src/lib/events.ts")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				vs, ok := n.(*ast.ValueSpec)
				if !ok || len(vs.Values) != 1 {
					return true
				}
				lit, ok := vs.Values[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				name, _ := strconv.Unquote(lit.Value)
				if !strings.Contains(name, ":") {
					return true
				}
				found++
				if !strings.Contains(string(ts), strconv.Quote(name)) {
					t.Errorf("event %q (%s) is not in frontend/src/lib/events.ts", name, vs.Names[0].Name)
				}
				return true
			})
		}
	}
	if found == 0 {
		t.Fatal("no event constants found")
	}
}

// TestFrontendMirrorsApprovalKinds: every approval kind is in the
// frontend's ApprovalKind, which the review panel switches on.
func TestFrontendMirrorsApprovalKinds(t *testing.T) {
	t.Parallel()
	ts, err := os.ReadFile("../../frontend/src/lib/types.ts")
	if err != nil {
		t.Fatal(err)
	}
	_, line, ok := strings.Cut(string(ts), "export type ApprovalKind =")
	if line, _, _ = strings.Cut(line, ";"); !ok {
		t.Fatal("no ApprovalKind in frontend/src/lib/types.ts")
	}
	for _, k := range []string{string(ApprovalChange), string(ApprovalCommand), string(ApprovalMCP), string(ApprovalFetch), string(ApprovalBudget), string(ApprovalPlan), string(ApprovalOutsideSandbox), string(ApprovalNetwork)} {
		if !strings.Contains(line, strconv.Quote(k)) {
			t.Errorf("approval kind %q is not in the frontend's ApprovalKind", k)
		}
	}
}
