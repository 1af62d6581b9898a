package ledger

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"pilot/backend/projectroot"
)

// Limits bound what a command's checkpoint keeps and lists.
type Limits struct {
	MaxFileBytes int64 // larger files are listed but their content is not kept (Kept=false)
	MaxFiles     int   // most effects recorded per command (content kept, revertable); the rest are listed
	// MaxListed is the most files listed per command without being
	// recorded (in .git folders, ignored, over MaxFiles), those that can
	// run code first; the rest are counted as omitted.
	MaxListed int
}

// DefaultLimits are the limits Pilot runs with.
var DefaultLimits = Limits{MaxFileBytes: 4 << 20, MaxFiles: 2000, MaxListed: 2000}

// Op is what a command did to a file.
type Op string

// The effects a command can have on a file.
const (
	Created  Op = "created"
	Modified Op = "modified"
	Deleted  Op = "deleted"
)

// Effect is one file a command changed.
type Effect struct {
	Path          string // project-relative, '/'-separated
	Op            Op
	Before, After FileState
	// MadeDirs, for a created file, are the folders on its path that were
	// not there before the command, outermost first; nil when not known.
	MadeDirs []string
	// Skipped: a file the ledger lists but keeps none of (in a .git
	// folder, ignored); its states' hashes stand for its stat.
	Skipped projectroot.Skipped
	// Folder: a .git folder the command made (Op Created), not a file.
	Folder bool
}

// racyMargin: a file whose mtime is this close to (or after) the start of
// the scan that hashed it may have changed again within the file system's
// timestamp granularity without its stat changing, so it is hashed again
// at the next scan ("racily clean", as git calls it). Timestamps come from
// a coarse clock that can lag the real one, hence a generous margin.
const racyMargin = int64(2 * time.Second)

// Trees scans projects and keeps, per project, the last scan (a manifest
// of every file's stat and hash) in its folder under PILOT_HOME, so that a
// scan only reads and stores the files whose stat changed. It is safe for
// concurrent use; scans of one project run one at a time.
type Trees struct {
	blobs  *Blobs
	dir    string
	limits Limits
	log    *slog.Logger
	saves  sync.WaitGroup // manifests being written (saveLater)

	mu       sync.Mutex
	projects map[string]*project // by absolute project folder
}

// project is the state of one project folder.
type project struct {
	mu   sync.Mutex // held for a whole scan
	path string     // of its manifest file
	cur  *manifest  // last scan; nil until loaded
	sv   saver      // writes cur to path

	// w watches the folders of the last full scan, so that the next scans
	// read only the folders that changed; nil when there is none (not yet,
	// or the project cannot be watched: noWatch says why).
	w       *watcher
	noWatch error
	fullAt  time.Time // when the last full scan started
	exclude int64     // .git/info/exclude's mtime at that scan
	scans   scanCounts
}

// scanCounts count a project's scans by kind (for tests and benchmarks).
type scanCounts struct{ full, partial, none int }

// NewTrees keeps the manifests in dir and the content in blobs. A limit
// that is zero or negative is taken from DefaultLimits.
func NewTrees(blobs *Blobs, dir string, limits Limits) *Trees {
	if limits.MaxFileBytes <= 0 {
		limits.MaxFileBytes = DefaultLimits.MaxFileBytes
	}
	if limits.MaxFiles <= 0 {
		limits.MaxFiles = DefaultLimits.MaxFiles
	}
	if limits.MaxListed <= 0 {
		limits.MaxListed = DefaultLimits.MaxListed
	}
	return &Trees{blobs: blobs, dir: dir, limits: limits, log: slog.New(slog.DiscardHandler), projects: map[string]*project{}}
}

// Close stops watching the projects' folders, and waits for their last
// scans to be written.
func (t *Trees) Close() {
	defer t.saves.Wait()
	t.mu.Lock()
	projects := slices.Collect(maps.Values(t.projects))
	t.mu.Unlock()
	for _, p := range projects {
		p.mu.Lock()
		p.stopWatching(nil)
		p.mu.Unlock()
	}
}

// Limits returns the limits t was made with.
func (t *Trees) Limits() Limits { return t.limits }

