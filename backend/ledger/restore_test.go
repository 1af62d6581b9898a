package ledger

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/store"
	"pilot/backend/wire"
)

// TestRewindToFirstMessage: after edits that modify, create (in a new
// folder) and change a file twice over two messages, rewinding to the
// first message gives back the tree byte for byte, and undoing the rewind
// brings every change back.
func TestRewindToFirstMessage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{"main.go": "package main\n", "README.md": "# demo\n"})
	before := f.tree()
	first := f.say("make it better")
	f.edit("main.go", "package main\n\nfunc main() {}\n")
	f.edit("pkg/util/util.go", "package util\n")
	f.say("again")
	f.edit("main.go", "package main\n\nfunc main() { println(1) }\n")
	after := f.tree()

	res, err := f.lg.RewindSession(f.ctx, f.sess.ID, first, wire.RewindCode, none())
	if err != nil {
		t.Fatal(err)
	}
	if !res.Done || len(res.Restored) != 2 || res.CheckpointID == 0 {
		t.Fatalf("result %+v", res)
	}
	if got := f.tree(); got != before {
		t.Fatalf("tree after rewind:\n%s\nwant:\n%s", got, before)
	}
	note, err := f.st.Sessions.TakePendingNote(f.ctx, f.sess.ID)
	if err != nil || !strings.Contains(note, "main.go (restored)") || !strings.Contains(note, "pkg/util/util.go (removed)") {
		t.Errorf("note for the model %q, %v", note, err)
	}

	// A rewind is a checkpoint: undoing it restores the session's changes.
	undo, err := f.lg.RevertCheckpointFor(f.ctx, res.CheckpointID, none())
	if err != nil || !undo.Done {
		t.Fatalf("undo the rewind: %+v %v", undo, err)
	}
	if got := f.tree(); got != after {
		t.Fatalf("tree after undoing the rewind:\n%s\nwant:\n%s", got, after)
	}
}

// TestConflictNeverOverwrites: a file edited outside Pilot after its
// checkpoint is a conflict; nothing is written until the user chooses;
// "mine" leaves it, "checkpoint" overwrites it but keeps the user's
// version in the ledger, so that too can be undone.
func TestConflictNeverOverwrites(t *testing.T) {
	t.Parallel()
	for _, choice := range []wire.Resolution{"", wire.ResolveMine, wire.ResolveCheckpoint} {
		t.Run("resolution "+string(choice), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, map[string]string{"a.txt": "one\n", "b.txt": "bee\n"})
			f.say("change both")
			cpA := f.edit("a.txt", "two\n")
			f.edit("b.txt", "BEE\n")
			f.write(map[string]string{"a.txt": "two, and the user's line\n"})

			res, err := f.lg.RevertCheckpointFor(f.ctx, cpA.ID, none())
			if err != nil {
				t.Fatal(err)
			}
			if res.Done || len(res.Conflicts) != 1 || res.Conflicts[0].Path != "a.txt" ||
				res.Conflicts[0].Mine.NewText != "two, and the user's line\n" || res.Conflicts[0].Checkpoint.NewText != "one\n" {
				t.Fatalf("conflict %+v", res)
			}
			if f.read("a.txt") != "two, and the user's line\n" {
				t.Fatal("a conflict was overwritten")
			}
			if choice == "" {
				return
			}
			res, err = f.lg.RevertCheckpointFor(f.ctx, cpA.ID, wire.RestoreInput{Resolutions: map[string]wire.Resolution{"a.txt": choice}})
			if err != nil || !res.Done {
				t.Fatalf("%+v %v", res, err)
			}
			want := map[wire.Resolution]string{wire.ResolveMine: "two, and the user's line\n", wire.ResolveCheckpoint: "one\n"}[choice]
			if f.read("a.txt") != want || f.read("b.txt") != "BEE\n" {
				t.Fatalf("a %q b %q", f.read("a.txt"), f.read("b.txt"))
			}
			if choice == wire.ResolveCheckpoint {
				if _, err := f.lg.RevertCheckpointFor(f.ctx, res.CheckpointID, none()); err != nil {
					t.Fatal(err)
				}
				if f.read("a.txt") != "two, and the user's line\n" {
					t.Fatalf("the user's version was lost: %q", f.read("a.txt"))
				}
			}
		})
	}
}

