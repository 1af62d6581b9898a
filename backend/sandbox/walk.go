package sandbox

import (
	"context"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// Entry is a file found by Walk.
type Entry struct {
	Rel  string      // '/'-separated, relative to the root
	Abs  string      // absolute
	Name string      // last element of Rel
	Type fs.FileMode // type bits only (0 for a regular file, fs.ModeSymlink, ...)
}

// dirJob is a folder waiting to be read.
type dirJob struct {
	abs, rel string
	m        *matcher
}

// Walk calls fn for every file (every entry that is not a folder: regular
// files, symbolic links, devices) below start that the ignore rules do not
// hide. Folders are read in parallel and fn is called from several goroutines
// at once, in no particular order; it must be safe for concurrent use.
// Symbolic links are reported, never followed. .git folders are skipped.
// Walk stops early, returning ctx.Err(), when ctx is cancelled; folders that
// cannot be read are skipped.
func (r *Root) Walk(ctx context.Context, start Path, fn func(Entry)) error {
	return r.WalkFolders(ctx, []Path{start}, nil, fn)
}

// WalkFolders is Walk from several folders at once (each read with the
// ignore rules in force there), that also shows the folders found below
// them: dir, when not nil, gets each one (Type fs.ModeDir) before it is
// read, and the folder is read only if dir returns true. dir is called
// from several goroutines at once, like fn.
func (r *Root) WalkFolders(ctx context.Context, starts []Path, dir func(Entry) bool, fn func(Entry)) error {
	w := &walker{ctx: ctx, fn: fn, dir: dir}
	w.cond = sync.NewCond(&w.mu)
	for _, start := range starts {
		w.push(dirJob{abs: start.Abs, rel: start.Rel, m: r.matcherFor(start.Rel)})
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
	ctx     context.Context
	fn      func(Entry)
	dir     func(Entry) bool // nil: every folder is read
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
	ents, err := readDir(j.abs)
	if err != nil && len(ents) == 0 {
		return
	}
	m := readRules(j.m, j.abs, j.rel, func(name string) bool {
		for _, e := range ents {
			if e.Name() == name {
				return true
			}
		}
		return false
	})
	prefix := j.rel + "/"
	if j.rel == "." {
		prefix = ""
	}
	for _, e := range ents {
		name := e.Name()
		rel := prefix + name
		isDir := e.IsDir()
		if isDir && name == ".git" {
			continue
		}
		if m.ignored(rel, name, isDir) {
			continue
		}
		abs := joinName(j.abs, name)
		if isDir {
			if w.dir == nil || w.dir(Entry{Rel: rel, Abs: abs, Name: name, Type: fs.ModeDir}) {
				w.push(dirJob{abs: abs, rel: rel, m: m})
			}
			continue
		}
		w.fn(Entry{Rel: rel, Abs: abs, Name: name, Type: e.Type()})
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
