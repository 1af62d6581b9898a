package ledger

import "io"

// readShared reads the whole file at p, letting others delete it or rename
// over it meanwhile (openShared): the objects, manifests and trees are
// replaced by a rename while they may be read.
func readShared(p string) ([]byte, error) {
	f, err := openShared(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
