package service

import (
	"os"
	"sync"

	"pilot/backend/config"
)

// resolvedMemo keeps the configurations resolved for sessions
// (resolvePinned: opening one, its turns), each with what the files it
// was read from (config.Sources) were then. While none of them changed
// (Pilot writes a settings file through a new file renamed over it, so
// each of its writes is another file; a hand edit changes the file's size
// or time), the next resolution of the same project and layers is the
// kept one, without reading and checking the files again.
type resolvedMemo struct {
	mu sync.Mutex
	m  map[resolvedKey]resolvedEntry
}

type resolvedKey struct {
	dir    string
	layers [2]pin
}

type resolvedEntry struct {
	r     config.Resolved
	err   error
	files []os.FileInfo // the sources as they were (nil: not there)
}

// resolvedKept bounds the configurations kept (projects times the
// providers and models of their sessions): past it, they are all
// forgotten.
const resolvedKept = 64

// get is the configuration of k, kept while sources are unchanged, else
// made by resolve.
func (m *resolvedMemo) get(k resolvedKey, sources []string, resolve func() (config.Resolved, error)) (config.Resolved, error) {
	files := statAll(sources)
	m.mu.Lock()
	e, ok := m.m[k]
	m.mu.Unlock()
	if ok && sameFiles(e.files, files) {
		return e.r, e.err
	}
	r, err := resolve()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || len(m.m) >= resolvedKept {
		m.m = map[resolvedKey]resolvedEntry{}
	}
	m.m[k] = resolvedEntry{r: r, err: err, files: files}
	return r, err
}

// statAll is each source file as it is now (nil: not there). It is taken
// before the files are read, so a change after it is seen next time.
func statAll(sources []string) []os.FileInfo {
	files := make([]os.FileInfo, len(sources))
	for i, p := range sources {
		files[i], _ = os.Stat(p)
	}
	return files
}

// keptWhile is one value made from files, kept while none of them
// changed (the same test as resolvedMemo's).
type keptWhile[T any] struct {
	mu    sync.Mutex
	made  bool
	v     T
	err   error
	files []os.FileInfo
}

// get is the kept value while sources are unchanged, else the one build
// gives now (kept in turn).
func (k *keptWhile[T]) get(sources []string, build func() (T, error)) (T, error) {
	files := statAll(sources)
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.made && sameFiles(k.files, files) {
		return k.v, k.err
	}
	k.v, k.err = build()
	k.made, k.files = true, files
	return k.v, k.err
}

// sameFiles reports whether each file of a is the one of b, unchanged.
func sameFiles(a, b []os.FileInfo) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		switch {
		case a[i] == nil || b[i] == nil:
			if a[i] != b[i] {
				return false
			}
		case !os.SameFile(a[i], b[i]) || a[i].Size() != b[i].Size() || !a[i].ModTime().Equal(b[i].ModTime()):
			return false
		}
	}
	return true
}
