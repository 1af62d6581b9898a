package service

import (
	"context"
	"strings"
	"testing"

	"pilot/backend/store"
)

// Settings' AddRule refuses a rule that could never match with the
// sentence the form shows, and stores nothing (the old AddRule checked
// only the effect and stored all of these).
func TestAddRuleRefusesWithTheSentence(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t, nil)
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ tool, pattern, effect, want string }{
		{"run_bash", "rm [x", "deny", `"rm [x" of the rule cannot be read`},
		{"run_bash", "rm {a,b", "deny", `"rm {a,b" of the rule cannot be read`},
		{"bash", "rm *", "deny", `"bash"`},
		{"Run_Bash", "rm *", "deny", "write run_bash instead"},
		{"run_bash", "", "deny", "empty"},
		{"run_bash", "x", "maybe", `"maybe"`},
	} {
		_, err := w.Rules.Add(ctx, p.ID, c.tool, c.pattern, c.effect)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "The ") || !strings.HasSuffix(err.Error(), ".") {
			t.Errorf("AddRule(%s %s %q) = %v, want a sentence with %s", c.effect, c.tool, c.pattern, err, c.want)
		}
	}
	if rs, err := w.Rules.List(ctx, p.ID); err != nil || len(rs) != 0 {
		t.Errorf("stored %+v (%v), want nothing", rs, err)
	}
}

// A rule stored before validation existed is listed with its sentence.
func TestListRulesFlagsStoredInvalidRules(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t, nil)
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.core.store.Rules.Add(ctx, store.Rule{ProjectID: p.ID, Tool: "run_bash", Pattern: "rm [x", Effect: store.Deny}); err != nil {
		t.Fatal(err)
	}
	good, err := w.Rules.Add(ctx, p.ID, "run_bash", "go test *", "allow")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := w.Rules.List(ctx, p.ID)
	if err != nil || len(rs) != 2 {
		t.Fatalf("ListRules = %+v, %v", rs, err)
	}
	if !strings.Contains(rs[0].Invalid, `"rm [x" of the rule cannot be read`) {
		t.Errorf("stored invalid rule: Invalid = %q", rs[0].Invalid)
	}
	if rs[1] != good || rs[1].Invalid != "" {
		t.Errorf("valid rule listed as %+v, added as %+v", rs[1], good)
	}
}
