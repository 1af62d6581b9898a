//go:build !linux

package ledger

import "errors"

// watcher is Linux-only (inotify): elsewhere every scan is full.
type watcher struct{}

type changes struct {
	dirty map[string]bool
	gone  []string
	full  bool
}

func newWatcher(string) (*watcher, error) {
	return nil, errors.New("folders are watched on Linux only")
}

func (*watcher) close()                   {}
func (*watcher) add(string, string, bool) {}
func (*watcher) watching(string) bool     { return false }
func (*watcher) complete() error          { return nil }
func (*watcher) drain() (changes, error)  { return changes{full: true}, nil }
