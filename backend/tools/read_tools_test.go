package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestListFiles(t *testing.T) {
	t.Parallel()
	files := map[string]string{".gitignore": "*.log\n", "b.go": "package b\n", "x.log": "", "src/a.go": "", "docs/readme.md": ""}
	for i := range 230 {
		files[fmt.Sprintf("many/f%03d.txt", i)] = ""
	}
	f := newFixture(t, files)
	os.Symlink("src", filepath.Join(f.dir, "lnk"))
	expect(t, f.call("list_files", map[string]any{}), false, "./ (4 folders, 2 files)", "  docs/\n  lnk/ -> src (link)\n  many/\n  src/\n  .gitignore  6 bytes\n  b.go  10 bytes", "1 entry not shown")
	expect(t, f.call("list_files", map[string]any{"path": "many"}), false, "many/ (0 folders, 230 files)", "... and 30 more")
	expect(t, f.call("list_files", map[string]any{"path": "nope"}), true, "does not exist", `list_files with path "."`)
	expect(t, f.call("list_files", map[string]any{"path": "b.go"}), true, "is a file", "read_file")
	expect(t, f.call("list_files", map[string]any{"path": "../"}), true, "outside the project root "+f.dir)
}

func TestReadFile(t *testing.T) {
	t.Parallel()
	var long strings.Builder
	for i := 1; i <= 1200; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	f := newFixture(t, map[string]string{
		"main.go":       "package main\n\nfunc main() {}\n",
		"long.txt":      long.String(),
		"wide.txt":      strings.Repeat("é", 3000) + "\nshort\n",
		"bin.dat":       "\x00\x01\x02binary\x00\xff",
		"crlf.txt":      "\xEF\xBB\xBFone\r\ntwo\r\n",
		"empty.txt":     "",
		"ignored/x.txt": "still readable\n",
		".gitignore":    "ignored/\n",
	})
	tests := []struct {
		in    map[string]any
		isErr bool
		want  []string
	}{
		{map[string]any{"path": "main.go"}, false, []string{"1\tpackage main\n2\t\n3\tfunc main() {}"}},
		{map[string]any{"path": "long.txt"}, false, []string{"\n500\tline 500\n", "Showing lines 1-500 of 1200", "start_line=501"}},
		{map[string]any{"path": "long.txt", "start_line": 1190}, false, []string{"1200\tline 1200"}},
		{map[string]any{"path": "long.txt", "start_line": 10, "end_line": 12}, false, []string{"10\tline 10\n11\tline 11\n12\tline 12", "start_line=13"}},
		{map[string]any{"path": "long.txt", "start_line": 1300}, true, []string{"1200 lines", "past its end"}},
		{map[string]any{"path": "long.txt", "start_line": 20, "end_line": 10}, true, []string{"before start_line"}},
		{map[string]any{"path": "wide.txt"}, false, []string{"[line cut: 4000 more bytes]", "2\tshort"}},
		{map[string]any{"path": "bin.dat"}, true, []string{"binary file ("}},
		{map[string]any{"path": "crlf.txt"}, false, []string{"1\tone\n2\ttwo\n", "byte order mark and uses CRLF"}},
		{map[string]any{"path": "empty.txt"}, false, []string{"is empty"}},
		{map[string]any{"path": "ignored/x.txt"}, false, []string{"still readable"}},
		{map[string]any{"path": "Main.go"}, true, []string{"does not exist", "Did you mean main.go?"}},
		{map[string]any{"path": "src"}, true, []string{"does not exist", `glob with "**/src"`}},
		{map[string]any{"path": "."}, true, []string{"is a folder", "list_files"}},
		{map[string]any{"path": "/etc/passwd"}, true, []string{"outside the project root " + f.dir}},
	}
	for _, tc := range tests {
		expect(t, f.call("read_file", tc.in), tc.isErr, tc.want...)
	}
	if r := f.call("read_file", map[string]any{"path": "wide.txt"}); strings.Contains(r.Output, "\uFFFD") {
		t.Error("a cut line split a character")
	}
}

