package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// lockedBuffer is a bytes.Buffer a process writes and the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestHeadlessSameFolderTwoProcesses: two `pilot -p` processes on one
// folder, with one PILOT_HOME. The first one's command writes, then waits
// (in the shell) until the second one has written or says it waits; the
// second one's command writes. The second process says on stderr that it
// waits for the first one's session, each session's changes list only its
// own file, and rewinding the first leaves the second's file alone.
func TestHeadlessSameFolderTwoProcesses(t *testing.T) {
	t.Parallel()
	result := func(id string) func(fakellm.Request) bool {
		return func(r fakellm.Request) bool {
			return slices.ContainsFunc(r.ToolResults, func(tr fakellm.ToolResult) bool { return tr.ToolUseID == id })
		}
	}
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{When: &fakellm.When{LastUserContains: "alpha"}, ToolCalls: []fakellm.ToolCall{{ID: "a1", Name: "run_bash",
			Input: []byte(`{"command":"echo a1 > a.txt && while [ ! -e release.tmp ]; do sleep 0.02; done && echo a2 >> a.txt"}`)}}},
		{When: &fakellm.When{LastUserContains: "beta"}, ToolCalls: []fakellm.ToolCall{{ID: "b1", Name: "run_bash",
			Input: []byte(`{"command":"echo b1 > b.txt && sleep 0.2 && echo b2 >> b.txt"}`)}}},
		{Match: result("a1"), Text: "A done."},
		{Match: result("b1"), Text: "B done."},
	}})
	defer srv.Close()
	home := t.TempDir()
	dir := tempProject(t, map[string]string{"keep.txt": "kept\n", ".gitignore": "*.tmp\n"})
	exists := func(name string) bool { _, err := os.Stat(filepath.Join(dir, name)); return err == nil }
	until := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	start := func(prompt string) (*exec.Cmd, *lockedBuffer) {
		cmd := command(t, srv, home, "-p", prompt, "--project", dir, "--approve", "all")
		var out lockedBuffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill() })
		return cmd, &out
	}
	first, firstOut := start("alpha task")
	until("the first command to write", func() bool { return exists("a.txt") })
	second, secondOut := start("beta task")
	until("the second process to write or wait", func() bool {
		return exists("b.txt") || strings.Contains(secondOut.String(), "Waiting for session")
	})
	if err := os.WriteFile(filepath.Join(dir, "release.tmp"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("first pilot -p: %v\n%s", err, firstOut)
	}
	if err := second.Wait(); err != nil {
		t.Fatalf("second pilot -p: %v\n%s", err, secondOut)
	}

	run := func(args ...string) (string, int) {
		cmd := command(t, srv, home, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return out.String(), exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), 0
	}
	list, _ := run("sessions", "list", "--project", dir, "--json")
	// A session's title is its prompt, or the model's title for it when
	// that came back before the process ended ("About alpha task").
	var a, b int64
	for _, s := range decodeLines[wire.SessionRecord](t, list) {
		switch {
		case strings.Contains(s.Title, "alpha task"):
			a = s.ID
		case strings.Contains(s.Title, "beta task"):
			b = s.ID
		}
	}
	if a == 0 || b == 0 {
		t.Fatalf("sessions list: %s", list)
	}
	if !strings.Contains(secondOut.String(), fmt.Sprintf("Waiting for session %d", a)) {
		t.Errorf("the second process did not say it waits for session %d:\n%s", a, secondOut)
	}
	files := func(id int64) []string {
		js, code := run("sessions", "changes", fmt.Sprint(id), "--json")
		if code != 0 {
			t.Fatalf("sessions changes %d: exit %d\n%s", id, code, js)
		}
		var out []string
		for _, cp := range decodeStrict[wire.Ledger](t, js).Checkpoints {
			for _, f := range cp.Files {
				// The test's release.tmp, ignored, written during the first
				// command: listed with it, not kept.
				if f.Listed {
					continue
				}
				out = append(out, f.Path)
			}
		}
		slices.Sort(out)
		return out
	}
	if got := files(a); !slices.Equal(got, []string{"a.txt"}) {
		t.Errorf("the first session's changes: %v, want only a.txt", got)
	}
	if got := files(b); !slices.Equal(got, []string{"b.txt"}) {
		t.Errorf("the second session's changes: %v, want only b.txt", got)
		// What to look at: the first session's changes, the second's
		// transcript (its command's result), both processes' output.
		ja, _ := run("sessions", "changes", fmt.Sprint(a), "--json")
		jb, _ := run("sessions", "show", fmt.Sprint(b), "--json")
		t.Logf("the first session's changes:\n%s\nthe second session:\n%s\nthe first process:\n%s\nthe second process:\n%s", ja, jb, firstOut, secondOut)
	}

	show, _ := run("sessions", "show", fmt.Sprint(a), "--json")
	tr := decodeStrict[wire.Transcript](t, show)
	if len(tr.Messages) == 0 {
		t.Fatalf("no messages in\n%s", show)
	}
	if strings.Contains(show, "interrupted") {
		t.Errorf("the second process's start-up took the first one's running session for one a crash left:\n%s", show)
	}
	if out, code := run("rewind", fmt.Sprint(a), "--to", fmt.Sprint(tr.Messages[0].ID)); code != 0 {
		t.Fatalf("rewind the first session: exit %d\n%s", code, out)
	}
	if exists("a.txt") {
		t.Error("a.txt is still there after rewinding the first session")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b.txt")); string(b) != "b1\nb2\n" {
		t.Errorf("rewinding the first session changed the second's b.txt: %q", b)
	}
}
