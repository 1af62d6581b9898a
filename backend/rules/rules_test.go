package rules

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/mcp"
	"pilot/backend/permission"
	"pilot/backend/store"
)

type fixture struct {
	home, dir string
	st        *store.Store
	project   store.Project
	known     func(string) bool
}

// newFixture is a PILOT_HOME with a user MCP server "docs", a project
// with a project server "fs" in its .mcp.json, and a real database.
func newFixture(t *testing.T) fixture {
	t.Helper()
	ctx := context.Background()
	home, dir := t.TempDir(), t.TempDir()
	if err := mcp.WriteScope(home, "", mcp.ScopeUser, mcp.File{Servers: map[string]mcp.Server{"docs": {Command: "docs-server"}}}); err != nil {
		t.Fatal(err)
	}
	if err := mcp.WriteScope("", dir, mcp.ScopeProject, mcp.File{Servers: map[string]mcp.Server{"fs": {Command: "fs-server"}}}); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(home, "pilot.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	p, err := st.Projects.Touch(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	return fixture{home: home, dir: dir, st: st, project: p, known: Known(home, dir)}
}

// Every rule the issue lists as one that "silently does nothing" is
// refused with a sentence naming the problem, and nothing is stored; the
// old AddRule stored them all (it only checked the effect).
func TestAddRefusesRulesThatCannotMatch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	for _, c := range []struct {
		rule permission.Rule
		want string // in the sentence
	}{
		{permission.Rule{Tool: "run_bash", Pattern: "rm [x", Effect: permission.Deny}, `"rm [x"`},
		{permission.Rule{Tool: "run_bash", Pattern: "rm {a,b", Effect: permission.Deny}, `"rm {a,b"`},
		{permission.Rule{Tool: "bash", Pattern: "rm *", Effect: permission.Deny}, `"bash"`},
		{permission.Rule{Tool: "Run_Bash", Pattern: "rm *", Effect: permission.Deny}, `run_bash`},
		{permission.Rule{Tool: "run_bash", Pattern: "", Effect: permission.Deny}, "empty"},
		{permission.Rule{Tool: "run_bash", Pattern: "   ", Effect: permission.Deny}, "empty"},
		{permission.Rule{Tool: "", Pattern: "x", Effect: permission.Allow}, "tool"},
		{permission.Rule{Tool: "run_bash", Pattern: "x", Effect: "maybe"}, `"maybe"`},
		{permission.Rule{Tool: "mcp__nope", Pattern: "*", Effect: permission.Allow}, `"mcp__nope"`},
		{permission.Rule{Tool: "mcp__nope__search", Pattern: "*", Effect: permission.Allow}, `"mcp__nope__search"`},
	} {
		_, err := Add(ctx, f.st, f.project.ID, c.rule, f.known)
		var inv *Invalid
		if !errors.As(err, &inv) {
			t.Errorf("%s: err = %v, want *Invalid", c.rule, err)
			continue
		}
		s := inv.Sentence
		if !strings.Contains(s, c.want) || !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") || s[0] < 'A' || s[0] > 'Z' || strings.Count(s, ". ") > 0 {
			t.Errorf("%s: sentence %q: want one sentence naming %s", c.rule, s, c.want)
		}
	}
	if rs, err := f.st.Rules.List(ctx, f.project.ID); err != nil || len(rs) != 0 {
		t.Errorf("stored %v (%v), want nothing", rs, err)
	}
}

func TestAddStoresValidRules(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	for _, r := range []permission.Rule{
		{Tool: "run_bash", Pattern: "go test *", Effect: permission.Allow},
		{Tool: " run_bash ", Pattern: `rm \[x`, Effect: permission.Deny},
		{Tool: "edits", Pattern: "src/**", Effect: permission.Allow},
		{Tool: "read_file", Pattern: ".env", Effect: permission.Deny},
		{Tool: "web_fetch", Pattern: "*.github.com", Effect: permission.Allow},
		{Tool: "mcp__docs", Pattern: "search*", Effect: permission.Allow}, // the user's server
		{Tool: "mcp__fs__read", Pattern: "*", Effect: permission.Allow},   // the project's server
	} {
		got, err := Add(ctx, f.st, f.project.ID, r, f.known)
		if err != nil {
			t.Errorf("%s: %v", r, err)
			continue
		}
		if got.ID == 0 || got.Tool != strings.TrimSpace(r.Tool) || got.Pattern != r.Pattern {
			t.Errorf("%s: stored %+v", r, got)
		}
	}
	ls, err := List(ctx, f.st, f.project.ID, f.known)
	if err != nil || len(ls) != 7 {
		t.Fatalf("List = %d rules, %v", len(ls), err)
	}
	for _, l := range ls {
		if l.Invalid != "" {
			t.Errorf("%s %s %q flagged: %s", l.Effect, l.Tool, l.Pattern, l.Invalid)
		}
	}
}

// A rule stored before validation existed (put in through the store, as
// the old AddRule did) is listed with its sentence, not dropped.
func TestListFlagsStoredInvalidRules(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	for _, r := range []store.Rule{
		{ProjectID: f.project.ID, Tool: "run_bash", Pattern: "go build *", Effect: store.Allow},
		{ProjectID: f.project.ID, Tool: "run_bash", Pattern: "rm [x", Effect: store.Deny},
		{ProjectID: f.project.ID, Tool: "bash", Pattern: "rm *", Effect: store.Deny},
		{ProjectID: f.project.ID, Tool: "run_bash", Pattern: "", Effect: store.Deny},
	} {
		if _, err := f.st.Rules.Add(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	ls, err := List(ctx, f.st, f.project.ID, f.known)
	if err != nil || len(ls) != 4 {
		t.Fatalf("List = %v, %v", ls, err)
	}
	if ls[0].Invalid != "" {
		t.Errorf("valid rule flagged: %s", ls[0].Invalid)
	}
	for _, l := range ls[1:] {
		if l.Invalid == "" {
			t.Errorf("%s %s %q not flagged", l.Effect, l.Tool, l.Pattern)
		}
	}
}

// A server removed from the configuration leaves its rules flagged; a
// configuration that cannot be read flags none of them.
func TestKnownFollowsTheMCPConfiguration(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if !f.known("mcp__fs") || !f.known("mcp__docs__search") || f.known("mcp__other") || !f.known("run_bash") || !f.known("edits") || f.known("bash") {
		t.Error("known tools are wrong")
	}
	if err := os.WriteFile(mcp.ProjectPath(f.dir), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if k := Known(f.home, f.dir); !k("mcp__fs") || !k("mcp__other") || k("bash") {
		t.Error("a broken .mcp.json flags the rules of its servers")
	}
	if k := Known(f.home, t.TempDir()); k("mcp__fs") || !k("mcp__docs") {
		t.Error("another project's server is known")
	}
}

func TestRemoveOnlyTheProjectsRule(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	other, err := f.st.Projects.Touch(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := Add(ctx, f.st, other.ID, permission.Rule{Tool: "run_bash", Pattern: "make", Effect: permission.Allow}, f.known)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Remove(ctx, f.st, f.project.ID, theirs.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("removing another project's rule: %v", err)
	}
	if _, err := Remove(ctx, f.st, f.project.ID, 999); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("removing an unknown rule: %v", err)
	}
	if got, err := Remove(ctx, f.st, other.ID, theirs.ID); err != nil || got != theirs {
		t.Errorf("removed %+v, %v", got, err)
	}
	if rs, _ := f.st.Rules.List(ctx, other.ID); len(rs) != 0 {
		t.Errorf("left %v", rs)
	}
}