func TestGlob(t *testing.T) {
	t.Parallel()
	files := map[string]string{".gitignore": "vendor/\n", "vendor/v.go": "", "a.go": "", "src/b.go": "", "src/c.ts": "", "src/d.tsx": "", "src/deep/e.go": ""}
	for i := range 120 {
		files[fmt.Sprintf("gen/g%03d.txt", i)] = ""
	}
	f := newFixture(t, files)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(f.dir, "a.go"), old, old)
	os.Chtimes(filepath.Join(f.dir, "src/b.go"), old.Add(time.Minute), old.Add(time.Minute))
	res := f.call("glob", map[string]any{"pattern": "**/*.go"})
	expect(t, res, false, "Found 3 files", "src/deep/e.go\nsrc/b.go\na.go")
	expect(t, f.call("glob", map[string]any{"pattern": "*.{ts,tsx}", "path": "src"}), false, "Found 2 files", "src/c.ts", "src/d.tsx")
	expect(t, f.call("glob", map[string]any{"pattern": "src/**/*.go"}), false, "Found 2 files")
	expect(t, f.call("glob", map[string]any{"pattern": "**/*.txt"}), false, "Found 120 files", "... and 20 more")
	expect(t, f.call("glob", map[string]any{"pattern": "*.ts"}), false, "No files match", "'**/*.ts'")
	expect(t, f.call("glob", map[string]any{"pattern": "[a"}), true, "not a valid glob")
	expect(t, f.call("glob", map[string]any{"pattern": "/etc/*"}), true, "absolute")
	expect(t, f.call("glob", map[string]any{"pattern": "*", "path": "../.."}), true, "outside the project root")
}

func TestGrep(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		".gitignore":   "ignored/\n",
		"main.go":      "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
		"lib/util.go":  "package lib\n\nfunc Helper() {}\nfunc helper2() {}\n",
		"lib/util.ts":  "export function Helper() {}\n",
		"ignored/x.go": "func main() {}\n",
		"bin.dat":      "func main\x00\x01",
		"crlf.txt":     "Deprecated: one\r\nok\r\nDEPRECATED two\r\n",
		"kelvin.txt":   "\u212Aind of thing\n",
		"long/line.js": strings.Repeat("a", 1000) + "NEEDLE" + strings.Repeat("b", 1000) + "\n",
	}
	for i := range 30 {
		files[fmt.Sprintf("many/m%02d.txt", i)] = "hit\nhit\nmiss\n"
	}
	f := newFixture(t, files)
	tests := []struct {
		in    map[string]any
		isErr bool
		want  []string
	}{
		{map[string]any{"pattern": "func main"}, false, []string{"Found 1 match in 1 file", "main.go:3: func main() {"}},
		{map[string]any{"pattern": "(?i)helper", "file_pattern": "*.go"}, false, []string{"Found 2 matches in 1 file", "lib/util.go:3: func Helper() {}\nlib/util.go:4: func helper2() {}"}},
		{map[string]any{"pattern": "Helper", "file_pattern": "*.{ts,tsx}"}, false, []string{"lib/util.ts:1:"}},
		{map[string]any{"pattern": "Helper", "file_pattern": "lib/*.go"}, false, []string{"Found 1 match"}},
		{map[string]any{"pattern": "(?i)deprecated"}, false, []string{"crlf.txt:1: Deprecated: one\ncrlf.txt:3: DEPRECATED two"}},
		{map[string]any{"pattern": "(?i)kind"}, false, []string{"kelvin.txt:1:"}},
		{map[string]any{"pattern": "^}$"}, false, []string{"main.go:5: }"}},
		{map[string]any{"pattern": "hit"}, false, []string{"Found 60 matches in 30 files", "many/m00.txt:1: hit\nmany/m00.txt:2: hit\n\nmany/m01.txt:1: hit", "... and 10 more matches in 5 files"}},
		{map[string]any{"pattern": "NEEDLE"}, false, []string{"…" + strings.Repeat("a", 100) + "NEEDLE"}},
		{map[string]any{"pattern": "nothing here"}, false, []string{"No matches"}},
		{map[string]any{"pattern": "func(?=main)"}, true, []string{"no look-around", `Fixed version: "func(main)"`}},
		{map[string]any{"pattern": "foo(?!bar)"}, true, []string{"no look-around"}},
		{map[string]any{"pattern": "func main("}, true, []string{"missing closing )", `Fixed version: "func main\\("`}},
		{map[string]any{"pattern": "*.go"}, true, []string{"missing argument to repetition operator", `Fixed version: "\\*.go"`, "file_pattern"}},
		{map[string]any{"pattern": `(a)\1`}, true, []string{"no backreferences"}},
		{map[string]any{"pattern": `end\Z`}, true, []string{`Fixed version: "end\\z"`}},
		{map[string]any{"pattern": "x", "file_pattern": "[a"}, true, []string{"not a valid glob"}},
		{map[string]any{"pattern": "x", "path": "main.go"}, true, []string{"is a file"}},
	}
	for _, tc := range tests {
		expect(t, f.call("grep", tc.in), tc.isErr, tc.want...)
	}
}