func (t *Trees) project(root string) *project {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.projects[root]
	if p == nil {
		p = &project{path: filepath.Join(t.dir, Hash([]byte(root))[:32]+".manifest")}
		t.projects[root] = p
	}
	return p
}

// Snapshot is a project scanned before a command; After finds what the
// command changed.
type Snapshot struct {
	t      *Trees
	p      *project
	root   *projectroot.Root
	before *manifest
}

// Before scans the project: every file is lstat'ed (symbolic links are
// never followed), and the content of each file the ignore rules let
// through that is new or changed since the last scan of this project is
// stored in the blob store (the first scan of a project stores
// everything). Files in .git folders and ignored ones are only lstat'ed.
func (t *Trees) Before(ctx context.Context, root *projectroot.Root) (*Snapshot, error) {
	p := t.project(root.Dir())
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cur == nil {
		p.cur = loadManifest(p.path, root.Dir())
	}
	m, err := t.scan(ctx, root, p)
	if err != nil {
		return nil, err
	}
	p.cur = m
	return &Snapshot{t: t, p: p, root: root, before: m}, nil
}

// After scans the project again, stores the content of what changed,
// persists the scan and returns every effect since Before, sorted by
// path: the project's files, the files in .git folders and the ignored
// ones (Effect.Skipped), and the .git folders made (Effect.Folder).
func (s *Snapshot) After(ctx context.Context) ([]Effect, error) {
	s.p.mu.Lock()
	defer s.p.mu.Unlock()
	m, err := s.t.scan(ctx, s.root, s.p)
	if err != nil {
		return nil, err
	}
	s.p.cur = m
	s.t.saveLater(s.p, m)
	return compare(s.before, m), nil
}

// compare lists what changed from a to b, sorted by path.
func compare(a, b *manifest) []Effect {
	var out []Effect
	created := 0
	for rel, eb := range b.files {
		ea, ok := a.files[rel]
		switch {
		case !ok:
			out = append(out, Effect{Path: rel, Op: Created, After: eb.state(), MadeDirs: a.madeDirs(rel), Skipped: eb.skip})
			created++
		case changed(ea, eb):
			out = append(out, Effect{Path: rel, Op: Modified, Before: ea.state(), After: eb.state(), Skipped: max(ea.skip, eb.skip)})
		}
	}
	if len(b.files)-created != len(a.files) {
		for rel, ea := range a.files {
			if _, ok := b.files[rel]; !ok {
				out = append(out, Effect{Path: rel, Op: Deleted, Before: ea.state(), Skipped: ea.skip})
			}
		}
	}
	if a.dirs != nil {
		for rel := range b.dirs {
			if _, had := a.dirs[rel]; !had && path.Base(rel) == ".git" && !b.empty(rel) {
				out = append(out, Effect{Path: rel, Op: Created, Skipped: projectroot.InGit, Folder: true})
			}
		}
	}
	slices.SortFunc(out, func(x, y Effect) int { return strings.Compare(x.Path, y.Path) })
	return out
}

// empty reports whether the folder rel holds nothing in m. An empty .git
// is no repository (git looks above it, as without one): the sandbox's
// placeholder, made by Pilot while a pod runs in a folder that has none,
// is one, and is not reported as a new repository.
func (m *manifest) empty(rel string) bool {
	prefix := rel + "/"
	for d := range m.dirs {
		if strings.HasPrefix(d, prefix) {
			return false
		}
	}
	for f := range m.files {
		if strings.HasPrefix(f, prefix) {
			return false
		}
	}
	return true
}

// changed reports whether a file changed between two scans. A file the
// ledger started or stopped keeping (an ignore rule changed) has a hash of
// its content on one side and of its stat on the other: its stat tells.
func changed(a, b entry) bool {
	if a.skip != b.skip {
		return !a.sameStat(b)
	}
	return a.hash != b.hash || a.mode != b.mode
}

// madeDirs returns the folders on rel's path that m did not have,
// outermost first; nil when m does not know its folders.
func (m *manifest) madeDirs(rel string) []string {
	if m.dirs == nil {
		return nil
	}
	out := []string{}
	for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
		if _, ok := m.dirs[dir]; ok {
			break
		}
		out = append([]string{dir}, out...)
	}
	return out
}

