package cli

import (
	"fmt"
	"strings"
	"testing"

	"pilot/backend/wire"
)

// TestPrintEffects: pilot -p's lines under a command list what can run
// code first (beyond the 20 files shown, up to 50), mark every file that
// can run code or is not kept, and quote a path that would move the
// cursor or reorder the line.
func TestPrintEffects(t *testing.T) {
	t.Parallel()
	files := func(plain, runs int) []wire.FileEffect {
		var fs []wire.FileEffect
		for i := range plain {
			fs = append(fs, wire.FileEffect{Path: fmt.Sprintf("f%02d.txt", i), Op: wire.OpCreated, Kept: true})
		}
		for i := range runs {
			fs = append(fs, wire.FileEffect{Path: fmt.Sprintf("node_modules/.bin/t%02d", i), Op: wire.OpCreated, RunsCode: "an npm program", Listed: true, Why: "ignored: not kept"})
		}
		return fs
	}
	tests := []struct {
		name  string
		files []wire.FileEffect
		want  []string // lines, in order, each a prefix of one
		not   []string
	}{
		{"what can run code first, then up to 20", files(30, 3), []string{
			"  created node_modules/.bin/t00  [can run code: an npm program] [not kept, cannot be undone]",
			"  created node_modules/.bin/t02",
			"  created f00.txt",
			"  created f16.txt",
			"  ... and 13 more (pilot sessions changes lists them all)",
		}, []string{"f17.txt"}},
		{"every file that can run code beyond 20, up to 50", files(5, 60), []string{
			"  created node_modules/.bin/t49",
			"  ... and 15 more, 10 of them can run code (pilot sessions changes lists them all)",
		}, []string{"t50", "f00.txt"}},
		{"a path with control characters shows them escaped", []wire.FileEffect{
			{Path: "x\r\x1b[2K  created notes.txt", Op: wire.OpCreated, RunsCode: "executable", Kept: true},
			{Path: "run\u202ehs.txt", Op: wire.OpModified, Kept: true},
		}, []string{
			`  created x\r\e[2K  created notes.txt  [can run code: executable]`,
			`  modified run\u202ehs.txt`,
		}, nil},
		{"a folder made", []wire.FileEffect{{Path: "sub/.git", Op: wire.OpCreated, Folder: true, Listed: true, RunsCode: "a new git repository"}},
			[]string{"  created sub/.git/  [can run code: a new git repository] [not kept, cannot be undone]"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			printEffects(&b, &wire.CommandEffects{Files: tc.files})
			out := b.String()
			at := 0
			for _, w := range tc.want {
				i := strings.Index(out[at:], "\n"+w)
				if !strings.HasPrefix(out[at:], w) && i < 0 {
					t.Fatalf("lacks %q after byte %d:\n%s", w, at, out)
				}
				if i >= 0 && !strings.HasPrefix(out[at:], w) {
					at += i + 1
				}
				at += len(w)
			}
			for _, n := range tc.not {
				if strings.Contains(out, n) {
					t.Errorf("lists %q:\n%s", n, out)
				}
			}
		})
	}
}
