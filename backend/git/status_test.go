package git

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestParseStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		out  string
		want Status
	}{
		{"clean", "# branch.oid 1234\x00# branch.head main\x00", Status{Branch: "main"}},
		{"new repository", "# branch.oid (initial)\x00# branch.head trunk\x00? a.txt\x00", Status{Branch: "trunk", Uncommitted: 1}},
		{"detached", "# branch.oid 1234\x00# branch.head (detached)\x001 .M N... 100644 100644 100644 aa bb x.go\x00", Status{Uncommitted: 1}},
		{
			"rename with its original path, unmerged, untracked, ignored",
			"# branch.head pilot/fix\x002 R. N... 100644 100644 100644 aa bb R100 new name.go\x00old name.go\x00u UU N... 1 2 3 4 aa bb cc c.go\x00? dir/\x00! build/\x00",
			Status{Branch: "pilot/fix", Uncommitted: 3},
		},
		{"a path that looks like a header", "# branch.head main\x00? # branch.head x\x00", Status{Branch: "main", Uncommitted: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseStatus(tt.out)
			if err != nil || got != tt.want {
				t.Fatalf("ParseStatus = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
	if _, err := ParseStatus("X what\x00"); err == nil {
		t.Fatal("an unknown record was read without an error")
	}
}

func FuzzParseStatus(f *testing.F) {
	f.Add("# branch.head main\x002 R. N... 1 2 3 a b R100 n\x00o\x00")
	f.Add("2 R. x")
	f.Fuzz(func(t *testing.T, out string) {
		st, err := ParseStatus(out)
		if err == nil && st.Uncommitted < 0 {
			t.Fatalf("negative count %d", st.Uncommitted)
		}
	})
}

func TestStatusOfARealRepository(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g, err := Find(ctx)
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		if _, err := g.Run(ctx, dir, args...); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q", "-b", "work")
	run("config", "user.email", "t@example.com")
	run("config", "user.name", "T")
	write("a.txt", "a\n")
	write("b.txt", "b\n")
	write(".gitignore", "out/\n")
	run("add", ".")
	run("commit", "-q", "-m", "first")

	st, err := g.Status(ctx, dir)
	if err != nil || st != (Status{Branch: "work"}) {
		t.Fatalf("a clean tree: %+v, %v", st, err)
	}
	write("a.txt", "changed\n")     // modified
	run("mv", "b.txt", "c.txt")     // renamed, staged
	write("new/one.txt", "1\n")     // an untracked folder: one path
	write("out/ignored.txt", "x\n") // ignored: not counted
	st, err = g.Status(ctx, dir)
	if err != nil || st != (Status{Branch: "work", Uncommitted: 3}) {
		t.Fatalf("modified, renamed, untracked and ignored: %+v, %v; want branch work and 3 paths", st, err)
	}
	head, _ := g.Run(ctx, dir, "rev-parse", "HEAD")
	run("checkout", "-q", "--detach", head[:len(head)-1])
	if st, err = g.Status(ctx, dir); err != nil || st.Branch != "" {
		t.Fatalf("a detached HEAD: %+v, %v; want no branch", st, err)
	}
	if _, err := g.Status(ctx, t.TempDir()); err == nil {
		t.Fatal("Status outside a repository gave no error")
	}
}
