//go:build unix

package service

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestFilesPreviewAndFind(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"cmd/pilot/main.go":      "package main\n",
		"backend/store/store.go": "package store\n",
		"README.md":              "# hi\n",
		"logo.png":               "\x89PNG\r\n\x1a\n\x00\x00\x00",
		"ignored/x.go":           "package x\n",
		".gitignore":             "ignored/\n",
	}
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A FIFO (a preview used to wait on it forever) and a link to an
	// outside folder (reached through a missing folder and `..` before).
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	w := newWorkspace(t, nil)
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	found, err := w.Files.Find(ctx, p.ID, 0, "main", 10)
	if err != nil || len(found) == 0 || found[0] != "cmd/pilot/main.go" {
		t.Errorf("FindFiles(main) = %v, %v", found, err)
	}
	found, _ = w.Files.Find(ctx, p.ID, 0, "bss", 10)
	if len(found) != 1 || found[0] != "backend/store/store.go" {
		t.Errorf("FindFiles(bss) = %v: want the fuzzy match", found)
	}
	if found, _ := w.Files.Find(ctx, p.ID, 0, "x.go", 10); len(found) != 0 {
		t.Errorf("FindFiles found ignored files: %v", found)
	}
	tests := []struct {
		path    string
		binary  bool
		text    string
		wantErr string
	}{
		{path: "README.md", text: "# hi\n"},
		{path: "logo.png", binary: true},
		{path: "ignored/x.go", text: "package x\n"},
		{path: "../outside", wantErr: "outside"},
		{path: "cmd", wantErr: "is a folder"},
		{path: "pipe", wantErr: "named pipe (FIFO)"},
		{path: "out/secret.txt", wantErr: "outside the project root"},
		{path: "nope/../out/secret.txt", wantErr: "outside the project root"},
	}
	for _, tc := range tests {
		v, err := w.Files.Read(ctx, p.ID, 0, tc.path)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: err %v, want %q", tc.path, err, tc.wantErr)
			}
			continue
		}
		if err != nil || v.Binary != tc.binary || v.Text != tc.text {
			t.Errorf("%s: %+v, %v", tc.path, v, err)
		}
	}
}
