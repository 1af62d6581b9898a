// Package logging writes Pilot's structured log to a size-capped, rotated
// file under $PILOT_HOME/logs.
package logging

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"pilot/backend/ownerfile"
)

// Defaults for Open: pilot.log grows to 5 MiB, then becomes pilot.log.1 and
// so on; three old files are kept.
const (
	DefaultMaxBytes = 5 << 20
	DefaultKeep     = 3
)

// RotatingFile is an io.Writer that rotates its file by size.
type RotatingFile struct {
	mu       sync.Mutex
	path     string
	maxBytes int64
	keep     int
	f        *os.File
	size     int64
}

// OpenRotating opens (appending) path and rotates it when a write would
// take it past maxBytes.
func OpenRotating(path string, maxBytes int64, keep int) (*RotatingFile, error) {
	r := &RotatingFile{path: path, maxBytes: maxBytes, keep: keep}
	if err := r.open(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *RotatingFile) open() error {
	f, err := os.OpenFile(r.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("cannot open the log file: %w", err)
	}
	// The log may quote a request's text: the owner's only, on Windows
	// too where the mode above means nothing (an access list there).
	if err := ownerfile.Restrict(r.path); err != nil {
		f.Close()
		return fmt.Errorf("cannot make the log file private: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	r.f, r.size = f, st.Size()
	return nil
}

// Write appends p, rotating first when the file is full.
func (r *RotatingFile) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return 0, os.ErrClosed
	}
	if r.size > 0 && r.size+int64(len(p)) > r.maxBytes {
		if err := r.rotate(); err != nil {
			return 0, err
		}
	}
	n, err := r.f.Write(p)
	r.size += int64(n)
	return n, err
}

func (r *RotatingFile) rotate() error {
	if err := r.f.Close(); err != nil {
		return err
	}
	for i := r.keep - 1; i >= 1; i-- {
		_ = os.Rename(fmt.Sprintf("%s.%d", r.path, i), fmt.Sprintf("%s.%d", r.path, i+1))
	}
	if r.keep > 0 {
		_ = os.Rename(r.path, r.path+".1")
	} else {
		_ = os.Remove(r.path)
	}
	return r.open()
}

// Close closes the file.
func (r *RotatingFile) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	return err
}

// Open sets up the JSON slog logger writing to dir/pilot.log. redact is
// applied to every string value so secrets never reach the file.
func Open(dir string, level slog.Level, redact func(string) string) (*slog.Logger, io.Closer, error) {
	w, err := OpenRotating(filepath.Join(dir, "pilot.log"), DefaultMaxBytes, DefaultKeep)
	if err != nil {
		return nil, nil, err
	}
	return New(w, level, redact), w, nil
}

// New returns a JSON logger on w whose string attributes pass through redact.
func New(w io.Writer, level slog.Level, redact func(string) string) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	if redact != nil {
		opts.ReplaceAttr = func(_ []string, a slog.Attr) slog.Attr {
			switch a.Value.Kind() {
			case slog.KindString:
				return slog.String(a.Key, redact(a.Value.String()))
			case slog.KindAny:
				if err, ok := a.Value.Any().(error); ok {
					return slog.String(a.Key, redact(err.Error()))
				}
			}
			return a
		}
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}
