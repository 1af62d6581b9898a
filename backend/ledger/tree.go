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

	"pilot/backend/sandbox"
)

// Limits bound what a command's checkpoint keeps.
type Limits struct {
	MaxFileBytes int64 // larger files are listed but their content is not kept (Kept=false)
	MaxFiles     int   // most effects reported per command; the rest are counted as omitted
}

// DefaultLimits are the limits Pilot runs with.
var DefaultLimits = Limits{MaxFileBytes: 4 << 20, MaxFiles: 2000}

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
	root   *sandbox.Root
	before *manifest
}

// Before scans the project: every file the ignore rules let through is
// lstat'ed (symbolic links are never followed), and the content of each
// file that is new or changed since the last scan of this project is
// stored in the blob store. The first scan of a project stores everything.
func (t *Trees) Before(ctx context.Context, root *sandbox.Root) (*Snapshot, error) {
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
// persists the scan and returns the effects since Before, sorted by path:
// at most Limits.MaxFiles of them, omitted counting the rest.
func (s *Snapshot) After(ctx context.Context) (effects []Effect, omitted int, err error) {
	s.p.mu.Lock()
	defer s.p.mu.Unlock()
	m, err := s.t.scan(ctx, s.root, s.p)
	if err != nil {
		return nil, 0, err
	}
	s.p.cur = m
	s.t.saveLater(s.p, m)
	effects = compare(s.before, m)
	if max := s.t.limits.MaxFiles; len(effects) > max {
		omitted = len(effects) - max
		effects = effects[:max:max]
	}
	return effects, omitted, nil
}

// compare lists what changed from a to b, sorted by path.
func compare(a, b *manifest) []Effect {
	var out []Effect
	for rel, eb := range b.files {
		ea, ok := a.files[rel]
		switch {
		case !ok:
			out = append(out, Effect{Path: rel, Op: Created, After: eb.state(), MadeDirs: a.madeDirs(rel)})
		case ea.hash != eb.hash || ea.mode != eb.mode:
			out = append(out, Effect{Path: rel, Op: Modified, Before: ea.state(), After: eb.state()})
		}
	}
	if len(b.files)-countCreated(out) != len(a.files) {
		for rel, ea := range a.files {
			if _, ok := b.files[rel]; !ok {
				out = append(out, Effect{Path: rel, Op: Deleted, Before: ea.state()})
			}
		}
	}
	slices.SortFunc(out, func(x, y Effect) int { return strings.Compare(x.Path, y.Path) })
	return out
}

// madeDirs returns the folders on rel's path that m did not have,
// outermost first; nil when m does not know its folders.
func (m *manifest) madeDirs(rel string) []string {
	if m.dirs == nil {
		return nil
	}
	out := []string{}
	for dir := path.Dir(rel); dir != "." && !m.dirs[dir]; dir = path.Dir(dir) {
		out = append([]string{dir}, out...)
	}
	return out
}

func countCreated(effects []Effect) int {
	n := 0
	for _, e := range effects {
		if e.Op == Created {
			n++
		}
	}
	return n
}

// read fills in the hash of the file at abs, storing its content when it
// is within the limit. A file that cannot be read gets a hash made from
// its stat, so that it is still listed and a change of its stat is seen.
func (t *Trees) read(e sandbox.Entry, ent *entry, base string) error {
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

// statHash stands for the content of a file that could not be read.
func statHash(ent *entry) [32]byte {
	var b []byte
	b = append(b, "unreadable\x00"...)
	b = binary.AppendVarint(b, ent.size)
	b = binary.AppendVarint(b, ent.mtime)
	b = binary.AppendVarint(b, ent.ctime)
	return sha256.Sum256(b)
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
			data, err := os.ReadFile(filepath.Join(t.dir, e.Name()))
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
