package git

import (
	"context"
	"fmt"
	"strings"
)

// Status is a work tree's git state: its branch and how many paths have
// uncommitted changes.
type Status struct {
	// Branch is the checked-out branch ("" when HEAD is detached).
	Branch string
	// Uncommitted counts the paths `git status` lists: changed, staged,
	// unmerged or untracked (an untracked folder counts once), never
	// ignored ones.
	Uncommitted int
}

// Status reads dir's branch and its uncommitted paths with
// `git status --porcelain=v2 --branch -z` (git ≥ 2.11), the form git keeps
// stable for scripts. Submodules are not looked into (see harden.go).
func (g Git) Status(ctx context.Context, dir string) (Status, error) {
	out, err := g.Run(ctx, dir, "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=normal", "--ignore-submodules=dirty")
	if err != nil {
		return Status{}, err
	}
	return ParseStatus(out)
}

// ParseStatus reads the output of `git status --porcelain=v2 --branch -z`:
// NUL-terminated records, "# branch.head NAME" among the headers, and one
// record per path ("1" changed, "2" renamed or copied, followed by the
// original path, "u" unmerged, "?" untracked, "!" ignored).
func ParseStatus(out string) (Status, error) {
	var st Status
	recs := strings.Split(out, "\x00")
	for i := 0; i < len(recs); i++ {
		r := recs[i]
		if r == "" {
			continue
		}
		switch r[0] {
		case '#':
			if head, ok := strings.CutPrefix(r, "# branch.head "); ok && head != "(detached)" {
				st.Branch = head
			}
		case '1', 'u', '?':
			st.Uncommitted++
		case '2':
			st.Uncommitted++
			i++ // the original path of the rename or copy
		case '!':
		default:
			return Status{}, fmt.Errorf("git status printed a record Pilot cannot read: %q", r)
		}
	}
	return st, nil
}

// ShortStatus is `git status --short --branch` of dir, as the model's
// system prompt shows it: file names with unusual characters quoted and
// escaped (core.quotePath), submodules not looked into (see harden.go).
func (g Git) ShortStatus(ctx context.Context, dir string) (string, error) {
	return g.Run(ctx, dir, "-c", "core.quotePath=true", "status", "--short", "--branch", "--ignore-submodules=dirty")
}
