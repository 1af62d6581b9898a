package lsp

import (
	"slices"
	"testing"
)

func TestGoplsUndefinedFunction(t *testing.T) {
	t.Parallel()
	needServer(t, "gopls")
	root := goModule(t, map[string]string{"a.go": "package m\n\nfunc F() { undefinedFn() }\n"})
	m := manager(t, Options{})
	out := m.AfterChange(ctx(t), root, []string{"a.go"})
	got := find(out.Diagnostics, "a.go", "undefined: undefinedFn")
	if len(got) != 1 || got[0].Line != 3 || got[0].Col != 12 || got[0].Severity != "error" {
		t.Fatalf("want one error a.go:3:12 undefined: undefinedFn, got %+v (outcome %+v)", out.Diagnostics, out)
	}
	if !slices.Contains(out.Checked, "a.go") || len(out.TimedOut)+len(out.Failed)+len(out.Missing) != 0 {
		t.Fatalf("outcome %+v", out)
	}

	// The fix: the same file, correct now, has no diagnostics left.
	write(t, root, map[string]string{"a.go": "package m\n\nfunc F() { println() }\n"})
	out = m.AfterChange(ctx(t), root, []string{"a.go"})
	if len(out.Diagnostics) != 0 || !slices.Contains(out.Checked, "a.go") {
		t.Fatalf("a correct change: want no diagnostics and a.go checked, got %+v", out)
	}
}

func TestGoplsColumnsCountCharacters(t *testing.T) {
	t.Parallel()
	needServer(t, "gopls")
	// Two emoji are four UTF-16 code units and eight bytes: the column is
	// the 18th character all the same.
	root := goModule(t, map[string]string{"a.go": "package m\n\nvar _, _ = \"😀😀\", undefinedX\n"})
	out := manager(t, Options{}).AfterChange(ctx(t), root, []string{"a.go"})
	got := find(out.Diagnostics, "a.go", "undefined: undefinedX")
	if len(got) != 1 || got[0].Line != 3 || got[0].Col != 18 {
		t.Fatalf("want a.go:3:18 undefined: undefinedX, got %+v", out)
	}
}

func TestGoplsDependentBrokenByChange(t *testing.T) {
	t.Parallel()
	needServer(t, "gopls")
	root := goModule(t, map[string]string{
		"a.go":     "package m\n\n// G doubles x.\nfunc G(x int) int { return 2 * x }\n",
		"sub/b.go": "package sub\n\nimport \"example.com/m\"\n\n// H uses G.\nfunc H() int { return m.G(1) }\n",
	})
	m := manager(t, Options{})
	if out := m.AfterChange(ctx(t), root, []string{"a.go"}); len(out.Diagnostics) != 0 {
		t.Fatalf("the module compiles, got %+v", out)
	}
	// G takes two arguments now: b.go, which the change did not touch,
	// no longer compiles.
	write(t, root, map[string]string{"a.go": "package m\n\n// G adds.\nfunc G(x, y int) int { return x + y }\n"})
	out := m.AfterChange(ctx(t), root, []string{"a.go"})
	got := errorsIn(out.Diagnostics, "sub/b.go")
	if len(got) == 0 || got[0].Line != 6 || len(errorsIn(out.Diagnostics, "a.go")) != 0 {
		t.Fatalf("want the error in sub/b.go:6 and none in a.go, got %+v", out)
	}
}
