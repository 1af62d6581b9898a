package projectroot

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// dirHandle is an open folder: a plain descriptor, so that a walk pays one
// openat per folder (os.File would also set each folder up for the
// runtime's poller, more system calls that a big project pays thousands of
// times; a system call costs about 3 µs on the benchmark machine).
type dirHandle = int

// direntBufs holds the buffers getdents64 fills.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// openFolder opens the folder rel through the root and returns a
// descriptor of its own.
func (r *Root) openFolder(rel string) (dirHandle, error) {
	f, err := r.root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_DIRECTORY, 0)
	if err != nil {
		return -1, err
	}
	defer f.Close()
	sc, err := f.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	cerr := sc.Control(func(raw uintptr) {
		fd, err = unix.FcntlInt(raw, unix.F_DUPFD_CLOEXEC, 0)
	})
	if cerr != nil {
		return -1, cerr
	}
	return fd, err
}

// openChild opens the folder name inside the open folder parent, never
// following a link: a walk only goes down real folders.
func openChild(parent dirHandle, name string) (dirHandle, error) {
	for {
		fd, err := unix.Openat(parent, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if !errors.Is(err, unix.EINTR) {
			return fd, err
		}
	}
}

func closeFolder(h dirHandle) { unix.Close(h) }

// openFileFd opens the file name of the open folder dir for reading, never
// following a link at the end and never waiting (a FIFO put in place of a
// regular file opens without blocking, and reads nothing).
func openFileFd(dir dirHandle, name string) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
		if !errors.Is(err, unix.EINTR) {
			return fd, err
		}
	}
}

// readlinkAt reads the link name in the open folder dir.
func readlinkAt(dir dirHandle, name string) (string, error) {
	for n := 256; ; n *= 2 {
		b := make([]byte, n)
		m, err := unix.Readlinkat(dir, name, b)
		if err != nil {
			return "", err
		}
		if m < n {
			return string(b[:m]), nil
		}
	}
}

// lstatAt is lstat of the entry name in the open folder dir.
func lstatAt(dir dirHandle, name string) (fs.FileInfo, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "fstatat", Path: name, Err: err}
		}
		return &statInfo{name: name, st: st}, nil
	}
}

// statInfo is an fs.FileInfo from a Stat_t.
type statInfo struct {
	name string
	st   unix.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.st.Size }
func (s *statInfo) ModTime() time.Time { return time.Unix(s.st.Mtim.Unix()) }
func (s *statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *statInfo) Sys() any           { return &s.st }
func (s *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.st.Mode & 0o777)
	switch s.st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	}
	if s.st.Mode&unix.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.st.Mode&unix.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.st.Mode&unix.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// readFolder reads an open folder's entries in the order the file system
// keeps them (ListDir sorts them its own way), with getdents64.
func readFolder(h dirHandle) ([]fs.DirEntry, error) {
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	var out []fs.DirEntry
	for {
		n, err := unix.Getdents(h, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return out, &fs.PathError{Op: "readdirent", Err: err}
		}
		if n <= 0 {
			return out, nil
		}
		out = parseDirents(h, buf[:n], out)
	}
}

// parseDirents appends the entries of a getdents64 buffer: records of
// inode (8 bytes), offset (8), length (2), type (1) and a NUL-ended name.
func parseDirents(dir dirHandle, b []byte, out []fs.DirEntry) []fs.DirEntry {
	for len(b) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < 19 || reclen > len(b) {
			break
		}
		rec := b[:reclen]
		b = b[reclen:]
		name := rec[19:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if string(name) == "." || string(name) == ".." || len(name) == 0 {
			continue
		}
		e := &dirent{dir: dir, name: string(name)}
		switch rec[18] {
		case unix.DT_REG:
			e.typ = 0
		case unix.DT_DIR:
			e.typ = fs.ModeDir
		case unix.DT_LNK:
			e.typ = fs.ModeSymlink
		case unix.DT_FIFO:
			e.typ = fs.ModeNamedPipe
		case unix.DT_SOCK:
			e.typ = fs.ModeSocket
		case unix.DT_CHR:
			e.typ = fs.ModeDevice | fs.ModeCharDevice
		case unix.DT_BLK:
			e.typ = fs.ModeDevice
		default: // DT_UNKNOWN: some file systems do not say
			fi, err := lstatAt(dir, e.name)
			if err != nil {
				continue
			}
			e.typ = fi.Mode().Type()
		}
		out = append(out, e)
	}
	return out
}

// dirent is one entry read by readFolder. Info works while its folder is
// open.
type dirent struct {
	dir  dirHandle
	name string
	typ  fs.FileMode
}

func (d *dirent) Name() string               { return d.name }
func (d *dirent) IsDir() bool                { return d.typ.IsDir() }
func (d *dirent) Type() fs.FileMode          { return d.typ }
func (d *dirent) Info() (fs.FileInfo, error) { return lstatAt(d.dir, d.name) }
func (d *dirent) String() string             { return fs.FormatDirEntry(d) }
