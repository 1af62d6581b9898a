package service

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) Emit(name string, _ any) {
	r.mu.Lock()
	r.events = append(r.events, name)
	r.mu.Unlock()
}

func (r *recorder) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.events...)
}

func newWorkspace(t testing.TB, env map[string]string) *Service {
	t.Helper()
	w := openAt(t, t.TempDir(), env)
	t.Cleanup(w.Close)
	return w
}

// newSession is a new session in a new project folder (under
// t.TempDir()).
func newSession(t testing.TB, w *Service) wire.SessionSummary {
	t.Helper()
	p, err := w.Projects.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := w.Sessions.New(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestOpenProject(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t, nil)
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, wantErr string
	}{
		{"folder", dir, ""},
		{"missing", filepath.Join(dir, "nope"), "does not exist"},
		{"file", file, "is a file, not a folder"},
		{"empty", "", "no folder given"},
	}
	for _, tc := range tests {
		p, err := w.Projects.Open(ctx, tc.path)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: err %v, want %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if p.Path != dir || p.Name != filepath.Base(dir) || p.ID == 0 {
			t.Errorf("%s: got %+v", tc.name, p)
		}
	}
	ps, err := w.Projects.List(ctx)
	if err != nil || len(ps) != 1 {
		t.Fatalf("ListProjects = %v, %v; want the one opened project", ps, err)
	}
}

func TestSessionsSearchAndRules(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t, nil)
	rec := &recorder{}
	w.SetEmitter(rec)
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := w.core.store.Sessions.Create(ctx, store.NewSession{ProjectID: p.ID, Title: "first", Provider: "anthropic", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.core.store.Messages.Append(ctx, s.ID, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock("where is <zebra> defined?")}}, llm.Usage{}); err != nil {
		t.Fatal(err)
	}
	if err := w.Sessions.Rename(ctx, s.ID, "  Zebra hunt  "); err != nil {
		t.Fatal(err)
	}
	if err := w.Sessions.Rename(ctx, s.ID, " "); err == nil {
		t.Error("empty title accepted")
	}
	list, err := w.Sessions.List(ctx, p.ID, 10, 0)
	if err != nil || len(list) != 1 || list[0].Title != "Zebra hunt" {
		t.Fatalf("ListSessions = %+v, %v", list, err)
	}
	if got := rec.names(); len(got) != 1 || got[0] != wire.SessionUpdated {
		t.Errorf("events %v, want one session:updated", got)
	}

	hits, err := w.Sessions.Search(ctx, p.ID, "zebra")
	if err != nil || len(hits) == 0 {
		t.Fatalf("SearchSessions = %v, %v", hits, err)
	}
	if !strings.Contains(hits[0].Snippet, "&lt;<mark>zebra</mark>&gt;") {
		t.Errorf("snippet %q: want the match marked and the text escaped", hits[0].Snippet)
	}

	md, err := w.Sessions.Export(ctx, s.ID, "md")
	if err != nil || !strings.Contains(md, "zebra") {
		t.Fatalf("markdown export: %q, %v", md, err)
	}
	if _, err := w.Sessions.Export(ctx, s.ID, "pdf"); err == nil {
		t.Error("unknown export format accepted")
	}
	name, err := w.Sessions.ExportFileName(ctx, s.ID, "json")
	if err != nil || name != "Zebra-hunt.json" {
		t.Errorf("ExportFileName = %q, %v", name, err)
	}

	r, err := w.Rules.Add(ctx, p.ID, "run_bash", "go test *", "allow")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Rules.Add(ctx, p.ID, "run_bash", "x", "maybe"); err == nil {
		t.Error("bad effect accepted")
	}
	rules, err := w.Rules.List(ctx, p.ID)
	if err != nil || len(rules) != 1 || rules[0] != r {
		t.Fatalf("ListRules = %+v, %v", rules, err)
	}
	other, err := w.Projects.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Rules.Remove(ctx, other.ID, r.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("removing the rule from another project: %v, want not found", err)
	}
	if _, err := w.Rules.Remove(ctx, p.ID, r.ID); err != nil {
		t.Fatal(err)
	}

	if err := w.Sessions.Delete(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if list, _ := w.Sessions.List(ctx, p.ID, 10, 0); len(list) != 0 {
		t.Errorf("session still listed after delete: %+v", list)
	}
}
