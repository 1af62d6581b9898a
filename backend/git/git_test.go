package git

import (
	"context"
	"strings"
	"testing"
)

func TestFindAndToplevel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g, err := Find(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if g.Path == "" || g.Version == "" {
		t.Fatalf("Find = %+v", g)
	}
	dir := t.TempDir()
	if _, err := g.Toplevel(ctx, dir); err == nil || !strings.Contains(err.Error(), "git init") {
		t.Fatalf("a folder outside any repository: %v, want the sentence naming git init", err)
	}
	if _, err := g.Run(ctx, dir, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	top, err := g.Toplevel(ctx, dir)
	if err != nil || top == "" {
		t.Fatalf("Toplevel of a new repository = %q, %v", top, err)
	}
}
