package service

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWindowFolder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args   []string
		folder string
		ok     bool
	}{
		{nil, "", true},
		{[]string{"."}, ".", true},
		{[]string{".."}, "..", true},
		{[]string{"/tmp/some/project"}, "/tmp/some/project", true},
		{[]string{"src/app", "other/dir"}, "src/app", true},
		{[]string{"-assetdir", "frontend/dist", "-devserver", "127.0.0.1:3000", "/srv/proj"}, "/srv/proj", true},
		{[]string{"/srv/proj", "-assetdir", "x"}, "/srv/proj", true},
		{[]string{"repl"}, "", false},
		{[]string{"version"}, "", false},
		{[]string{"nosuchword"}, "", false},
		{[]string{".", "--nosuchoption"}, "", false},
		{[]string{"-p", "hello"}, "", false},
	}
	for _, tc := range tests {
		folder, ok := WindowFolder(tc.args)
		if folder != tc.folder || ok != tc.ok {
			t.Errorf("WindowFolder(%q) = %q, %v; want %q, %v", tc.args, folder, ok, tc.folder, tc.ok)
		}
	}
}

func TestResolveFolder(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(filepath.Join(proj, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "src", "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(proj, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		arg, cwd, want, err string
	}{
		{".", proj, proj, ""},
		{"link", dir, proj, ""}, // a link is its real folder: one project
		{filepath.Join(link, "src"), "/", filepath.Join(proj, "src"), ""},
		{"proj", dir, proj, ""},
		{"../../proj/", filepath.Join(proj, "src"), proj, ""},
		{filepath.Join(proj, "src", "main.go"), "/", filepath.Join(proj, "src"), ""},
		{"missing", dir, "", filepath.Join(dir, "missing") + " does not exist: check the path"},
	}
	for _, tc := range tests {
		got, err := ResolveFolder(tc.arg, tc.cwd)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ResolveFolder(%q, %q) error = %v, want %q", tc.arg, tc.cwd, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ResolveFolder(%q, %q) = %q, %v; want %q", tc.arg, tc.cwd, got, err, tc.want)
		}
	}
}
