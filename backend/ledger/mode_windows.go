package ledger

import "io/fs"

// sameMode reports whether two states' modes are the same file mode.
// Windows has no permission bits: Go reports 0666, or 0444 for a
// read-only file, so a new file recorded with the mode Pilot gave it
// (0644) read back as 0666, and every rewind found it "changed outside
// Pilot" (issue 41). Only the link bit and the owner's write bit (the
// read-only attribute) count there.
func sameMode(a, b fs.FileMode) bool {
	const counts = fs.ModeSymlink | 0o200
	return a&counts == b&counts
}
