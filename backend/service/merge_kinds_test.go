package service

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/wire"
)

// approveAll approves every hunk of every file of the branch view.
func approveAll(v wire.BranchView) wire.BranchMerge {
	var m wire.BranchMerge
	for _, f := range v.Files {
		d := wire.FileDecision{Path: f.Path, Hunks: make([]bool, len(f.Hunks))}
		for i := range d.Hunks {
			d.Hunks[i] = true
		}
		m.Files = append(m.Files, d)
	}
	return m
}

// kindOf describes a file in the project folder: absent, a link and its
// target, or its mode and content.
func kindOf(t *testing.T, p string) string {
	t.Helper()
	fi, err := os.Lstat(p)
	if os.IsNotExist(err) {
		return "absent"
	}
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(p)
		if err != nil {
			t.Fatal(err)
		}
		return "link to " + target
	}
	return fi.Mode().Perm().String() + " " + strings.ReplaceAll(read(t, p), "\x00", "\\0")
}

// TestMergeBranchFileKinds: what a branch does to a binary file, a
// symbolic link, the executable bit, an empty file, a deleted and a
// renamed file is each a hunk of the review (a sentence saying what it
// does) and is merged faithfully, and undone whole. The old code made a
// binary file and a link conflicts that stopped every merge without
// force, dropped a change of the executable bit (same bytes) and an empty
// file made or deleted (no hunks), and kept the project's mode on a file
// the branch made executable.
func TestMergeBranchFileKinds(t *testing.T) {
	t.Parallel()
	bin := "PNG\x00\x01\x02"
	f := newBranchFixture(t, nil, map[string]string{
		"img.bin": bin, "run.sh": "echo run\n", "tool.sh": "echo tool\n", "old-name.txt": twelve, "gone.txt": "bye\n",
		"gone.bin": bin, "empty-gone": "",
	})
	ctx := context.Background()
	wt := func(p string) string { return filepath.Join(f.wt, p) }
	put(t, wt("img.bin"), bin+"\x03more")
	put(t, wt("new.bin"), "\x00\x00new")
	if err := os.Chmod(wt("run.sh"), 0o755); err != nil { // mode only
		t.Fatal(err)
	}
	put(t, wt("tool.sh"), "echo tool 2\n") // text and mode
	if err := os.Chmod(wt("tool.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("run.sh", wt("link")); err != nil {
		t.Fatal(err)
	}
	gitIn(t, f.g, f.wt, "mv", "old-name.txt", "new-name.txt")
	for _, p := range []string{"gone.txt", "gone.bin", "empty-gone"} {
		if err := os.Remove(wt(p)); err != nil {
			t.Fatal(err)
		}
	}
	put(t, wt("empty-new"), "")
	gitIn(t, f.g, f.wt, "add", "-A")
	gitIn(t, f.g, f.wt, "commit", "-qm", "every kind")

	v, err := f.w.Git.Branch(ctx, f.sess)
	if err != nil {
		t.Fatal(err)
	}
	notes := map[string][]string{}
	for _, fc := range v.Files {
		if len(fc.Hunks) == 0 {
			t.Errorf("%s has no hunk: it could be neither approved nor merged", fc.Path)
		}
		for _, h := range fc.Hunks {
			if h.Note != "" {
				notes[fc.Path] = append(notes[fc.Path], h.Note)
			}
		}
	}
	wantNotes := map[string]string{
		"img.bin":    "The branch replaces the binary file img.bin (6 bytes) with the binary file (11 bytes).",
		"new.bin":    "The branch adds the binary file new.bin (5 bytes).",
		"gone.bin":   "The branch deletes the binary file gone.bin (6 bytes).",
		"run.sh":     "The branch makes run.sh executable.",
		"tool.sh":    "The branch makes tool.sh executable.",
		"link":       "The branch adds the symbolic link link (to run.sh).",
		"empty-new":  "The branch adds the empty file empty-new.",
		"empty-gone": "The branch deletes the empty file empty-gone.",
	}
	for p, want := range wantNotes {
		if got := strings.Join(notes[p], " | "); got != want {
			t.Errorf("%s: notes %q, want %q", p, got, want)
		}
	}

	res, err := f.w.Git.Merge(ctx, f.sess, approveAll(v))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conflicts) != 0 || len(res.Merged) != len(v.Files) || res.SessionID == 0 {
		t.Fatalf("merge = %+v", res)
	}
	proj := func(p string) string { return kindOf(t, filepath.Join(f.proj, p)) }
	for p, want := range map[string]string{
		"img.bin": "-rw-r--r-- PNG\\0\x01\x02\x03more", "new.bin": "-rw-r--r-- \\0\\0new", "gone.bin": "absent",
		"run.sh": "-rwxr-xr-x echo run\n", "tool.sh": "-rwxr-xr-x echo tool 2\n", "link": "link to run.sh",
		"empty-new": "-rw-r--r-- ", "empty-gone": "absent", "gone.txt": "absent", "old-name.txt": "absent",
		"new-name.txt": "-rw-r--r-- " + twelve,
	} {
		if got := proj(p); got != want {
			t.Errorf("after the merge %s is %q, want %q", p, got, want)
		}
	}
	// The merged tree is the branch's: git sees no difference.
	gitIn(t, f.g, f.proj, "add", "-A")
	if out := gitIn(t, f.g, f.proj, "diff", "--cached", "--stat", "pilot/x"); out != "" {
		t.Errorf("the project folder differs from the branch:\n%s", out)
	}

	l, err := f.w.Ledger.Get(ctx, res.SessionID)
	if err != nil || len(l.Checkpoints) != 1 {
		t.Fatalf("the merge session's ledger = %+v, %v", l, err)
	}
	r, err := f.w.Ledger.RevertCheckpoint(ctx, l.Checkpoints[0].ID, wire.RestoreInput{})
	if err != nil || len(r.Conflicts) != 0 {
		t.Fatalf("undoing the merge = %+v, %v", r, err)
	}
	gitIn(t, f.g, f.proj, "reset", "-q")
	if out := gitIn(t, f.g, f.proj, "status", "--porcelain"); out != "" {
		t.Errorf("undoing the merge left the project folder changed:\n%s", out)
	}
}

