package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pilot/backend/wire"
)

// TestSessionsImport: an export imported into another project is a new
// session there whose export is the same document but for the project.
func TestSessionsImport(t *testing.T) {
	st, svc, dir, id := sessionsDB(t)
	ctx := context.Background()
	run := func(args ...string) (string, string, int) {
		var out, errOut bytes.Buffer
		code := Sessions(ctx, svc, args, &out, &errOut)
		return out.String(), errOut.String(), code
	}
	exported, stderr, code := run("export", jsonInt(id), "--format", "json")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	file := filepath.Join(t.TempDir(), "session.json")
	if err := os.WriteFile(file, []byte(exported), 0o600); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	out, stderr, code := run("import", file, "--project", other)
	if code != 0 || !strings.Contains(out, "Imported session") || !strings.Contains(out, "(Fix the lexer)") {
		t.Fatalf("import: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	out, _, _ = run("import", file, "--project", other, "--json")
	if x := decodeStrict[wire.SessionRecord](t, out); x.Title != "Fix the lexer" {
		t.Errorf("import --json: %+v", x)
	}
	if !strings.Contains(out, `"title":"Fix the lexer"`) {
		t.Errorf("import --json: %s", out)
	}
	list, _, _ := run("list", "--project", other, "--json")
	if n := strings.Count(list, `"title":"Fix the lexer"`); n != 2 {
		t.Fatalf("the project holds %d imported sessions, want 2:\n%s", n, list)
	}
	p, err := st.Projects.ByPath(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	xs, err := st.Sessions.List(ctx, p.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	again, _, _ := run("export", jsonInt(xs[0].ID), "--format", "json")
	if want := strings.Replace(exported, strconv.Quote(dir), strconv.Quote(other), 1); again != want {
		t.Errorf("re-export differs:\n%s\nwant\n%s", again, want)
	}

	notJSON := filepath.Join(t.TempDir(), "x.json")
	if err := os.WriteFile(notJSON, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"import"}, 2, "expected 1 argument(s), got 0"},
		{[]string{"import", filepath.Join(other, "missing.json"), "--project", other}, 1, "no such file"},
		{[]string{"import", notJSON, "--project", other}, 1, "not a session export"},
		{[]string{"import", file, "--project", filepath.Join(other, "nope")}, 1, "the project folder"},
		{[]string{"import", file, "--project", file}, 1, "is not a folder"},
	} {
		_, stderr, code := run(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.stderr)
		}
	}
}
