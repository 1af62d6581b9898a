package ledger

import (
	"errors"
	"io/fs"
	"os"
)

// ReadState reads the file at abs (tests look at the project from
// outside it, by absolute path) without following a symbolic link: its
// state and its content (the target for a link). A missing file is the
// zero state with no error. Folders and other non-files are errors.
func ReadState(abs string) (FileState, []byte, error) {
	fi, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return FileState{}, nil, nil
	}
	if err != nil {
		return FileState{}, nil, err
	}
	var data []byte
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := os.Readlink(abs)
		if err != nil {
			return FileState{}, nil, err
		}
		data = []byte(t)
	case fi.Mode().IsRegular():
		data, err = os.ReadFile(abs)
		if err != nil {
			return FileState{}, nil, err
		}
	default:
		return FileState{}, nil, &fs.PathError{Op: "read", Path: abs, Err: errors.New("not a regular file or a symbolic link")}
	}
	return FileState{Hash: Hash(data), Mode: modeOf(fi), Size: int64(len(data))}, data, nil
}
