package ledger

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"pilot/backend/projectroot"
	"strings"
	"sync"
)

// Sentinel errors; test with errors.Is.
var (
	ErrBlobMissing = errors.New("ledger: content not in the store")
	ErrCorrupt     = errors.New("ledger: stored object is corrupt")
	ErrBadHash     = errors.New("ledger: not a content hash")
)

// maxDepth bounds a chain of deltas (an object, its base, the base's base,
// ...), so that Get applies at most this many deltas.
const maxDepth = 256

// An object file is a header and a flate stream:
//
//	"PLB1", kind (0 full, 1 delta), depth uint16, size uint64 (of the
//	content), payload uint64 (bytes after the header), [32]byte base hash
//	(delta only)
//
// The payload length makes a truncated file (a write cut by a crash)
// invalid without reading it; Get also verifies the content's hash.
const (
	magic      = "PLB1"
	kindFull   = 0
	kindDelta  = 1
	headerLen  = 4 + 1 + 2 + 8 + 8
	baseHdrLen = headerLen + 32
)

// header is the parsed start of an object file.
type header struct {
	kind    byte
	depth   int
	size    int64
	payload int64
	base    string // hex, delta only
}

func (h header) len() int64 {
	if h.kind == kindDelta {
		return baseHdrLen
	}
	return headerLen
}

func (h header) marshal() []byte {
	b := make([]byte, 0, baseHdrLen)
	b = append(b, magic...)
	b = append(b, h.kind)
	b = binary.LittleEndian.AppendUint16(b, uint16(h.depth))
	b = binary.LittleEndian.AppendUint64(b, uint64(h.size))
	b = binary.LittleEndian.AppendUint64(b, uint64(h.payload))
	if h.kind == kindDelta {
		raw, _ := hex.DecodeString(h.base)
		b = append(b, raw...)
	}
	return b
}

func parseHeader(b []byte) (header, error) {
	if len(b) < headerLen || string(b[:4]) != magic || b[4] > kindDelta {
		return header{}, ErrCorrupt
	}
	h := header{
		kind:    b[4],
		depth:   int(binary.LittleEndian.Uint16(b[5:])),
		size:    int64(binary.LittleEndian.Uint64(b[7:])),
		payload: int64(binary.LittleEndian.Uint64(b[15:])),
	}
	if h.size < 0 || h.payload < 0 {
		return header{}, ErrCorrupt
	}
	if h.kind == kindDelta {
		if len(b) < baseHdrLen {
			return header{}, ErrCorrupt
		}
		h.base = hex.EncodeToString(b[headerLen:baseHdrLen])
	}
	return h, nil
}

// Blobs stores content by hash in a folder: one file per object at
// <dir>/<first two hex digits>/<hash>, written to a temporary name and
// renamed, so a reader never sees half an object. It is safe for concurrent
// use (within one process).
//
// Objects are not fsynced one by one (a baseline of a large project would
// take minutes): after a power loss an object may be truncated. Such an
// object is detected (its length is in its header, its hash is verified),
// reported by Get as ErrCorrupt, and replaced by the next Put of the same
// content.
type Blobs struct {
	dir   string
	mu    sync.RWMutex // Sweep holds it exclusively; everything else shared
	cache contentCache
}

// OpenBlobs opens (creating it, mode 0700) the store in dir.
func OpenBlobs(dir string) (*Blobs, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("ledger: blob store: %w", err)
	}
	return &Blobs{dir: dir, cache: contentCache{max: 32 << 20}}, nil
}

// validHash reports whether h is a lowercase hex sha256.
func validHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func (b *Blobs) path(hash string) string {
	return filepath.Join(b.dir, hash[:2], hash)
}

