//go:build linux

package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"

	"pilot/backend/internal/fakellm"
	"pilot/backend/projectroot/escapetest"
)

// escapeCalls are the corpus' tool calls for the binary: every path
// through read_file and, in turn, through one of the other file tools.
func escapeCalls(l *escapetest.Layout) []fakellm.ToolCall {
	others := []func(p string) (string, any){
		func(p string) (string, any) { return "list_files", map[string]any{"path": p} },
		func(p string) (string, any) { return "glob", map[string]any{"pattern": "**", "path": p} },
		func(p string) (string, any) {
			return "grep", map[string]any{"pattern": "CANARY|canary|root:x", "path": p}
		},
		func(p string) (string, any) { return "write_file", map[string]any{"path": p, "content": "PWNED\n"} },
		func(p string) (string, any) {
			return "patch_file", map[string]any{"path": p, "old_text": "line two of the canary", "new_text": "PWNED"}
		},
		func(p string) (string, any) {
			return "multi_patch", map[string]any{"edits": []map[string]string{
				{"path": "a/b/c.txt", "old_text": "inside c", "new_text": "inside c!"},
				{"path": p, "old_text": "line two of the canary", "new_text": "PWNED"}}}
		},
		func(p string) (string, any) { return "glob", map[string]any{"pattern": p + "/*"} },
	}
	var calls []fakellm.ToolCall
	add := func(name string, input any) {
		raw, _ := json.Marshal(input)
		calls = append(calls, fakellm.ToolCall{ID: fmt.Sprintf("c%d", len(calls)), Name: name, Input: raw})
	}
	for i, p := range l.Paths() {
		add("read_file", map[string]any{"path": p})
		add(others[i%len(others)](p))
	}
	return calls
}

// TestHeadlessEscapeCorpus runs the escape corpus through the production
// binary under every approval mode, 45 calls per answer (the loop stops a
// turn at 50), one pilot -p run per answer: no outside byte may reach
// stdout, stderr or anything saved under the home folder (the session
// database, the ledger's blobs), and nothing outside the project (or in
// .git) may change, while a folder and a link to the outside swap places
// all along and a new link is planted halfway.
func TestHeadlessEscapeCorpus(t *testing.T) {
	t.Parallel()
	pilotBinary(t)
	for _, mode := range []string{"none", "ask", "edits", "plan", "all"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			l, err := escapetest.New(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			calls := escapeCalls(l)
			const perAnswer = 45
			var turns []fakellm.Turn
			runs := 0
			for i := 0; i < len(calls); i += perAnswer {
				turns = append(turns, fakellm.Turn{ToolCalls: calls[i:min(i+perAnswer, len(calls))]}, fakellm.Turn{Text: "Done."})
				runs++
			}
			srv := fakellm.New(fakellm.Script{Turns: turns})
			defer srv.Close()
			home := t.TempDir()
			git := l.GitSnap()
			var before escapetest.Snapshot
			// During the runs, a folder and a link to the outside folder
			// swap places over and over (renameat2 RENAME_EXCHANGE), and
			// halfway a new link to the outside folder is planted.
			swapD, swapX := filepath.Join(l.Proj, "swap.d"), filepath.Join(l.Proj, "swap.x")
			if err := os.Symlink(l.Outside, swapX); err != nil {
				t.Fatal(err)
			}
			before, err = l.Snap()
			if err != nil {
				t.Fatal(err)
			}
			var stop atomic.Bool
			var wg sync.WaitGroup
			wg.Go(func() {
				for !stop.Load() {
					if err := unix.Renameat2(unix.AT_FDCWD, swapD, unix.AT_FDCWD, swapX, unix.RENAME_EXCHANGE); err != nil {
						t.Errorf("exchange: %v", err)
						return
					}
				}
			})
			var seen bytes.Buffer
			for r := range runs {
				if r == runs/2 {
					if err := os.Symlink(l.Outside, filepath.Join(l.Proj, "planted")); err != nil {
						t.Fatal(err)
					}
				}
				args := []string{"-p", fmt.Sprintf("Look around, part %d", r), "--project", l.Proj, "--approve", mode}
				if r%2 == 0 {
					args = append(args, "--json")
				}
				cmd := command(t, srv, home, args...)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					var exit *exec.ExitError
					if !errors.As(err, &exit) {
						t.Fatal(err)
					}
				}
				seen.Write(stdout.Bytes())
				seen.Write(stderr.Bytes())
			}
			stop.Store(true)
			wg.Wait()
			if fi, err := os.Lstat(swapD); err == nil && fi.Mode()&os.ModeSymlink != 0 {
				_ = unix.Renameat2(unix.AT_FDCWD, swapD, unix.AT_FDCWD, swapX, unix.RENAME_EXCHANGE)
			}
			if l.LeaksToken(seen.String()) {
				i := strings.Index(seen.String(), l.Token)
				t.Errorf("an outside byte reached the output: ...%s...", seen.String()[max(0, i-300):min(seen.Len(), i+100)])
			}
			_ = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() {
					if b, _ := os.ReadFile(p); l.LeaksToken(string(b)) {
						t.Errorf("an outside byte was saved in %s", p)
					}
				}
				return nil
			})
			now, err := l.Snap()
			if err != nil {
				t.Fatal(err)
			}
			if d := before.Diff(now); len(d) > 0 {
				t.Errorf("outside the project changed: %v", d)
			}
			if l.GitSnap() != git {
				t.Errorf(".git changed")
			}
			if n := strings.Count(seen.String(), "outside the project root"); n < 100 {
				t.Errorf("only %d refusals in the output: the calls did not run\n%.2000s", n, seen.String())
			}
			t.Logf("%s: %d calls in %d runs", mode, len(calls), runs)
		})
	}
}
