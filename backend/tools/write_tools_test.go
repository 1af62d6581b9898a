package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{"old.txt": "old\n", "big.txt": strings.Repeat("0123456789\n", 1000), "crlf.txt": "\xEF\xBB\xBFa\r\nb\r\n"})

	res := f.call("write_file", map[string]any{"path": "new/dir/notes.txt", "content": "hello\n"})
	expect(t, res, false, "Proposed: create new/dir/notes.txt")
	if _, err := os.Stat(filepath.Join(f.dir, "new")); !os.IsNotExist(err) {
		t.Fatal("write_file changed the disk before approval")
	}
	c := res.Proposal.Files[0]
	if c.Existed || c.OldHash != "" || c.Mode != 0o644 || c.Abs != filepath.Join(f.dir, "new/dir/notes.txt") {
		t.Errorf("proposal %+v", c)
	}
	expect(t, f.apply(res), false, "Created new/dir/notes.txt (6 bytes, 1 line)")
	if got := f.read("new/dir/notes.txt"); got != "hello\n" {
		t.Errorf("content %q", got)
	}

	// An existing file must be read first.
	expect(t, f.call("write_file", map[string]any{"path": "old.txt", "content": "x"}), true, "have not read it", "read_file")
	f.call("read_file", map[string]any{"path": "old.txt"})
	res = f.call("write_file", map[string]any{"path": "old.txt", "content": "new\n"})
	if c := res.Proposal.Files[0]; !c.Existed || c.OldContent != "old\n" || c.OldHash != hashContent([]byte("old\n")) {
		t.Errorf("proposal %+v", c)
	}
	expect(t, f.apply(res), false, "Updated old.txt")

	// Replacing a large file warns, in the proposal and in the result.
	f.call("read_file", map[string]any{"path": "big.txt"})
	res = f.call("write_file", map[string]any{"path": "big.txt", "content": "short\n"})
	expect(t, res, false, "use patch_file")
	expect(t, f.apply(res), false, "use patch_file")

	// CRLF and BOM carry over to the new content.
	f.call("read_file", map[string]any{"path": "crlf.txt"})
	f.apply(f.call("write_file", map[string]any{"path": "crlf.txt", "content": "x\ny\n"}))
	if got := f.read("crlf.txt"); got != "\xEF\xBB\xBFx\r\ny\r\n" {
		t.Errorf("crlf.txt = %q", got)
	}

	expect(t, f.call("write_file", map[string]any{"path": "new/dir/notes.txt", "content": "hello\n"}), false, "nothing to change")
	expect(t, f.call("write_file", map[string]any{"path": ".git/config", "content": "x"}), true, "inside .git/")
	expect(t, f.call("write_file", map[string]any{"path": "../escape.txt", "content": "x"}), true, "outside the project root "+f.dir)
	expect(t, f.call("write_file", map[string]any{"path": "new", "content": "x"}), true, "is a folder")
	expect(t, f.call("write_file", map[string]any{"path": "old.txt/x", "content": "x"}), true, "is a file")
}

func TestPatchFile(t *testing.T) {
	t.Parallel()
	src := "package main\n\nfunc main() {\n\tfmt.Println(\"hi\")\n\tfmt.Println(\"hi\")\n}\n"
	f := newFixture(t, map[string]string{
		"main.go":  src,
		"crlf.txt": "\xEF\xBB\xBFone\r\ntwo\r\nthree",
		"run.sh":   "#!/bin/sh\necho a\n",
	})
	os.Chmod(filepath.Join(f.dir, "run.sh"), 0o755)
	tests := []struct {
		in    map[string]any
		isErr bool
		want  []string
	}{
		{map[string]any{"path": "main.go", "old_text": "fmt.Println(\"hi\")", "new_text": "x"}, true, []string{"occurs 2 times", "lines 4, 5", "replace_all"}},
		{map[string]any{"path": "main.go", "old_text": "func main() {\n    fmt.Println(\"hi\")", "new_text": "x"}, true, []string{"lines 3-4", "indentation differs", "1 tab", "4 spaces", "3\tfunc main() {"}},
		{map[string]any{"path": "main.go", "old_text": "func  main()  {", "new_text": "x"}, true, []string{"lines 3-3", "spaces inside"}},
		{map[string]any{"path": "main.go", "old_text": "func main() {\n\tfmt.Printn(\"hi\")\n\tfmt.Println(\"ho\")\n}", "new_text": "x"}, true, []string{"closest text is at lines 3-6", "4\t\tfmt.Println"}},
		{map[string]any{"path": "main.go", "old_text": "3\tfunc mian() {", "new_text": "x"}, true, []string{"line number"}},
		{map[string]any{"path": "main.go", "old_text": "zzz qqq", "new_text": "x"}, true, []string{"Nothing similar"}},
		{map[string]any{"path": "main.go", "old_text": "", "new_text": "x"}, true, []string{"old_text is empty"}},
		{map[string]any{"path": "main.go", "old_text": "main", "new_text": "main"}, true, []string{"identical"}},
		{map[string]any{"path": "nope.go", "old_text": "a", "new_text": "b"}, true, []string{"does not exist", "write_file"}},
	}
	for _, tc := range tests {
		expect(t, f.call("patch_file", tc.in), tc.isErr, tc.want...)
	}

	f.apply(f.call("patch_file", map[string]any{"path": "main.go", "old_text": "\"hi\"", "new_text": "\"bye\"", "replace_all": true}))
	if got := f.read("main.go"); got != strings.ReplaceAll(src, "\"hi\"", "\"bye\"") {
		t.Errorf("main.go = %q", got)
	}
	// Line endings, BOM and the missing final newline are kept.
	f.apply(f.call("patch_file", map[string]any{"path": "crlf.txt", "old_text": "two\nthree", "new_text": "2\n3"}))
	if got := f.read("crlf.txt"); got != "\xEF\xBB\xBFone\r\n2\r\n3" {
		t.Errorf("crlf.txt = %q", got)
	}
	// The mode is kept.
	f.apply(f.call("patch_file", map[string]any{"path": "run.sh", "old_text": "echo a", "new_text": "echo b"}))
	if fi, _ := os.Stat(filepath.Join(f.dir, "run.sh")); fi.Mode().Perm() != 0o755 {
		t.Errorf("mode %v", fi.Mode())
	}
}

