package hostexec

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// program writes an executable script at dir/name.
func program(t *testing.T, dir, name string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// rel is dir as a path relative to the test's folder (a relative PATH
// entry naming a real folder).
func rel(t *testing.T, dir string) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	r, err := filepath.Rel(wd, dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestFind(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	project := filepath.Join(root, "project")
	user := filepath.Join(root, "user", "bin")
	real := program(t, user, "gopls")
	program(t, filepath.Join(project, "node_modules", ".bin"), "gopls")
	program(t, project, "gopls")
	program(t, project, "only-here")
	program(t, filepath.Join(project, "node_modules", ".bin"), "only-here")
	linked := filepath.Join(root, "linked")
	if err := os.MkdirAll(linked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(project, "only-here"), filepath.Join(linked, "only-here")); err != nil { // npm link
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(project, "node_modules", ".bin"), filepath.Join(root, "bin-link")); err != nil {
		t.Fatal(err)
	}
	relBin := rel(t, filepath.Join(project, "node_modules", ".bin"))
	relProject := rel(t, project)
	sep := string(filepath.ListSeparator)
	for _, c := range []struct {
		name, file, path string
		want             string
		is               []error
	}{
		{"relative entries first are skipped", "gopls", strings.Join([]string{relBin, relProject, user}, sep), real, nil},
		{"an absolute entry in the project is skipped", "gopls", strings.Join([]string{filepath.Join(project, "node_modules", ".bin"), project, user}, sep), real, nil},
		{"an entry linking into the project is skipped", "gopls", strings.Join([]string{filepath.Join(root, "bin-link"), user}, sep), real, nil},
		{"only relative", "only-here", strings.Join([]string{relBin, relProject}, sep), "", []error{exec.ErrDot}},
		{"only in the project", "only-here", strings.Join([]string{project}, sep), "", []error{ErrDistrusted}},
		{"a link into the project", "only-here", linked, "", []error{ErrDistrusted}},
		{"both", "only-here", strings.Join([]string{relBin, project}, sep), "", []error{exec.ErrDot, ErrDistrusted}},
		{"nowhere", "nothing-here", strings.Join([]string{relBin, project, user}, sep), "", []error{exec.ErrNotFound}},
		{"an absolute name outside", real, "", real, nil},
		{"an absolute name inside", filepath.Join(project, "gopls"), "", "", []error{ErrDistrusted}},
		{"a relative name", filepath.Join(relProject, "gopls"), "", "", []error{exec.ErrDot}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := Find(c.file, c.path, project)
			if got != c.want {
				t.Errorf("Find = %q, %v; want %q", got, err, c.want)
			}
			for _, want := range c.is {
				if !errors.Is(err, want) {
					t.Errorf("error %v is not %v", err, want)
				}
			}
			if c.is == nil && err != nil {
				t.Errorf("error %v", err)
			}
			var skip *SkippedError
			if errors.As(err, &skip) && (!strings.Contains(err.Error(), c.file) || !strings.Contains(err.Error(), "Pilot does not run programs from there")) {
				t.Errorf("the sentence %q names neither the program nor why", err)
			}
		})
	}
}

// Distrust's folders hold for every later Find and CleanPath, and a skip
// is logged once.
func TestDistrust(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	program(t, dir, "planted-by-a-command")
	if p, err := Find("planted-by-a-command", dir); err != nil || p == "" {
		t.Fatalf("before Distrust: %q, %v", p, err)
	}
	Distrust(dir)
	if p, err := Find("planted-by-a-command", dir); !errors.Is(err, ErrDistrusted) || p != "" {
		t.Fatalf("after Distrust: %q, %v", p, err)
	}
	if got := CleanPath("/usr/bin" + string(filepath.ListSeparator) + dir); got != "/usr/bin" {
		t.Errorf("CleanPath kept %q", got)
	}
}

func TestCleanPathAndEnv(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	got := CleanPath("/usr/local/bin::.:./node_modules/.bin:/usr/bin:"+filepath.Join(project, "bin")+":bin:", project)
	if got != "/usr/local/bin:/usr/bin" {
		t.Errorf("CleanPath = %q", got)
	}
	env := []string{"HOME=/h", "PATH=.:/usr/bin:", "LANG=C"}
	out := Env(env, project)
	if strings.Join(out, " ") != "HOME=/h PATH=/usr/bin LANG=C" || env[1] != "PATH=.:/usr/bin:" {
		t.Errorf("Env = %q (given %q)", out, env)
	}
}

func TestSkipsAreLogged(t *testing.T) { // not parallel: it sets the package's logger
	var buf bytes.Buffer
	SetLog(slog.New(slog.NewTextHandler(&buf, nil)))
	defer SetLog(nil)
	dir := t.TempDir()
	program(t, dir, "logged-once")
	for range 3 {
		if _, err := Find("logged-once", dir, dir); err == nil {
			t.Fatal("found")
		}
	}
	if n := strings.Count(buf.String(), "logged-once was found only at"); n != 1 {
		t.Errorf("logged %d times: %s", n, buf.String())
	}
}
