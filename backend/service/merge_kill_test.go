package service

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"pilot/backend/paths"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// The merge killed at random moments: a child process (this test binary,
// TestMergeChild) merges a branch of 40 changed, 5 created and 5 deleted
// files and is killed with SIGKILL at a random moment of its merge; the
// next start's repair must leave the project folder unchanged or fully
// merged, with no checkpoint pending and the merge session's ledger
// saying exactly what is on disk.

const (
	killChanged, killCreated, killDeleted = 40, 5, 5
	killRuns                              = 30
)

// killFixture makes the project, its worktree with the branch's changes
// and a worktree session in a new PILOT_HOME; it returns the home, the
// project folder and the session.
func killFixture(t *testing.T) (string, string, int64) {
	files := map[string]string{}
	for i := range killChanged {
		files[fmt.Sprintf("c%02d.txt", i)] = twelve
	}
	for i := range killDeleted {
		files[fmt.Sprintf("d%02d.txt", i)] = "deleted on the branch\n"
	}
	_, proj, wt, base := newRepoWithWorktree(t, files)
	for i := range killChanged {
		put(t, filepath.Join(wt, fmt.Sprintf("c%02d.txt", i)), mergedTwelve)
	}
	for i := range killCreated {
		put(t, filepath.Join(wt, fmt.Sprintf("new/n%02d.txt", i)), "created on the branch\n")
	}
	for i := range killDeleted {
		if err := os.Remove(filepath.Join(wt, fmt.Sprintf("d%02d.txt", i))); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	w := openAt(t, home, nil)
	defer w.Close()
	return home, proj, worktreeSessionIn(t, w, proj, wt, base)
}

var mergedTwelve = strings.Replace(strings.Replace(twelve, "two\n", "TWO\n", 1), "eleven\n", "ELEVEN\n", 1)

// folderState is "unchanged" or "merged" when every file of the project
// is in that state, else a description of the mix.
func folderState(t *testing.T, proj string) string {
	t.Helper()
	unchanged, merged := 0, 0
	var odd []string
	for i := range killChanged {
		switch b, _ := os.ReadFile(filepath.Join(proj, fmt.Sprintf("c%02d.txt", i))); string(b) {
		case twelve:
			unchanged++
		case mergedTwelve:
			merged++
		default:
			odd = append(odd, fmt.Sprintf("c%02d.txt=%q", i, b))
		}
	}
	for i := range killCreated {
		if exists(filepath.Join(proj, fmt.Sprintf("new/n%02d.txt", i))) {
			merged++
		} else {
			unchanged++
		}
	}
	for i := range killDeleted {
		if exists(filepath.Join(proj, fmt.Sprintf("d%02d.txt", i))) {
			unchanged++
		} else {
			merged++
		}
	}
	all := killChanged + killCreated + killDeleted
	switch {
	case len(odd) > 0:
		return "mixed: " + strings.Join(odd, ", ")
	case unchanged == all:
		return "unchanged"
	case merged == all:
		return "merged"
	}
	return fmt.Sprintf("mixed: %d files unchanged, %d merged", unchanged, merged)
}

// TestMergeChild is the child process of TestMergeSurvivesSIGKILL.
func TestMergeChild(t *testing.T) {
	home := os.Getenv("PILOT_TEST_MERGE_HOME")
	if home == "" {
		t.Skip("the child of TestMergeSurvivesSIGKILL")
	}
	id, _ := strconv.ParseInt(os.Getenv("PILOT_TEST_MERGE_SESSION"), 10, 64)
	w := openAt(t, home, nil)
	ctx := context.Background()
	v, err := w.Git.Branch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var m wire.BranchMerge
	for _, f := range v.Files {
		m.Files = append(m.Files, wire.FileDecision{Path: f.Path, Hunks: make([]bool, len(f.Hunks))})
		for i := range f.Hunks {
			m.Files[len(m.Files)-1].Hunks[i] = true
		}
	}
	fmt.Println("ready")
	start := time.Now()
	res, err := w.Git.Merge(ctx, id, m)
	if err != nil || len(res.Conflicts) > 0 {
		t.Fatalf("merge = %+v, %v", res, err)
	}
	fmt.Println("merged", time.Since(start).Nanoseconds())
	w.Close()
}

// runMergeChild runs the child on home's session; kill > 0 kills it that
// long after it is ready. It returns how long its merge took when it was
// not killed.
func runMergeChild(t *testing.T, home string, sess int64, kill time.Duration) time.Duration {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestMergeChild$")
	cmd.Env = append(os.Environ(), "PILOT_TEST_MERGE_HOME="+home, "PILOT_TEST_MERGE_SESSION="+strconv.FormatInt(sess, 10))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	var took time.Duration
	var lines []string
	for sc.Scan() {
		line := sc.Text()
		lines = append(lines, line)
		if line == "ready" && kill > 0 {
			time.Sleep(kill) // the random moment, not a synchronisation
			_ = cmd.Process.Kill()
		}
		if ns, ok := strings.CutPrefix(line, "merged "); ok {
			n, _ := strconv.ParseInt(ns, 10, 64)
			took = time.Duration(n)
		}
	}
	err = cmd.Wait()
	if kill == 0 && (err != nil || took == 0) {
		t.Fatalf("the merge child failed: %v\n%s\n%s", err, strings.Join(lines, "\n"), stderr.String())
	}
	return took
}

// pendingAt reports whether the merge left its checkpoint pending (it was
// killed between recording its intent and settling it).
func pendingAt(t *testing.T, home string) bool {
	t.Helper()
	st, err := store.Open(context.Background(), paths.DB(home))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.Checkpoints.Pending(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return len(p) > 0
}

func TestMergeSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("30 merges in child processes")
	}
	ctx := context.Background()
	home, proj, sess := killFixture(t)
	took := runMergeChild(t, home, sess, 0)
	if got := folderState(t, proj); got != "merged" {
		t.Fatalf("a merge not killed left the folder %s", got)
	}
	outcomes := map[string]int{}
	for i := range killRuns {
		home, proj, sess := killFixture(t)
		at := rand.N(took + took/5)
		runMergeChild(t, home, sess, at)
		if pendingAt(t, home) {
			outcomes["killed while writing, then repaired"]++
		}
		w := openAt(t, home, nil)
		if err := w.core.waitStarted(ctx); err != nil { // the start-up repair
			t.Fatal(err)
		}
		state := folderState(t, proj)
		outcomes[state]++
		pending, err := w.core.store.Checkpoints.Pending(ctx)
		if err != nil || len(pending) > 0 {
			t.Fatalf("run %d (killed after %s): checkpoints still pending after the repair: %+v, %v", i, at, pending, err)
		}
		var ledgerFiles int
		p, err := w.core.store.Projects.Touch(ctx, proj)
		if err != nil {
			t.Fatal(err)
		}
		ss, err := w.core.store.Sessions.List(ctx, p.ID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ss {
			if s.Title == mergeTitle("pilot/x") {
				l, err := w.Ledger.Get(ctx, s.ID)
				if err != nil {
					t.Fatal(err)
				}
				ledgerFiles = len(l.Files)
			}
		}
		w.Close()
		all := killChanged + killCreated + killDeleted
		switch {
		case state == "unchanged" && ledgerFiles == 0, state == "merged" && ledgerFiles == all:
		default:
			t.Fatalf("run %d (killed %s after the merge began, of %s): the folder is %s and the merge's ledger lists %d files", i, at, took, state, ledgerFiles)
		}
	}
	t.Logf("a merge takes %s; %d runs killed at random moments: %v", took, killRuns, outcomes)
}
