package ledger

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// folder is the lock of one folder sessions work in. In this process it
// is a one-slot channel (so that a wait can be cancelled); across the
// Pilot processes sharing a PILOT_HOME it is a file locked by the kernel
// (lockFile), which also names its holder for the ones waiting.
type folder struct {
	slot chan struct{}

	mu     sync.Mutex
	holder string // what holds or is about to hold the slot; "" when free
}

func (f *folder) setHolder(doing string) {
	f.mu.Lock()
	f.holder = doing
	f.mu.Unlock()
}

func (f *folder) holderNow() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.holder
}

// folderOf returns the lock of the folder dir.
func (l *Ledger) folderOf(dir string) *folder {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.folders[dir]
	if f == nil {
		f = &folder{slot: make(chan struct{}, 1)}
		l.folders[dir] = f
	}
	return f
}

// Hold takes the folder dir for work whose effects the ledger records
// apart: a command from its scan before to its scan after, a change from
// its BeginEdit to its Settle, a revert or a rewind. While one holds it,
// no other session of this process nor of another Pilot process using the
// same PILOT_HOME changes files there through Pilot, so every effect a
// scan finds is the holder's. doing names the work for those who wait
// ("session 3 “Fix the tests” (a command: make test)"); waiting, when
// not nil, is called with the holder's doing ("" when not known) each
// time Hold has to wait. The wait ends with ctx; call release when the
// work is done.
func (l *Ledger) Hold(ctx context.Context, dir, doing string, waiting func(holder string)) (release func(), err error) {
	dir = filepath.Clean(dir)
	f := l.folderOf(dir)
	select {
	case f.slot <- struct{}{}:
	default:
		if waiting != nil {
			waiting(f.holderNow())
		}
		select {
		case f.slot <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f.setHolder(doing)
	var file *os.File
	if l.locks != "" {
		path := filepath.Join(l.locks, Hash([]byte(dir))[:32]+".lock")
		file, err = lockFile(ctx, path, func() {
			if waiting != nil {
				waiting(readHolder(path))
			}
		})
		if err != nil {
			f.setHolder("")
			<-f.slot
			return nil, err
		}
		nameHolder(file, doing)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if file != nil {
				_ = file.Truncate(0)
				unlockFile(file)
			}
			f.setHolder("")
			<-f.slot
		})
	}, nil
}

// nameHolder writes what holds the lock into its file, for the other
// processes to tell; a failure only leaves them saying less.
func nameHolder(file *os.File, doing string) {
	if file == nil { // no lock file on this system
		return
	}
	if err := file.Truncate(0); err == nil {
		_, _ = file.WriteAt([]byte(doing), 0)
	}
}

// readHolder reads what holds a folder's lock file, as its holder wrote it.
func readHolder(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
