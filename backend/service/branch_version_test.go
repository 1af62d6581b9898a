package service

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/wire"
)

// A merge names the branch as the user read it (BranchView.Version): when
// the branch changed since (the session went on writing, or an editor
// saved into the worktree) so that the same number of hunks now holds
// other lines, the merge is refused and nothing is written; before, the
// decisions were applied by their index to hunks the user never saw.
func TestMergeBranchRefusesAChangedBranch(t *testing.T) {
	t.Parallel()
	f := newBranchFixture(t, nil, map[string]string{"notes.txt": twelve})
	ctx := context.Background()
	put(t, filepath.Join(f.wt, "notes.txt"), strings.Replace(twelve, "two\n", "TWO\n", 1))
	v, err := f.w.Git.Branch(ctx, f.sess)
	if err != nil || v.Version == "" || len(v.Files) != 1 {
		t.Fatalf("branch view %+v, %v", v, err)
	}
	if again, _ := f.w.Git.Branch(ctx, f.sess); again.Version != v.Version {
		t.Fatalf("the same branch read twice has two versions: %s, %s", v.Version, again.Version)
	}
	// One hunk still, but another line: the user approved "TWO", not this.
	put(t, filepath.Join(f.wt, "notes.txt"), strings.Replace(twelve, "ten\n", "rm -rf /\n", 1))
	m := wire.BranchMerge{Files: []wire.FileDecision{{Path: "notes.txt", Hunks: []bool{true}}}, Version: v.Version}
	_, err = f.w.Git.Merge(ctx, f.sess, m)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "changed since it was read for review") {
		t.Fatalf("merging decisions made on an older read: %v", err)
	}
	if got := read(t, filepath.Join(f.proj, "notes.txt")); got != twelve {
		t.Fatalf("the refused merge wrote notes.txt: %q", got)
	}
	now, err := f.w.Git.Branch(ctx, f.sess)
	if err != nil {
		t.Fatal(err)
	}
	m.Version = now.Version
	if res, err := f.w.Git.Merge(ctx, f.sess, m); err != nil || len(res.Merged) != 1 {
		t.Fatalf("merging on the branch read again: %+v, %v", res, err)
	}
}