func TestMultiPatch(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{"a.go": "func A() {}\nfunc B() {}\n", "b.go": "A()\n"})
	res := f.call("multi_patch", map[string]any{"edits": []map[string]string{
		{"path": "a.go", "old_text": "func A()", "new_text": "func A2()"},
		{"path": "b.go", "old_text": "A()", "new_text": "A2()"},
		{"path": "a.go", "old_text": "func A2() {}", "new_text": "func A2() { B() }"},
	}})
	expect(t, res, false, "3 edits in 2 files")
	if len(res.Proposal.Files) != 2 {
		t.Fatalf("%d files", len(res.Proposal.Files))
	}
	expect(t, f.apply(res), false, "Updated a.go", "Updated b.go")
	if f.read("a.go") != "func A2() { B() }\nfunc B() {}\n" || f.read("b.go") != "A2()\n" {
		t.Errorf("a.go %q b.go %q", f.read("a.go"), f.read("b.go"))
	}
	// One failing edit: nothing proposed, the failing edit named.
	res = f.call("multi_patch", map[string]any{"edits": []map[string]string{
		{"path": "a.go", "old_text": "func B()", "new_text": "func C()"},
		{"path": "b.go", "old_text": "missing", "new_text": "x"},
	}})
	expect(t, res, true, "Edit 2 of 2 (b.go) failed", "none of the edits were applied")
	expect(t, f.call("multi_patch", map[string]any{"edits": []map[string]string{}}), true, "edits is empty")
	expect(t, f.call("multi_patch", map[string]any{"edits": []map[string]string{{"path": ".git/x", "old_text": "a", "new_text": "b"}}}), true, "Edit 1 of 1", ".git/")
}

func TestApply(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	edits := map[string]any{"edits": []map[string]string{
		{"path": "a.txt", "old_text": "a", "new_text": "A"},
		{"path": "b.txt", "old_text": "b", "new_text": "B"},
	}}

	// Stale: a file changed after the proposal; nothing is written.
	res := f.call("multi_patch", edits)
	writeTestFile(t, filepath.Join(f.dir, "b.txt"), "b changed\n")
	out, err := f.reg.Apply(context.Background(), res.Proposal, ApplyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	expect(t, out, true, "b.txt changed on disk", "read_file")
	if f.read("a.txt") != "a\n" {
		t.Error("a.txt written although b.txt was stale")
	}

	// Final contents from the user replace the proposal's.
	writeTestFile(t, filepath.Join(f.dir, "b.txt"), "b\n")
	res = f.call("multi_patch", edits)
	out, err = f.reg.Apply(context.Background(), res.Proposal, ApplyOptions{Final: map[string]string{"b.txt": "user's b\n"}, Edited: map[string]bool{"b.txt": true}})
	if err != nil {
		t.Fatal(err)
	}
	expect(t, out, false, "Updated a.txt", "The user edited the change")

	if f.read("a.txt") != "A\n" || f.read("b.txt") != "user's b\n" {
		t.Errorf("a %q b %q", f.read("a.txt"), f.read("b.txt"))
	}

	// A final text that is only some of the hunks is not an edit: the
	// result must not say the user edited anything.
	writeTestFile(t, filepath.Join(f.dir, "a.txt"), "a\n")
	writeTestFile(t, filepath.Join(f.dir, "b.txt"), "b\n")
	res = f.call("multi_patch", edits)
	out, err = f.reg.Apply(context.Background(), res.Proposal, ApplyOptions{Final: map[string]string{"b.txt": "b\n"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.Output, "edited") {
		t.Errorf("a partial apply claims an edit:\n%s", out.Output)
	}

	// A write failure rolls back the files already written.
	writeTestFile(t, filepath.Join(f.dir, "c.txt"), "c\n")
	res = f.call("multi_patch", map[string]any{"edits": []map[string]string{
		{"path": "a.txt", "old_text": "A", "new_text": "AA"},
		{"path": "c.txt", "old_text": "c", "new_text": "CC"},
	}})
	res.Proposal.Files = append(res.Proposal.Files, FileChange{Path: "c.txt/sub/new.txt", Abs: filepath.Join(f.dir, "c.txt/sub/new.txt"), NewContent: "x"})
	if _, err := f.reg.Apply(context.Background(), res.Proposal, ApplyOptions{}); err == nil {
		t.Fatal("apply under a file succeeded")
	}
	if f.read("a.txt") != "A\n" || f.read("c.txt") != "c\n" {
		t.Errorf("not rolled back: a %q c %q", f.read("a.txt"), f.read("c.txt"))
	}
	if ents, _ := os.ReadDir(f.dir); len(ents) != 3 {
		t.Errorf("left behind: %v", ents)
	}

	// A link swapped in after the proposal is caught.
	res = f.call("write_file", map[string]any{"path": "sub/new.txt", "content": "x"})
	os.Symlink(t.TempDir(), filepath.Join(f.dir, "sub"))
	out, _ = f.reg.Apply(context.Background(), res.Proposal, ApplyOptions{})
	expect(t, out, true, "outside the project root")
}
