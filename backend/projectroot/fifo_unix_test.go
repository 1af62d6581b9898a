//go:build unix

package projectroot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenReadNonRegular: a FIFO (directly or through a link) is refused
// at once, without waiting for a writer, with a sentence that says what
// it is; ReadAtMost bounds a read.
func TestOpenReadNonRegular(t *testing.T) {
	t.Parallel()
	r, _ := project(t)
	if err := syscall.Mkfifo(filepath.Join(r.Dir(), "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../fifo", filepath.Join(r.Dir(), "src/fifolink")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"fifo", "src/../fifo", "in/../fifo", "src/fifolink"} {
		f, _, _, err := r.OpenRead(p)
		if f != nil {
			f.Close()
		}
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe (FIFO)") {
			t.Errorf("OpenRead(%q) = %v, want a refusal naming a FIFO", p, err)
		}
	}
	if err := os.WriteFile(filepath.Join(r.Dir(), "big.txt"), []byte(strings.Repeat("x", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	f, fi, _, err := r.OpenRead("big.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := ReadAtMost(f, fi, 999); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadAtMost over the limit: %v", err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadAtMost(f, nil, 1000); err != nil || len(b) != 1000 {
		t.Errorf("ReadAtMost at the limit: %d bytes, %v", len(b), err)
	}
}

// Pilot's own reads of project files: a link out of the project (to a
// secret, to /proc/self/environ, to /dev/zero), a FIFO, a folder and a
// file too big are refused at once, each with a sentence for the user
// naming the file and what to do; a link inside is followed; a missing
// file is fs.ErrNotExist; HeadOwn cuts instead of refusing.
func TestReadOwn(t *testing.T) {
	t.Parallel()
	dir, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "id_rsa")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	write(secret, "PRIVATE KEY")
	write(filepath.Join(dir, "docs/AGENTS.md"), "Use tabs.")
	write(filepath.Join(dir, "big.md"), strings.Repeat("x", 3<<10))
	write(filepath.Join(outside, "other/.claude/settings.json"), "{}")
	link("docs/AGENTS.md", "AGENTS.md")
	link("/proc/self/environ", "CLAUDE.md")
	link(secret, "progress.md")
	link("/dev/zero", "zero.md")
	link(filepath.Join(dir, "docs/AGENTS.md"), "abs.md")
	link(filepath.Join(outside, "other/.claude"), ".claude")
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	k := Kind{Name: "an instruction file", Limit: 2 << 10, Fix: "shorten it"}
	if b, err := r.ReadOwn("AGENTS.md", k); err != nil || string(b) != "Use tabs." {
		t.Errorf("a link inside: %q, %v", b, err)
	}
	if _, err := r.ReadOwn("missing.md", k); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	for _, c := range []struct{ path, want string }{
		{"CLAUDE.md", "CLAUDE.md was not read: it is a link to /proc/self/environ, outside the project folder. Replace the link with the file itself."},
		{"progress.md", "progress.md was not read: it is a link to " + secret + ", outside the project folder. Replace the link with the file itself."},
		{"zero.md", "zero.md was not read: it is a link to /dev/zero, outside the project folder. Replace the link with the file itself."},
		{"fifo.md", "fifo.md was not read: it is a named pipe (FIFO), not a regular file. Replace it with a regular file, or remove it."},
		{"docs", "docs was not read: it is a folder, not a file. Replace it with a file, or remove it."},
		{"big.md", "big.md was not read: it is larger than the 2 KiB an instruction file may have. Shorten it."},
		{"abs.md", "abs.md was not read: it is a link by an absolute path (" + filepath.Join(dir, "docs/AGENTS.md") + "); Pilot follows links only by a relative path that stays inside the project folder. Make the link relative, or replace it with the file itself."},
		{".claude/settings.json", ".claude/settings.json was not read: .claude is a link to " + filepath.Join(outside, "other/.claude") + ", outside the project folder. Replace the link with the folder itself."},
	} {
		b, err := r.ReadOwn(c.path, k)
		var nr *NotRead
		if !errors.As(err, &nr) || err.Error() != c.want {
			t.Errorf("ReadOwn(%s) = %q, %v\nwant %s", c.path, b, err, c.want)
		}
	}
	if b, more, err := r.HeadOwn("big.md", 1<<10); err != nil || !more || len(b) != 1<<10 {
		t.Errorf("HeadOwn: %d bytes, more %v, %v", len(b), more, err)
	}
	if _, _, err := r.HeadOwn("zero.md", 1<<10); err == nil || !strings.Contains(err.Error(), "/dev/zero") {
		t.Errorf("HeadOwn of a link to /dev/zero: %v", err)
	}
	if _, err := r.ListOwn(".claude"); err == nil || !strings.Contains(err.Error(), "outside the project folder") {
		t.Errorf("ListOwn of a link out: %v", err)
	}
	if ents, err := r.ListOwn("docs"); err != nil || len(ents) != 1 {
		t.Errorf("ListOwn(docs) = %v, %v", ents, err)
	}
	if _, err := r.OpenOwnRoot(".claude"); err == nil || !strings.Contains(err.Error(), "outside the project folder") {
		t.Errorf("OpenOwnRoot of a link out: %v", err)
	}
}

// The user's own files: links followed, but a FIFO or a device is
// refused at once and a file is bounded.
func TestReadUserFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "real.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.json", filepath.Join(dir, "link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	k := Kind{Name: "a settings file", Limit: 1 << 20}
	if b, err := ReadUserFile(filepath.Join(dir, "link.json"), k); err != nil || string(b) != "{}" {
		t.Errorf("a link: %q, %v", b, err)
	}
	for name, want := range map[string]string{"zero.json": "character device", "fifo.json": "named pipe"} {
		if _, err := ReadUserFile(filepath.Join(dir, name), k); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := ReadUserFile(filepath.Join(dir, "none.json"), k); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}