// TestRevertUnderLaterChange: reverting an earlier change to a file that
// a later change edited elsewhere takes out only the earlier change; a
// revert that clashes with the later edit is a conflict.
func TestRevertUnderLaterChange(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{"f.txt": "a\nb\nc\nd\ne\nf\ng\nh\n"})
	f.say("go")
	first := f.edit("f.txt", "A\nb\nc\nd\ne\nf\ng\nh\n")
	f.edit("f.txt", "A\nb\nc\nd\ne\nf\ng\nH\n")
	res, err := f.lg.RevertCheckpointFor(f.ctx, first.ID, none())
	if err != nil || !res.Done {
		t.Fatalf("%+v %v", res, err)
	}
	if got := f.read("f.txt"); got != "a\nb\nc\nd\ne\nf\ng\nH\n" {
		t.Fatalf("merged revert %q", got)
	}

	g := newFixture(t, map[string]string{"f.txt": "a\nb\n"})
	g.say("go")
	first = g.edit("f.txt", "A\nb\n")
	g.edit("f.txt", "AA\nb\n")
	res, err = g.lg.RevertCheckpointFor(g.ctx, first.ID, none())
	if err != nil || len(res.Conflicts) != 1 || g.read("f.txt") != "AA\nb\n" {
		t.Fatalf("a clashing revert: %+v %v, file %q", res, err, g.read("f.txt"))
	}
}

// TestRevertFile puts one file back to before the session, leaving others.
func TestRevertFile(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	f.say("go")
	f.edit("a.txt", "a1\n")
	f.edit("b.txt", "b1\n")
	f.edit("a.txt", "a2\n")
	res, err := f.lg.RevertFileFor(f.ctx, f.sess.ID, "a.txt", none())
	if err != nil || !res.Done || f.read("a.txt") != "a\n" || f.read("b.txt") != "b1\n" {
		t.Fatalf("%+v %v: a %q b %q", res, err, f.read("a.txt"), f.read("b.txt"))
	}
	v, err := f.lg.View(f.ctx, f.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]wire.LedgerOp{}
	for _, lf := range v.Files {
		kinds[lf.Path] = lf.Kind
	}
	if kinds["a.txt"] != "" || kinds["b.txt"] != wire.OpModified {
		t.Errorf("net effects %v", kinds)
	}
	undone := 0
	for _, c := range v.Checkpoints {
		if c.Undone {
			undone++
		}
	}
	if undone != 2 {
		t.Errorf("%d checkpoints marked undone, want the two edits of a.txt", undone)
	}
}

// TestRestoreNeverFollowsSymlinks: a folder of a changed file replaced by
// a link to somewhere outside the project is not written through.
func TestRestoreNeverFollowsSymlinks(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{"sub/x.txt": "x\n"})
	outside := t.TempDir()
	f.say("go")
	f.edit("sub/x.txt", "X\n")
	if err := os.RemoveAll(filepath.Join(f.dir, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(f.dir, "sub")); err != nil {
		t.Fatal(err)
	}
	res, err := f.lg.RevertFileFor(f.ctx, f.sess.ID, "sub/x.txt", none())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Missing) != 1 || !strings.Contains(res.Missing[0].Why, "outside the project") && !strings.Contains(res.Missing[0].Why, "symbolic link") {
		t.Fatalf("result %+v", res)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("a restore wrote outside the project: %v", ents)
	}
}

// TestRestoreKeepsFoldersTheProjectHad: undoing the creation of a file
// removes the folders made for it, and leaves a folder the project already
// had, even an empty one (a rewind, a revert of the change, and a revert of
// the file), whether an edit or a command created it.
func TestRestoreKeepsFoldersTheProjectHad(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ how, by string }{
		{"rewind", "edit"}, {"checkpoint", "edit"}, {"file", "edit"},
		{"rewind", "command"}, {"checkpoint", "command"}, {"file", "command"},
	} {
		how := c.how
		t.Run(how+" "+c.by, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, map[string]string{"keep.txt": "keep\n"})
			if err := os.MkdirAll(filepath.Join(f.dir, "empty", "inner"), 0o755); err != nil {
				t.Fatal(err)
			}
			before := f.tree()
			first := f.say("write notes")
			create := func(rel string) store.Checkpoint {
				if c.by == "edit" {
					return f.edit(rel, "made\n")
				}
				return f.command(func() { f.write(map[string]string{rel: "made\n"}) })
			}
			cp := create("empty/inner/note.txt")
			if got := cp.Files[0].MadeDirs; got == nil || len(got) != 0 {
				t.Fatalf("made dirs of a file in existing folders: %#v", got)
			}
			cp2 := create("empty/new/deep/made.txt")
			if got := strings.Join(cp2.Files[0].MadeDirs, ","); got != "empty/new,empty/new/deep" {
				t.Fatalf("made dirs %q", got)
			}
			var err error
			switch how {
			case "rewind":
				_, err = f.lg.RewindSession(f.ctx, f.sess.ID, first, wire.RewindCode, none())
			case "checkpoint":
				if _, err = f.lg.RevertCheckpointFor(f.ctx, cp.ID, none()); err == nil {
					_, err = f.lg.RevertCheckpointFor(f.ctx, cp2.ID, none())
				}
			case "file":
				if _, err = f.lg.RevertFileFor(f.ctx, f.sess.ID, "empty/inner/note.txt", none()); err == nil {
					_, err = f.lg.RevertFileFor(f.ctx, f.sess.ID, "empty/new/deep/made.txt", none())
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := f.tree(); got != before {
				t.Fatalf("tree after the %s:\n%s\nwant:\n%s", how, got, before)
			}
		})
	}
}
