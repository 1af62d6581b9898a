// Package ledger keeps the content of the files a session's changes and
// commands touched, so that Pilot can show and undo exactly what happened.
//
// Content is stored once per hash, compressed (and as a delta against an
// earlier version where that is smaller) in a folder under PILOT_HOME
// (Blobs). Trees keeps, per project, the size, time and hash of every file
// that the ignore rules let through, so a command's effects are found by
// comparing two scans and the content from before the command is already
// stored. Nothing is ever written into the project for this.
package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"

	"pilot/backend/projectroot"
)

// FileState is what a path held at one moment. The zero value is a file
// that does not exist.
type FileState struct {
	Hash string      // sha256 of the content (of the link target for a symlink); "" when absent
	Mode fs.FileMode // permission bits, plus fs.ModeSymlink for a link
	Size int64
	// Kept: the content is in the blob store (false: over the size limit,
	// or not stored).
	Kept bool
}

// Exists reports whether the path held a file.
func (s FileState) Exists() bool { return s.Hash != "" }

// Same reports whether two states hold the same file (content and mode).
func (s FileState) Same(o FileState) bool {
	return s.Hash == o.Hash && (s.Hash == "" || sameMode(s.Mode, o.Mode))
}

// Hash is the address of content in the blob store: sha256, hex.
func Hash(content []byte) string {
	h := sha256.Sum256(content)
	return hex.EncodeToString(h[:])
}

// ReadStateIn reads the file rel of the project through its root without
// following a symbolic link (a link on the way never leads out of the
// project): its state and its content (the target for a link). A missing
// file is the zero state with no error. Folders and other non-files are
// errors.
func ReadStateIn(root *projectroot.Root, rel string) (FileState, []byte, error) {
	fi, err := root.FS().Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return FileState{}, nil, nil
	}
	if err != nil {
		return FileState{}, nil, err
	}
	var data []byte
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := root.FS().Readlink(rel)
		if err != nil {
			return FileState{}, nil, err
		}
		data = []byte(t)
	case fi.Mode().IsRegular():
		f, ofi, _, err := root.OpenRead(rel)
		if err != nil {
			return FileState{}, nil, err
		}
		defer f.Close()
		if !ofi.Mode().IsRegular() {
			return FileState{}, nil, &fs.PathError{Op: "read", Path: rel, Err: errors.New("changed while it was read")}
		}
		fi = ofi
		if data, err = io.ReadAll(f); err != nil {
			return FileState{}, nil, err
		}
	default:
		return FileState{}, nil, &fs.PathError{Op: "read", Path: rel, Err: errors.New("not a regular file or a symbolic link")}
	}
	return FileState{Hash: Hash(data), Mode: modeOf(fi), Size: int64(len(data))}, data, nil
}

// modeOf keeps what a restore must put back: the permission bits and
// whether it is a link.
func modeOf(fi fs.FileInfo) fs.FileMode {
	return fi.Mode()&fs.ModePerm | fi.Mode()&fs.ModeSymlink
}
