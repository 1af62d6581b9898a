package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"pilot/backend/service"
	"pilot/backend/wire"
)

const worktreeMergeUsage = `usage:
  pilot worktree merge SESSION [--hunks all|N,...] [--force] [--json]

Brings the branch of the worktree session SESSION into the project folder:
every hunk (--hunks all, the default) or the hunks numbered N (numbered
across the branch's files from 1, in path order, as the Branch view shows
them). The merge is one change of a project-folder session ("Merge of
branch pilot/NAME"), which can undo it. A file you changed in the project
folder and did not commit stops the merge, and nothing is written, unless
--force is given: then the branch's hunks are merged into it where they
still apply, and it is left as it is where they do not. With --json it
prints one object: the merged files, the conflicts with their sentences
and the session holding the merge.

Exit codes: 0 merged, 1 conflicts refused (or the merge failed), 2 bad input.
`

// worktreeMergeArgs is a parsed `pilot worktree merge` command line.
type worktreeMergeArgs struct {
	oneSession
	hunks []int // nil: all
}

func parseWorktreeMergeArgs(args []string) (worktreeMergeArgs, error) {
	fs := flagSet("worktree merge")
	hunks := fs.String("hunks", "all", "")
	a := worktreeMergeArgs{}
	if err := a.parse(fs, args, "pilot worktree list"); err != nil {
		return a, err
	}
	if *hunks == "all" {
		return a, nil
	}
	for n := range strings.SplitSeq(*hunks, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil || i <= 0 {
			return a, fmt.Errorf("--hunks takes all or hunk numbers separated by commas (1,3), not %q", *hunks)
		}
		a.hunks = append(a.hunks, i)
	}
	return a, nil
}

// runWorktreeMerge opens PILOT_HOME and runs `pilot worktree merge`.
func runWorktreeMerge(ctx context.Context, args []string, tio IO) int {
	return runParsed(ctx, args, tio, "worktree merge", worktreeMergeUsage, parseWorktreeMergeArgs, WorktreeMerge)
}

// WorktreeMerge merges the hunks a asks for and says what it did.
func WorktreeMerge(ctx context.Context, svc *service.Service, a worktreeMergeArgs, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "pilot worktree merge: %v\n", err)
		if errors.Is(err, service.ErrNotFound) || errors.Is(err, service.ErrInvalid) {
			return exitUsage
		}
		return exitFailure
	}
	v, err := svc.Git.Branch(ctx, a.session)
	if err != nil {
		return fail(err)
	}
	m, total := branchDecisions(v, a.hunks)
	for _, n := range a.hunks {
		if n > total {
			fmt.Fprintf(stderr, "pilot worktree merge: branch %s has %d %s, so there is no hunk %d: see them in the Branch view.\n", v.Branch, total, plural(total, "hunk", "hunks"), n)
			return exitUsage
		}
	}
	if len(m.Files) == 0 {
		msg := fmt.Sprintf("Branch %s changes no file against its base %s: there is nothing to merge.", v.Branch, v.Base)
		if a.json {
			return jsonOrFail(stdout, wire.WorktreeMerge{SessionID: a.session, Branch: v.Branch, Merged: []string{}, Conflicts: []wire.MergeConflict{}, Message: msg}, fail)
		}
		fmt.Fprintln(stdout, msg)
		return exitOK
	}
	m.Force = a.force
	res, err := svc.Git.Merge(ctx, a.session, m)
	if err != nil {
		return fail(err)
	}
	out := wire.WorktreeMerge{SessionID: a.session, Branch: v.Branch, MergeSessionID: res.SessionID,
		Merged: orEmpty(res.Merged), Conflicts: orEmpty(res.Conflicts)}
	var code int
	out.Message, code = mergeSentence(a, v, res)
	if a.json {
		if c := jsonOrFail(stdout, out, fail); c != exitOK {
			return c
		}
	} else {
		for _, c := range res.Conflicts {
			fmt.Fprintf(stdout, "conflict  %s: %s\n", c.Path, c.Why)
		}
		for _, p := range res.Merged {
			fmt.Fprintf(stdout, "merged    %s\n", p)
		}
	}
	if code != exitOK {
		fmt.Fprintf(stderr, "pilot worktree merge: %s\n", out.Message)
	} else if !a.json {
		fmt.Fprintln(stdout, out.Message)
	}
	return code
}

// mergeSentence says what a merge did, and its exit code.
func mergeSentence(a worktreeMergeArgs, v wire.BranchView, res wire.MergeResult) (string, int) {
	switch {
	case len(res.Conflicts) > 0 && len(res.Merged) == 0:
		msg := fmt.Sprintf("%d %s of branch %s could not be merged, so nothing was written.", len(res.Conflicts), plural(len(res.Conflicts), "file", "files"), v.Branch)
		if !a.force {
			msg += " Commit or stash your changes and merge again, or run it again with --force to merge where the hunks still apply."
		}
		return msg, exitFailure
	case len(res.Conflicts) > 0:
		return fmt.Sprintf("%d %s merged and %d left as %s %s (listed above): merge %s by hand from %s. Session %d holds the merge: undo it from its Changes view.",
			len(res.Merged), plural(len(res.Merged), "file", "files"), len(res.Conflicts), plural(len(res.Conflicts), "it", "they"), plural(len(res.Conflicts), "was", "were"),
			plural(len(res.Conflicts), "it", "them"), v.Worktree, res.SessionID), exitFailure
	case res.SessionID == 0:
		return fmt.Sprintf("The project folder already holds %s of branch %s: nothing was written.", plural(len(res.Merged), "the file", "every file"), v.Branch), exitOK
	default:
		return fmt.Sprintf("Merged %d %s of branch %s into the project folder. Session %d holds the merge: see it with `pilot sessions changes %d`, undo it from its Changes view.",
			len(res.Merged), plural(len(res.Merged), "file", "files"), v.Branch, res.SessionID, res.SessionID), exitOK
	}
}

// jsonOrFail prints v as one JSON object.
func jsonOrFail(w io.Writer, v wire.WorktreeMerge, fail func(error) int) int {
	if err := json.NewEncoder(w).Encode(v); err != nil {
		return fail(err)
	}
	return exitOK
}

// orEmpty is s, or an empty slice for nil (JSON [] rather than null).
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// branchDecisions approves the hunks numbered in hunks (nil: all) and
// returns the decision and the branch's number of hunks (every file has
// one at least: a binary file, a link or a change of mode is one whole).
// A file with no approved hunk is left out.
func branchDecisions(v wire.BranchView, hunks []int) (wire.BranchMerge, int) {
	want := map[int]bool{}
	for _, n := range hunks {
		want[n] = true
	}
	var m wire.BranchMerge
	total := 0
	for _, f := range v.Files {
		d := wire.FileDecision{Path: f.Path, Hunks: make([]bool, len(f.Hunks))}
		some := false
		for i, h := range f.Hunks {
			total++
			d.Hunks[i] = hunks == nil || want[h.Index]
			some = some || d.Hunks[i]
		}
		if some {
			m.Files = append(m.Files, d)
		}
	}
	return m, total
}