// A binary file or a link the user changed since the branch was made is
// a conflict with a sentence (merged only whole, over the file as the
// branch found it), and a rejected executable bit is not applied.
func TestMergeBranchWholeFileConflicts(t *testing.T) {
	t.Parallel()
	f := newBranchFixture(t, nil, map[string]string{"img.bin": "A\x00", "run.sh": "echo\n", "l": "x"})
	ctx := context.Background()
	put(t, filepath.Join(f.wt, "img.bin"), "B\x00")
	if err := os.Chmod(filepath.Join(f.wt, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(f.proj, "img.bin"), "C\x00")
	gitIn(t, f.g, f.proj, "commit", "-qam", "the user's own image")
	v, err := f.w.Git.Branch(ctx, f.sess)
	if err != nil {
		t.Fatal(err)
	}
	m := approveAll(v)
	for i := range m.Files {
		if m.Files[i].Path == "run.sh" {
			m.Files[i].Hunks[0] = false
		}
	}
	res, err := f.w.Git.Merge(ctx, f.sess, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conflicts) != 1 || res.Conflicts[0].Path != "img.bin" || !strings.Contains(res.Conflicts[0].Why, "a binary file is merged only whole") ||
		!strings.Contains(res.Conflicts[0].Why, f.wt) || len(res.Merged) != 0 {
		t.Fatalf("merge = %+v", res)
	}
	if got := kindOf(t, filepath.Join(f.proj, "img.bin")); got != "-rw-r--r-- C\\0" {
		t.Fatalf("the user's image is now %q", got)
	}
	if got := kindOf(t, filepath.Join(f.proj, "run.sh")); got != "-rw-r--r-- echo\n" {
		t.Fatalf("run.sh is now %q: its rejected executable bit was applied", got)
	}
}
