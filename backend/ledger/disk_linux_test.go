package ledger

import (
	"os"
	"path/filepath"
	"syscall"
)

// diskBlocks is the space the files below dir take on disk (allocated
// blocks, which a small file rounds up).
func diskBlocks(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				n += st.Blocks * 512
			}
		}
		return nil
	})
	return n
}
