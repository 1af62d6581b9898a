package ledger

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"pilot/backend/llm"
	"pilot/backend/projectroot"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// fixture is a project folder with a session, a store and a ledger, all
// real, under t.TempDir().
type fixture struct {
	t    testing.TB
	ctx  context.Context
	dir  string
	home string
	st   *store.Store
	lg   *Ledger
	root *projectroot.Root
	sess store.Session
}

func newFixture(t testing.TB, files map[string]string) *fixture {
	t.Helper()
	base := t.TempDir()
	f := &fixture{t: t, ctx: context.Background(), dir: filepath.Join(base, "project"), home: filepath.Join(base, "home")}
	f.write(files)
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var err error
	if err = os.MkdirAll(f.home, 0o700); err != nil {
		t.Fatal(err)
	}
	if f.st, err = store.Open(f.ctx, filepath.Join(f.home, "pilot.db")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.st.Close() })
	f.open()
	if f.root, err = projectroot.New(f.dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.root.Close() }) // Windows deletes no folder held open
	p, err := f.st.Projects.Touch(f.ctx, f.dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.sess, err = f.st.Sessions.Create(f.ctx, store.NewSession{ProjectID: p.ID}); err != nil {
		t.Fatal(err)
	}
	return f
}

// open (re)opens the ledger, as a restarted Pilot does.
func (f *fixture) open() {
	lg, err := Open(filepath.Join(f.home, "checkpoints"), f.st, Limits{MaxFileBytes: 64 << 10, MaxFiles: 50}, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.lg = lg
	f.t.Cleanup(lg.Close)
}

func (f *fixture) write(files map[string]string) {
	f.t.Helper()
	for rel, text := range files {
		abs := filepath.Join(f.dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			f.t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
}

func (f *fixture) read(rel string) string {
	b, err := os.ReadFile(filepath.Join(f.dir, filepath.FromSlash(rel)))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

// say appends a user message and returns its id.
func (f *fixture) say(text string) int64 {
	f.t.Helper()
	m, err := f.st.Messages.Append(f.ctx, f.sess.ID, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(text)}}, llm.Usage{})
	if err != nil {
		f.t.Fatal(err)
	}
	return m.ID
}

// edit does what the agent does for an approved change: checkpoint, write,
// settle.
func (f *fixture) edit(rel, text string) store.Checkpoint {
	f.t.Helper()
	abs := filepath.Join(f.dir, filepath.FromSlash(rel))
	before, old, err := ReadState(abs)
	if err != nil {
		f.t.Fatal(err)
	}
	cp, err := f.lg.BeginEdit(f.ctx, f.sess.ID, 0, "→ Editing "+rel, []EditFile{{Path: rel, Before: before, Old: old, New: []byte(text), Mode: 0o644}})
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.root.MkdirAll(path.Dir(rel)); err != nil {
		f.t.Fatal(err)
	}
	if err := f.root.WriteAtomic(rel, []byte(text), 0o644); err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.lg.Settle(f.ctx, cp, f.root); err != nil {
		f.t.Fatal(err)
	}
	cp, err = f.st.Checkpoints.Get(f.ctx, cp.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	return cp
}

// command does what the agent does around an approved command: scan
// before, run it (fn), record what it changed.
func (f *fixture) command(fn func()) store.Checkpoint {
	f.t.Helper()
	cmd, err := f.lg.BeforeCommand(f.ctx, f.root)
	if err != nil {
		f.t.Fatal(err)
	}
	fn()
	cp, err := cmd.Finish(f.ctx, f.sess.ID, 0, "→ Running a command")
	if err != nil {
		f.t.Fatal(err)
	}
	if cp, err = f.st.Checkpoints.Get(f.ctx, cp.ID); err != nil {
		f.t.Fatal(err)
	}
	return cp
}

// tree hashes every file of the project with its mode (symlinks by their
// target), and lists every folder: two equal trees are byte-identical.
func (f *fixture) tree() string {
	f.t.Helper()
	var lines []string
	err := filepath.WalkDir(f.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(f.dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.IsDir():
			lines = append(lines, "d "+rel+" "+fi.Mode().String())
		case fi.Mode()&fs.ModeSymlink != 0:
			t, _ := os.Readlink(p)
			lines = append(lines, "l "+rel+" -> "+t)
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h := sha256.Sum256(b)
			lines = append(lines, "f "+rel+" "+fi.Mode().String()+" "+hex.EncodeToString(h[:8]))
		}
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func none() wire.RestoreInput { return wire.RestoreInput{Resolutions: map[string]wire.Resolution{}} }
