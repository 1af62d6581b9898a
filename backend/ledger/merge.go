package ledger

import "github.com/sergi/go-diff/diffmatchpatch"

// merge3 applies the change from → to onto cur: the edits that turned from
// into to are made to cur where the text around them is still the same.
// It reports false when any edit does not find its exact place.
func merge3(from, to, cur string) (string, bool) {
	dmp := diffmatchpatch.New()
	dmp.MatchThreshold = 0 // exact context only: a revert never guesses
	dmp.PatchDeleteThreshold = 0
	diffs := dmp.DiffMain(from, to, false)
	patches := dmp.PatchMake(from, diffs)
	out, applied := dmp.PatchApply(patches, cur)
	for _, ok := range applied {
		if !ok {
			return "", false
		}
	}
	return out, true
}
