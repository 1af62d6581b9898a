package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestTypeScriptTypeError(t *testing.T) {
	t.Parallel()
	needServer(t, "typescript-language-server")
	root := t.TempDir()
	write(t, root, map[string]string{
		"src/a.ts": "export const n: number = \"seven\";\n",
		"src/b.ts": "import { n } from \"./a\";\nexport const m = n + 1;\n",
	})
	m := manager(t, Options{})
	out := m.AfterChange(ctx(t), root, []string{"src/a.ts", "src/b.ts"})
	got := find(out.Diagnostics, "src/a.ts", "not assignable to type 'number'")
	if len(got) != 1 || got[0].Line != 1 || got[0].Col != 14 || got[0].Severity != "error" {
		t.Fatalf("want src/a.ts:1:14 error: Type 'string' is not assignable to type 'number', got %+v", out)
	}
	if len(errorsIn(out.Diagnostics, "src/b.ts")) != 0 || !slices.Contains(out.Checked, "src/b.ts") {
		t.Fatalf("src/b.ts is checked and correct, got %+v", out)
	}

	// The fix clears it; a change that breaks b.ts through a.ts shows in b.ts.
	write(t, root, map[string]string{"src/a.ts": "export const n: number = 7;\n"})
	out = m.AfterChange(ctx(t), root, []string{"src/a.ts"})
	if len(out.Diagnostics) != 0 {
		t.Fatalf("a correct change: want no diagnostics, got %+v", out)
	}
	write(t, root, map[string]string{"src/a.ts": "export const k = 7;\n"})
	out = m.AfterChange(ctx(t), root, []string{"src/a.ts"})
	if got := find(out.Diagnostics, "src/b.ts", "has no exported member"); len(got) != 1 || got[0].Line != 1 {
		t.Fatalf("want src/b.ts:1 has no exported member 'n', got %+v", out)
	}
}

// A project's own node_modules/typescript is the project's code (a
// sandboxed command may have written it) and the server runs outside the
// sandbox: typescript-language-server is given the tsserver installed
// beside it, and the project's never runs.
func TestTypeScriptIgnoresTheProjectsTsserver(t *testing.T) {
	t.Parallel()
	needServer(t, "typescript-language-server")
	root := t.TempDir()
	ran := filepath.Join(root, "node_modules", "typescript", "ran")
	write(t, root, map[string]string{
		"src/a.ts":                                "export const n: number = \"seven\";\n",
		"node_modules/typescript/package.json":    `{"name":"typescript","version":"5.9.3"}`,
		"node_modules/typescript/lib/tsserver.js": "require('fs').writeFileSync(require('path').join(__dirname, '..', 'ran'), 'ran');\n",
	})
	m := manager(t, Options{})
	out := m.AfterChange(ctx(t), root, []string{"src/a.ts"})
	if len(find(out.Diagnostics, "src/a.ts", "not assignable to type 'number'")) != 1 {
		t.Fatalf("want the type error from the server's own tsserver, got %+v", out)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("the project's node_modules/typescript/lib/tsserver.js ran outside the sandbox")
	}
}
