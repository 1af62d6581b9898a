package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"pilot/backend/projectroot"
)

// FuzzPatch checks patch_file against strings.Replace on arbitrary text,
// old_text and new_text, in LF and CRLF files with and without a BOM.
func FuzzPatch(f *testing.F) {
	f.Add("package main\n\nfunc main() {}\n", "main()", "run()", false, false)
	f.Add("a\nb\na\n", "a", "c", true, false)
	f.Add("x\ny", "x\ny", "z", true, true)
	f.Add("\tindented\n", "    indented", "x", false, false)
	f.Add("no newline", "newline", "", true, true)
	f.Add("ééé\n", "é", "e", false, false)
	f.Fuzz(func(t *testing.T, text, old, repl string, crlf, bom bool) {
		if strings.ContainsRune(text, 0) || strings.Contains(text, "\r") || strings.HasPrefix(text, "\uFEFF") {
			t.Skip() // binary, or line endings the generator controls
		}
		if !utf8.ValidString(old) || !utf8.ValidString(repl) {
			t.Skip() // tool input arrives as JSON, always valid UTF-8
		}
		format := textFormat{bom: bom, crlf: crlf && strings.Contains(text, "\n")}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(format.encode(text)), 0o600); err != nil {
			t.Fatal(err)
		}
		root, err := projectroot.New(dir)
		if err != nil {
			t.Fatal(err)
		}
		reg := New(Deps{Root: root})
		in, _ := json.Marshal(PatchFileParams{Path: "f.txt", OldText: old, NewText: repl})
		res, err := reg.Execute(context.Background(), "patch_file", in)
		if err != nil {
			t.Fatal(err)
		}
		o, n := format.normalize(old), format.normalize(repl)
		ok := o != "" && o != n && strings.Count(text, o) == 1
		if res.IsError == ok {
			t.Fatalf("IsError=%v for %q in %q: %s", res.IsError, o, text, res.Output)
		}
		if !ok {
			return
		}
		if _, err := reg.Apply(context.Background(), res.Proposal, ApplyOptions{}); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(filepath.Join(dir, "f.txt"))
		want := strings.Replace(text, o, n, 1)
		if wantBytes := format.encode(want); string(got) != wantBytes {
			t.Fatalf("got %q, want %q", got, wantBytes)
		}
		if fi, _ := os.Stat(filepath.Join(dir, "f.txt")); fi.Mode().Perm() != 0o600 {
			t.Fatalf("mode %v", fi.Mode())
		}
	})
}
