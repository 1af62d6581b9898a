package projectroot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrTooLarge is returned by ReadAtMost for a file larger than its limit.
var ErrTooLarge = errors.New("file too large")

// readFlags open anything without waiting: a FIFO or a device opened for
// reading would block the open itself, and must not become a terminal.
const readFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY

// OpenRead opens p through the root for reading and returns the open file,
// its information (fstat of what was opened, so nothing can be swapped in
// between) and p as a Path (as given, cleaned: links on the way are not
// named, which would cost a lookup in /proc per read). A folder is returned open like a file; the
// caller says what it wants. Anything else that is not a regular file (a
// FIFO, a socket, a device) is closed and refused with a *PathError
// wrapping ErrNotRegular. A missing file is an fs.ErrNotExist error; a way
// out of the root, a link loop or a file on the way is a *PathError.
func (r *Root) OpenRead(p string) (*os.File, fs.FileInfo, Path, error) {
	lp, err := r.Resolve(p)
	if err != nil {
		return nil, nil, Path{}, err
	}
	f, err := r.root.OpenFile(lp.Rel, readFlags, 0)
	if err != nil {
		return nil, nil, lp, r.refusal(p, lp.Rel, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, lp, fmt.Errorf("%s: %w", p, err)
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		f.Close()
		return nil, nil, lp, NotRegular(p, fi.Mode())
	}
	return f, fi, lp, nil
}

// NotRegular is the refusal of a path that is not a regular file.
func NotRegular(p string, m fs.FileMode) error {
	kind := "special file"
	switch {
	case m&fs.ModeNamedPipe != 0:
		kind = "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		kind = "socket"
	case m&fs.ModeCharDevice != 0:
		kind = "character device"
	case m&fs.ModeDevice != 0:
		kind = "block device"
	}
	return &PathError{Path: p, Err: ErrNotRegular,
		Msg: fmt.Sprintf("%q is a %s, not a regular file; file tools only read and change regular files, since reading it could wait forever. Use run_bash with a timeout if you really need to read from it.", p, kind)}
}

// ReadAtMost reads f to its end, at most limit bytes: a longer file is an
// error wrapping ErrTooLarge (the size found in fi is a hint, but a file
// can grow while it is read, so the read itself is bounded).
func ReadAtMost(f *os.File, fi fs.FileInfo, limit int64) ([]byte, error) {
	if fi != nil && fi.Size() > limit {
		return nil, fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, fi.Size(), limit)
	}
	size := int64(512)
	if fi != nil && fi.Size() > 0 {
		size = fi.Size() + 1
	}
	buf := make([]byte, 0, size)
	lr := io.LimitReader(f, limit+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(buf)) > limit {
		return nil, fmt.Errorf("%w: more than %d bytes, the limit is %d", ErrTooLarge, limit, limit)
	}
	return buf, nil
}

// Stat is stat of p through the root (links followed, never out of it).
// A missing path is an fs.ErrNotExist error; a way out is a *PathError.
func (r *Root) Stat(p string) (fs.FileInfo, Path, error) {
	lp, err := r.Resolve(p)
	if err != nil {
		return nil, Path{}, err
	}
	fi, err := r.root.Stat(lp.Rel)
	if err != nil {
		return nil, lp, r.refusal(p, lp.Rel, err)
	}
	return fi, lp, nil
}

// ReadFile reads the regular file p through the root (see OpenRead), at
// most limit bytes (a longer file is an error wrapping ErrTooLarge).
func (r *Root) ReadFile(p string, limit int64) ([]byte, error) {
	f, fi, _, err := r.OpenRead(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.IsDir() {
		return nil, &PathError{Path: p, Err: ErrNotRegular,
			Msg: fmt.Sprintf("%q is a folder, not a file.", p)}
	}
	return ReadAtMost(f, fi, limit)
}
