package ledger

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"io/fs"

	"pilot/backend/projectroot"
)

// entry is one file of a scan: its stat (to tell whether it changed) and
// its content hash.
type entry struct {
	size, mtime, ctime int64 // mtime, ctime: Unix nanoseconds
	ino                uint64
	mode               fs.FileMode // as modeOf
	hash               [32]byte
	kept               bool // content in the blob store
	// skip: a file the ledger lists but does not keep (in a .git folder,
	// ignored): its hash stands for its stat (listHash), never read.
	skip projectroot.Skipped
}

// sameStat reports whether the file looks unchanged since e was taken.
func (e entry) sameStat(o entry) bool {
	return e.size == o.size && e.mtime == o.mtime && e.ctime == o.ctime && e.ino == o.ino && e.mode == o.mode
}

func (e entry) state() FileState {
	return FileState{Hash: hex.EncodeToString(e.hash[:]), Mode: e.mode, Size: e.size, Kept: e.kept}
}

// manifest is one scan of a project.
type manifest struct {
	root    string // absolute project folder
	scanned int64  // Unix nanoseconds when the scan started
	files   map[string]entry
	// dirs are the folders the scan found (not the root), each with why
	// its files are not kept (NotSkipped for the project's own), so that a
	// file a command created can be undone without removing a folder that
	// was there before, a partial scan starting in a folder knows how to
	// read it, and a new .git folder is seen. Not written to the manifest
	// file: only scans made by this process are compared, and a loaded
	// manifest has none (nil).
	dirs map[string]projectroot.Skipped
}

// A manifest file is "PLM1", then uvarint-prefixed fields: the root, the
// scan time, the number of entries and the entries (path, size, mtime,
// ctime, inode, mode, kept, 32-byte hash), and a CRC-32C of everything
// before it. It is replaced atomically but not fsynced: one lost or torn
// by a power loss fails its checksum and the next scan is a full one.
const manifestMagic = "PLM1"

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// marshal writes the project's files, not the ones the ledger only lists
// (in .git folders, ignored): nothing is reused of those (a scan lstats
// them again), and a node_modules would multiply the file's size.
func (m *manifest) marshal() []byte {
	n := 0
	for _, e := range m.files {
		if e.skip == projectroot.NotSkipped {
			n++
		}
	}
	b := make([]byte, 0, 64+n*96)
	b = append(b, manifestMagic...)
	b = appendString(b, m.root)
	b = binary.AppendVarint(b, m.scanned)
	b = binary.AppendUvarint(b, uint64(n))
	for rel, e := range m.files {
		if e.skip != projectroot.NotSkipped {
			continue
		}
		b = appendString(b, rel)
		b = binary.AppendVarint(b, e.size)
		b = binary.AppendVarint(b, e.mtime)
		b = binary.AppendVarint(b, e.ctime)
		b = binary.AppendUvarint(b, e.ino)
		b = binary.AppendUvarint(b, uint64(e.mode))
		if e.kept {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		b = append(b, e.hash[:]...)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

var errManifest = errors.New("ledger: manifest is damaged")

// reader decodes the fields of a manifest; the first error sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	r.skip(n)
	return v // 0 when n <= 0
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	r.skip(n)
	return v // 0 when n <= 0
}

// skip moves past the n bytes a number took; n <= 0 (none could be read)
// is a damaged manifest.
func (r *reader) skip(n int) {
	if n <= 0 {
		r.err, r.b = errManifest, nil
		return
	}
	r.b = r.b[n:]
}

func (r *reader) bytes(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.err, r.b = errManifest, nil
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func unmarshalManifest(data []byte) (*manifest, error) {
	if len(data) < len(manifestMagic)+4 || string(data[:4]) != manifestMagic {
		return nil, errManifest
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, crcTable) != binary.LittleEndian.Uint32(data[len(body):]) {
		return nil, errManifest
	}
	r := &reader{b: body[4:]}
	m := &manifest{root: string(r.bytes(r.uvarint())), scanned: r.varint()}
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		return nil, errManifest
	}
	m.files = make(map[string]entry, n)
	for range n {
		rel := string(r.bytes(r.uvarint()))
		e := entry{size: r.varint(), mtime: r.varint(), ctime: r.varint(), ino: r.uvarint(), mode: fs.FileMode(r.uvarint())}
		if k := r.bytes(1); len(k) == 1 {
			e.kept = k[0] == 1
		}
		copy(e.hash[:], r.bytes(32))
		if r.err != nil {
			return nil, r.err
		}
		m.files[rel] = e
	}
	if r.err != nil || len(r.b) != 0 {
		return nil, errManifest
	}
	return m, nil
}

// loadManifest reads the manifest at path; a missing or damaged one, or
// one of another root, is an empty manifest (the next scan stores all).
func loadManifest(path, root string) *manifest {
	empty := &manifest{root: root, files: map[string]entry{}}
	data, err := readShared(path)
	if err != nil {
		return empty
	}
	m, err := unmarshalManifest(data)
	if err != nil || m.root != root {
		return empty
	}
	return m
}

// save writes the manifest at path through a temporary file and a rename.
func (m *manifest) save(path string) error {
	return writeRenamed(path, m.marshal())
}
