package service

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"pilot/backend/config"
	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// The user's own language servers are saved through Settings, read back
// as saved, refused with a sentence when one is incomplete (nothing saved
// then), and kept beside the other settings.
func TestUserLanguageServers(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if err := config.SaveSettings(home, config.Settings{Model: "m"}); err != nil {
		t.Fatal(err)
	}
	w, err := Open(context.Background(), Options{Home: home, Log: discardLog(), Getenv: func(string) string { return "" }, Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if got := w.Languages.User(); len(got) != 0 {
		t.Fatalf("a new home has servers %v", got)
	}
	zls := wire.LanguageServerConfig{Name: "zls", Command: []string{"zls"}, Patterns: []string{"**/*.zig"}}
	got, err := w.Languages.Set([]wire.LanguageServerConfig{{Name: " zls", Command: []string{"zls "}, Patterns: []string{"**/*.zig"}}})
	if err != nil || !reflect.DeepEqual(got, []wire.LanguageServerConfig{zls}) {
		t.Fatalf("saved %+v, %v", got, err)
	}
	if _, err := w.Languages.Set([]wire.LanguageServerConfig{{Name: "half", Command: []string{"half"}}}); err == nil || !strings.Contains(err.Error(), "serves no files") {
		t.Fatalf("an incomplete server: %v", err)
	}
	if got := w.Languages.User(); !reflect.DeepEqual(got, []wire.LanguageServerConfig{zls}) {
		t.Errorf("after a refused save: %+v", got)
	}
	s, err := config.LoadSettings(home)
	if err != nil || s.Model != "m" || len(s.LanguageServers) != 1 {
		t.Errorf("settings file: %+v, %v", s, err)
	}
	if _, err := w.Languages.List(0); err != nil {
		t.Error(err)
	}
}

func TestLanguageWait(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    string
		want time.Duration
	}{{"", 0}, {"10", 10 * time.Second}, {" 1.5 ", 1500 * time.Millisecond}, {"0", 0}, {"-2", 0}, {"600", 0}, {"soon", 0}} {
		got := languageWait(func(string) string { return c.v }, discardLog())
		if got != c.want {
			t.Errorf("PILOT_LSP_WAIT=%q: %v, want %v", c.v, got, c.want)
		}
	}
	if languageWait(nil, discardLog()) != 0 {
		t.Error("no environment")
	}
}

// The file tree marks the files a real gopls found errors in after the
// active session's change, and a fix takes the mark away; the window is
// told with agent:diagnostics.
func TestFileTreeErrorMarks(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("gopls"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("gopls is not on PATH; make deps installs it")
		}
		t.Skip("gopls is not on PATH (make deps installs it)")
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{Name: "write_file", Input: json.RawMessage(`{"path":"a.go","content":"package main\n\nfunc f() { frob() }\n"}`)}}, When: &fakellm.When{LastUserContains: "break"}},
		{ToolCalls: []fakellm.ToolCall{{Name: "write_file", Input: json.RawMessage(`{"path":"a.go","content":"package main\n\nfunc f() {}\n"}`)}}, When: &fakellm.When{LastUserContains: "fix"}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
	t.Cleanup(srv.Close)
	w := newWorkspace(t, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": srv.URL(), "PILOT_LSP_WAIT": "60"})
	ev := newWaiter()
	w.SetEmitter(ev)
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := w.Sessions.New(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	mark := func() int {
		t.Helper()
		page, err := w.Files.ListDir(ctx, p.ID, s.ID, wire.DirPageQuery{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Entries {
			if e.Name == "a.go" {
				return e.Errors
			}
		}
		t.Fatalf("no a.go in %+v", page.Entries)
		return 0
	}
	used := map[string]bool{} // approvals decided
	var lastDone int64        // the seq of the last turn_done seen
	turn := func(text string) {
		t.Helper()
		if err := w.Turns.SendMessage(ctx, s.ID, text, nil); err != nil {
			t.Fatal(err)
		}
		a := ev.wait(t, func(e any) bool {
			p, ok := e.(wire.ApprovalPayload)
			return ok && !used[p.Approval.ID]
		}).(wire.ApprovalPayload)
		used[a.Approval.ID] = true
		if err := w.Approvals.DecideChange(a.Approval.ID, wire.ChangeDecision{Files: []wire.FileDecision{{Path: "a.go", Hunks: []bool{true}}}}); err != nil {
			t.Fatal(err)
		}
		d := ev.wait(t, func(e any) bool {
			p, ok := e.(wire.TurnDonePayload)
			return ok && p.Seq.Seq > lastDone
		}).(wire.TurnDonePayload)
		lastDone = d.Seq.Seq
	}
	turn("break it")
	if n := mark(); n != 1 {
		t.Fatalf("a.go marked with %d errors after the breaking change, want 1", n)
	}
	ev.wait(t, func(e any) bool {
		d, ok := e.(wire.DiagnosticsPayload)
		return ok && d.SessionID == s.ID && slices.Contains(d.Paths, "a.go")
	})
	turn("fix it")
	if n := mark(); n != 0 {
		t.Errorf("a.go marked with %d errors after the fix, want none", n)
	}
}
