package ledger

import "path/filepath"

// Sync makes the objects of hashes durable, with the objects they are
// deltas of and their folders: the content a pending change will need
// after a power loss to be completed or undone. Objects are otherwise
// not synced (see Blobs).
func (b *Blobs) Sync(hashes ...string) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	dirs := map[string]bool{}
	seen := map[string]bool{}
	for _, h := range hashes {
		for h != "" && !seen[h] {
			seen[h] = true
			hdr, err := b.readHeader(h)
			if err != nil {
				return err
			}
			if err := syncPath(b.path(h)); err != nil {
				return err
			}
			dirs[filepath.Dir(b.path(h))] = true
			h = hdr.base
		}
	}
	for d := range dirs {
		if err := syncPath(d); err != nil {
			return err
		}
	}
	return syncPath(b.dir)
}
