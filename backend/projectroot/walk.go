package projectroot

import (
	"context"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// Entry is a file found by Walk.
type Entry struct {
	Rel  string      // '/'-separated, relative to the root
	Abs  string      // absolute, for messages and watching: open the entry with OpenFd
	Name string      // last element of Rel
	Type fs.FileMode // type bits only (0 for a regular file, fs.ModeSymlink, ...)
	// Skipped says why Walk would leave the entry out (NotSkipped for
	// every entry Walk reports): only WalkFolders with all reports others.
	Skipped Skipped
	dir     dirHandle // its folder, open while the walk's callback runs
}

// Skipped is why Walk leaves an entry out of the project's files.
type Skipped uint8

const (
	// NotSkipped: one of the project's files.
	NotSkipped Skipped = iota
	// InGit: a .git folder, at any depth, or anything in one.
	InGit
	// Ignored: an ignore rule (.gitignore, .pilotignore,
	// .git/info/exclude) leaves it out, or a folder it is in.
	Ignored
)

// Start is a folder WalkFolders starts from, with why Walk would leave it
// out (NotSkipped for a folder of the project's files): what it finds
// below is left out for the same reason.
type Start struct {
	Path
	Skipped Skipped
}

// OpenFd opens the entry for reading by its name in the folder the walk
// has open, never following a link and never waiting (O_NONBLOCK): a
// folder swapped for a link meanwhile cannot lead it elsewhere. It is valid
// only inside the walk's callback; the caller closes the descriptor.
func (e Entry) OpenFd() (int, error) { return openFileFd(e.dir, e.Name) }

// Lstat is lstat of the entry in the folder the walk has open. It is valid
// only inside the walk's callback.
func (e Entry) Lstat() (fs.FileInfo, error) { return lstatAt(e.dir, e.Name) }

// Readlink reads the entry, a symbolic link, in the folder the walk has
// open. It is valid only inside the walk's callback.
func (e Entry) Readlink() (string, error) { return readlinkAt(e.dir, e.Name) }

// dirJob is a folder waiting to be read: a start folder already open, or
// the folder name inside an open parent.
type dirJob struct {
	parent   *dirRef // nil for a start folder
	h        dirHandle
	name     string
	abs, rel string
	m        *matcher // nil below a skipped folder, whose rules are not read
	skip     Skipped
}

// dirRef is an open folder shared by the jobs of its subfolders: it is
// closed when the last of them has opened its own folder.
type dirRef struct {
	h    dirHandle
	refs atomic.Int32
}

func (d *dirRef) release() {
	if d.refs.Add(-1) == 0 {
		closeFolder(d.h)
	}
}

// open returns the job's folder, open.
func (j dirJob) open() (dirHandle, error) {
	if j.parent == nil {
		return j.h, nil
	}
	defer j.parent.release()
	return openChild(j.parent.h, j.name)
}

// drop gives up a job that will not be read.
func (j dirJob) drop() {
	if j.parent == nil {
		closeFolder(j.h)
	} else {
		j.parent.release()
	}
}

// Walk calls fn for every file (every entry that is not a folder: regular
// files, symbolic links, devices) below start that the ignore rules do not
// hide. Folders are read in parallel and fn is called from several goroutines
// at once, in no particular order; it must be safe for concurrent use.
// Symbolic links are reported, never followed. .git folders are skipped.
// Walk stops early, returning ctx.Err(), when ctx is cancelled; folders that
// cannot be read are skipped. The start folder is opened through the root;
// every folder below is opened by name in its parent, already open, without
// following links, so nothing swapped in meanwhile leads the walk out.
func (r *Root) Walk(ctx context.Context, start Path, fn func(Entry)) error {
	return r.WalkFolders(ctx, []Start{{Path: start}}, false, nil, fn)
}

// WalkFolders is Walk from several folders at once (each read with the
// ignore rules in force there), that also shows the folders found below
// them: dir, when not nil, gets each one (Type fs.ModeDir) before it is
// read, and the folder is read only if dir returns true. dir is called
// from several goroutines at once, like fn. With all, the entries Walk
// leaves out (.git folders and what they hold, ignored files and
// folders) are reported too, each with why in Entry.Skipped; the ignore
// files below a skipped folder are not read.
func (r *Root) WalkFolders(ctx context.Context, starts []Start, all bool, dir func(Entry) bool, fn func(Entry)) error {
	w := &walker{r: r, ctx: ctx, fn: fn, dir: dir, all: all}
	w.cond = sync.NewCond(&w.mu)
	for _, start := range starts {
		if start.Skipped != NotSkipped && !all {
			continue
		}
		h, err := r.openFolder(start.Rel)
		if err != nil {
			continue
		}
		j := dirJob{h: h, abs: start.Abs, rel: start.Rel, skip: start.Skipped}
		if j.skip == NotSkipped {
			j.m = r.matcherFor(start.Rel)
		}
		w.push(j)
	}
	n := 2 * runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for range n {
		wg.Go(w.run)
	}
	wg.Wait()
	return ctx.Err()
}

type walker struct {
	r       *Root
	ctx     context.Context
	fn      func(Entry)
	dir     func(Entry) bool // nil: every folder is read
	all     bool             // report skipped entries too
	mu      sync.Mutex
	cond    *sync.Cond
	stack   []dirJob
	pending int // folders pushed and not yet finished
}

func (w *walker) push(j dirJob) {
	w.mu.Lock()
	w.stack = append(w.stack, j)
	w.pending++
	w.mu.Unlock()
	w.cond.Signal()
}

func (w *walker) run() {
	for {
		w.mu.Lock()
		for len(w.stack) == 0 && w.pending > 0 {
			w.cond.Wait()
		}
		if len(w.stack) == 0 {
			w.mu.Unlock()
			return
		}
		j := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.mu.Unlock()

		if w.ctx.Err() == nil {
			w.readDir(j)
		} else {
			j.drop()
		}

		w.mu.Lock()
		w.pending--
		done := w.pending == 0
		w.mu.Unlock()
		if done {
			w.cond.Broadcast()
		}
	}
}

func (w *walker) readDir(j dirJob) {
	h, err := j.open()
	if err != nil {
		return
	}
	self := &dirRef{h: h}
	self.refs.Store(1)
	defer self.release()
	ents, err := readFolder(h)
	if err != nil && len(ents) == 0 {
		return
	}
	m := j.m
	if j.skip == NotSkipped {
		m = w.r.readRules(j.m, j.rel, func(name string) bool {
			for _, e := range ents {
				if e.Name() == name {
					return true
				}
			}
			return false
		})
	}
	prefix := j.rel + "/"
	if j.rel == "." {
		prefix = ""
	}
	for _, e := range ents {
		name := e.Name()
		rel := prefix + name
		isDir := e.IsDir()
		skip := j.skip
		switch {
		case isDir && name == ".git":
			skip = InGit // a repository's own, even inside an ignored folder
		case skip == NotSkipped && m.ignored(rel, name, isDir):
			skip = Ignored
		}
		if skip != NotSkipped && !w.all {
			continue
		}
		abs := joinName(j.abs, name)
		if isDir {
			if w.dir == nil || w.dir(Entry{Rel: rel, Abs: abs, Name: name, Type: fs.ModeDir, Skipped: skip, dir: h}) {
				self.refs.Add(1)
				w.push(dirJob{parent: self, name: name, abs: abs, rel: rel, m: m, skip: skip})
			}
			continue
		}
		w.fn(Entry{Rel: rel, Abs: abs, Name: name, Type: e.Type(), Skipped: skip, dir: h})
	}
}

// joinName is filepath.Join for a clean folder and a name read from it,
// without Join's cleaning, which a walk would pay for every file.
func joinName(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}
