package projectroot

import (
	"os"
	"path/filepath"
	"strconv"
)

// Locate asks the kernel where the file f, opened through the root, really
// is (/proc/self/fd names the file behind a descriptor), so that a path
// through links inside the project is known by its real place. If the
// kernel cannot say (no /proc), or says somewhere unexpected, the path as
// given (guess) is kept: f itself was opened beneath the root either way.
func (r *Root) Locate(f *os.File, guess Path) Path {
	sc, err := f.SyscallConn()
	if err != nil {
		return guess
	}
	var real string
	_ = sc.Control(func(fd uintptr) {
		real, err = os.Readlink("/proc/self/fd/" + strconv.Itoa(int(fd)))
	})
	if err != nil || !filepath.IsAbs(real) || !r.contains(real) {
		return guess
	}
	if real == r.dir {
		return r.at(".")
	}
	return r.at(filepath.ToSlash(real[len(r.dir)+1:]))
}