// readHeader reads the header of the object hash and checks the file's
// length against it.
func (b *Blobs) readHeader(hash string) (header, error) {
	if !validHash(hash) {
		return header{}, ErrBadHash
	}
	f, err := openShared(b.path(hash))
	if errors.Is(err, fs.ErrNotExist) {
		return header{}, ErrBlobMissing
	}
	if err != nil {
		return header{}, err
	}
	defer f.Close()
	buf := make([]byte, baseHdrLen)
	n, _ := io.ReadFull(f, buf)
	h, err := parseHeader(buf[:n])
	if err != nil {
		return header{}, err
	}
	fi, err := f.Stat()
	if err != nil {
		return header{}, err
	}
	if fi.Size() != h.len()+h.payload {
		return header{}, ErrCorrupt
	}
	return h, nil
}

// Has reports whether the content with this hash is stored (and its object
// is whole).
func (b *Blobs) Has(hash string) bool {
	b.mu.RLock()
	defer b.mu.RUnlock()
	_, err := b.readHeader(hash)
	return err == nil
}

// StoredSize is the number of bytes the object takes on disk (itself only,
// not the base of a delta).
func (b *Blobs) StoredSize(hash string) (int64, error) {
	if !validHash(hash) {
		return 0, ErrBadHash
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	fi, err := os.Lstat(b.path(hash))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, ErrBlobMissing
	}
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// Put stores content and returns its hash. Content already stored is not
// written again. When base names stored content, the new object may be a
// delta against it, if that is smaller and the chain stays under maxDepth.
func (b *Blobs) Put(content []byte, base string) (string, error) {
	hash := Hash(content)
	b.mu.RLock()
	defer b.mu.RUnlock()
	if _, err := b.readHeader(hash); err == nil {
		return hash, nil
	}
	var h header
	var payload []byte
	if base != "" && base != hash && len(content) >= 64 {
		h, payload = b.deltaAgainst(base, content)
	}
	// A delta under a sixteenth of the content is kept without trying
	// the full object (which costs compressing all of it).
	if payload == nil || int64(len(payload))*16 > int64(len(content)) {
		full, err := compress(content)
		if err != nil {
			return "", err
		}
		if payload == nil || len(full) <= len(payload)+32 {
			h = header{kind: kindFull, size: int64(len(content)), payload: int64(len(full))}
			payload = full
		}
	}
	if err := b.write(hash, h.marshal(), payload); err != nil {
		return "", fmt.Errorf("ledger: store %s: %w", hash[:12], err)
	}
	if base != "" {
		// A file that changed once is likely to change again: keep its
		// content for the delta of the next version.
		b.cache.put(hash, bytes.Clone(content))
	}
	return hash, nil
}

// deltaAgainst returns the header and payload of content as a delta
// against base, or a nil payload when base cannot be used.
func (b *Blobs) deltaAgainst(base string, content []byte) (header, []byte) {
	bh, err := b.readHeader(base)
	if err != nil || bh.depth+1 >= maxDepth {
		return header{}, nil
	}
	old, err := b.get(base)
	if err != nil {
		return header{}, nil
	}
	d, err := compress(makeDelta(old, content))
	if err != nil {
		return header{}, nil
	}
	return header{kind: kindDelta, depth: bh.depth + 1, size: int64(len(content)), payload: int64(len(d)), base: base}, d
}

// write puts the object at its final name through a temporary file in the
// same folder.
func (b *Blobs) write(hash string, hdr, payload []byte) error {
	return writeRenamed(b.path(hash), append(hdr, payload...))
}

// writeRenamed writes data to path through a temporary file in the same
// folder (created 0700 when missing) and a rename, so path never holds a
// partial write. Nothing is synced: a torn object or manifest is detected
// when read (length, hash, CRC) and written again.
func writeRenamed(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return projectroot.ReplaceFile(root, filepath.Base(path), data, 0o600, true)
}

// Get returns the content with this hash, verified against it:
// ErrBlobMissing when it is not stored, ErrCorrupt when the object (or one
// it is a delta of) is damaged. The caller may modify the result.
func (b *Blobs) Get(hash string) ([]byte, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	data, err := b.get(hash)
	if err != nil {
		return nil, err
	}
	return bytes.Clone(data), nil
}

// get is Get without the lock and the copy: the result is shared with the
// cache and must not be modified.
func (b *Blobs) get(hash string) ([]byte, error) {
	if data, ok := b.cache.get(hash); ok {
		return data, nil
	}
	// Follow the chain down to a full object (or one in the cache), then
	// apply the deltas back up.
	type link struct {
		h     header
		delta []byte
	}
	var chain []link
	var data []byte
	for cur := hash; ; {
		if d, ok := b.cache.get(cur); ok {
			data = d
			break
		}
		h, raw, err := b.readObject(cur)
		if err != nil {
			if len(chain) > 0 && errors.Is(err, ErrBlobMissing) {
				err = fmt.Errorf("%w: base %s of %s is missing", ErrCorrupt, cur[:12], hash[:12])
			}
			return nil, err
		}
		if h.kind == kindFull {
			data = raw
			break
		}
		chain = append(chain, link{h, raw})
		if len(chain) > maxDepth {
			return nil, ErrCorrupt
		}
		cur = h.base
	}
	for i := len(chain) - 1; i >= 0; i-- {
		var err error
		if data, err = applyDelta(data, chain[i].delta, int(chain[i].h.size)); err != nil {
			return nil, err
		}
	}
	if Hash(data) != hash {
		return nil, fmt.Errorf("%w: %s does not match its hash", ErrCorrupt, hash[:12])
	}
	b.cache.put(hash, data)
	return data, nil
}

// readObject reads an object file: its header and its decompressed payload
// (the content of a full object, the operations of a delta).
func (b *Blobs) readObject(hash string) (header, []byte, error) {
	if !validHash(hash) {
		return header{}, nil, ErrBadHash
	}
	raw, err := readShared(b.path(hash))
	if errors.Is(err, fs.ErrNotExist) {
		return header{}, nil, ErrBlobMissing
	}
	if err != nil {
		return header{}, nil, err
	}
	h, err := parseHeader(raw)
	if err != nil {
		return header{}, nil, err
	}
	if int64(len(raw)) != h.len()+h.payload {
		return header{}, nil, ErrCorrupt
	}
	data, err := decompress(raw[h.len():], h)
	if err != nil {
		return header{}, nil, err
	}
	return h, data, nil
}

// Usage is the number of bytes the store takes on disk (file lengths).
func (b *Blobs) Usage() (int64, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	var total int64
	err := b.eachFile(func(name string, fi fs.FileInfo) error {
		total += fi.Size()
		return nil
	})
	return total, err
}

// eachFile calls fn for every file in the store's subfolders.
func (b *Blobs) eachFile(fn func(path string, fi fs.FileInfo) error) error {
	subs, err := os.ReadDir(b.dir)
	if err != nil {
		return fmt.Errorf("ledger: blob store: %w", err)
	}
	for _, s := range subs {
		if !s.IsDir() {
			continue
		}
		dir := filepath.Join(b.dir, s.Name())
		ents, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("ledger: blob store: %w", err)
		}
		for _, e := range ents {
			fi, err := e.Info()
			if err != nil {
				continue // removed meanwhile
			}
			if err := fn(filepath.Join(dir, e.Name()), fi); err != nil {
				return err
			}
		}
	}
	return nil
}

// Sweep removes every object that is not live and that no live object is a
// delta of (directly or through other deltas), and any temporary file left
// by an interrupted write. It returns the bytes freed. Objects the caller
// stores while it computes live must be in live; Puts wait for Sweep.
func (b *Blobs) Sweep(live map[string]bool) (freed int64, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	keep := make(map[string]bool, len(live))
	for h := range live {
		for cur := h; validHash(cur) && !keep[cur]; {
			hd, err := b.readHeader(cur)
			if errors.Is(err, ErrBlobMissing) || errors.Is(err, ErrCorrupt) {
				break
			}
			if err != nil {
				return 0, err
			}
			keep[cur] = true
			cur = hd.base
		}
	}
	err = b.eachFile(func(path string, fi fs.FileInfo) error {
		name := filepath.Base(path)
		if keep[name] && !strings.HasPrefix(name, ".") {
			return nil
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		freed += fi.Size()
		return nil
	})
	b.cache.clear()
	return freed, err
}