// read fills in the hash of the file at abs, storing its content when it
// is within the limit. A file that cannot be read gets a hash made from
// its stat, so that it is still listed and a change of its stat is seen.
func (t *Trees) read(e projectroot.Entry, ent *entry, base string) error {
	if ent.mode&fs.ModeSymlink != 0 {
		target, err := e.Readlink()
		if err != nil {
			ent.hash = statHash(ent)
			return nil
		}
		return t.keep([]byte(target), ent, base)
	}
	// Opened by name in the folder the walk has open (never through a
	// link, so a folder swapped for one cannot bring an outside file into
	// the ledger), O_NONBLOCK: a file replaced by a named pipe since the
	// lstat must not block the scan.
	fd, err := e.OpenFd()
	if err != nil {
		ent.hash = statHash(ent)
		return nil
	}
	f := os.NewFile(uintptr(fd), e.Rel)
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		ent.hash = statHash(ent)
		return nil
	}
	limit := t.limits.MaxFileBytes
	var buf bytes.Buffer
	if ent.size <= limit {
		buf.Grow(int(ent.size) + 512)
	}
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		ent.hash = statHash(ent)
		return nil
	}
	if int64(buf.Len()) <= limit {
		return t.keep(buf.Bytes(), ent, base)
	}
	// Over the limit: hashed as it streams by, not kept.
	h := sha256.New()
	h.Write(buf.Bytes())
	if _, err := io.Copy(h, f); err != nil {
		ent.hash = statHash(ent)
		return nil
	}
	h.Sum(ent.hash[:0])
	return nil
}

// keep stores data and records it in ent.
func (t *Trees) keep(data []byte, ent *entry, base string) error {
	ent.hash = sha256.Sum256(data)
	ent.kept = true
	if base == hex.EncodeToString(ent.hash[:]) {
		return nil // same content, already stored
	}
	if _, err := t.blobs.Put(data, base); err != nil {
		return err
	}
	return nil
}

// listHash stands for the content of a file the ledger lists but does not
// read (in a .git folder, ignored): its stat. The ctime changes with every
// write and cannot be set back, and a file replaced by a rename has
// another inode, so a rewrite keeping size and mtime is still seen; one
// missed is a rewrite keeping the size within the same tick of the
// kernel's file time clock (a few milliseconds) as the scan's lstat
// before it, the earlier write being in that tick too.
func listHash(ent *entry) [32]byte {
	return sha256.Sum256(binary.AppendUvarint(statBytes("listed\x00", ent), ent.ino))
}

// statHash stands for the content of a file that could not be read.
func statHash(ent *entry) [32]byte { return sha256.Sum256(statBytes("unreadable\x00", ent)) }

// statBytes is what the two hashes of a file's stat hash: tag, then its size,
// mtime and ctime.
func statBytes(tag string, ent *entry) []byte {
	b := append([]byte(nil), tag...)
	b = binary.AppendVarint(b, ent.size)
	b = binary.AppendVarint(b, ent.mtime)
	return binary.AppendVarint(b, ent.ctime)
}

// Live returns every hash that the kept content of the projects' last
// scans (persisted, and in memory) refers to: what Blobs.Sweep must keep
// for them.
func (t *Trees) Live() (map[string]bool, error) {
	live := map[string]bool{}
	add := func(m *manifest) {
		for _, e := range m.files {
			if e.kept {
				live[hex.EncodeToString(e.hash[:])] = true
			}
		}
	}
	ents, err := os.ReadDir(t.dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("ledger: trees: %w", err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".manifest") && !strings.HasPrefix(e.Name(), ".") {
			data, err := readShared(filepath.Join(t.dir, e.Name()))
			if err != nil {
				continue
			}
			if m, err := unmarshalManifest(data); err == nil {
				add(m)
			}
		}
	}
	t.mu.Lock()
	projects := make([]*project, 0, len(t.projects))
	for _, p := range t.projects {
		projects = append(projects, p)
	}
	t.mu.Unlock()
	for _, p := range projects {
		p.mu.Lock()
		if p.cur != nil {
			add(p.cur)
		}
		p.mu.Unlock()
	}
	return live, nil
}
