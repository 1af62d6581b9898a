package ledger

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"pilot/backend/projectroot"
	"pilot/backend/store"
	"pilot/backend/tools"
)

const intentChildEnv = "PILOT_INTENT_KILL_CHILD" // home|project|session

// intentFiles is how many files the project holds; each change patches 2
// to 5 of them.
const intentFiles = 5

// intentPadding makes each file big enough that writing it (a temporary
// file, fsync, rename, fsync of the folder) takes a while, so random kills
// land between two files' renames often.
var intentPadding = strings.Repeat("padding line of the file, kept as it is\n", 4000)

func intentText(file, version int) string {
	return fmt.Sprintf("file %d version %d\n%s", file, version, intentPadding)
}

// intentHeader reads the version line of a file.
func intentHeader(text string) string {
	line, _, _ := strings.Cut(text, "\n")
	return line + "\n"
}

// TestIntentKillChild is the child of TestKillDuringMultiPatch: it does what
// the agent does for an approved multi_patch of 2 to 5 files (the real
// tool builds the proposal, the ledger records the pending checkpoint,
// the registry's Apply writes, the ledger settles), over and over, until
// killed.
func TestIntentKillChild(t *testing.T) {
	spec := os.Getenv(intentChildEnv)
	if spec == "" {
		t.Skip("only run as the child of TestKillDuringMultiPatch")
	}
	parts := strings.Split(spec, "|")
	sessionID, _ := strconv.ParseInt(parts[2], 10, 64)
	ctx := context.Background()
	die := func(err error) {
		fmt.Println("error", err)
		os.Exit(1)
	}
	st, err := store.Open(ctx, filepath.Join(parts[0], "pilot.db"))
	if err != nil {
		die(err)
	}
	lg, err := Open(filepath.Join(parts[0], "checkpoints"), st, DefaultLimits, nil)
	if err != nil {
		die(err)
	}
	root, err := projectroot.New(parts[1])
	if err != nil {
		die(err)
	}
	reads := tools.NewReadTracker()
	reg := tools.New(tools.Deps{Root: root, Reads: reads})
	out := bufio.NewWriter(os.Stdout)
	version := int(time.Now().UnixNano() % 1e9)
	for round := 0; ; round++ {
		n := 2 + rand.IntN(4)
		var edits []tools.PatchEdit
		version++
		for _, j := range rand.Perm(intentFiles)[:n] {
			rel := fmt.Sprintf("src/f%d.txt", j)
			abs := filepath.Join(parts[1], "src", fmt.Sprintf("f%d.txt", j))
			reads.MarkRead(abs)
			b, err := os.ReadFile(abs)
			if err != nil {
				die(err)
			}
			edits = append(edits, tools.PatchEdit{Path: rel, OldText: intentHeader(string(b)), NewText: fmt.Sprintf("file %d version %d\n", j, version)})
		}
		input, _ := json.Marshal(tools.MultiPatchParams{Edits: edits})
		res, err := reg.Execute(ctx, "multi_patch", input)
		if err != nil || res.Proposal == nil {
			die(fmt.Errorf("multi_patch: %v %s", err, res.Output))
		}
		var files []EditFile
		for _, c := range res.Proposal.Files {
			ef := EditFile{Path: c.Path, Old: []byte(c.OldContent), New: []byte(c.NewContent), Mode: c.Mode}
			ef.Before = FileState{Hash: Hash(ef.Old), Mode: c.Mode.Perm(), Size: int64(len(ef.Old))}
			files = append(files, ef)
		}
		cp, err := lg.BeginEdit(ctx, sessionID, 0, "→ Patching", files)
		if err != nil {
			die(err)
		}
		fmt.Fprintln(out, "begin", round)
		out.Flush()
		start := time.Now()
		res, err = reg.Apply(ctx, res.Proposal, tools.ApplyOptions{})
		took := time.Since(start)
		if _, serr := lg.Settle(ctx, cp, root); err != nil || serr != nil || res.IsError {
			die(fmt.Errorf("apply: %v %v %s", err, serr, res.Output))
		}
		fmt.Fprintln(out, "round", round, took.Microseconds())
		out.Flush()
	}
}

// TestKillDuringMultiPatch kills a process 100 times at random moments
// while it applies approved multi_patch changes of 2 to 5 files, and
// starts the ledger again after each kill as Pilot does (Repair). After
// the start, the files of every change hold all their old or all their
// new content. It reports how many kills hit between the first and the
// last rename of a change (the files found mixed before the repair) and
// how many changes the repair left mixed.
func TestKillDuringMultiPatch(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes")
	}
	t.Parallel()
	const kills = 100
	files := map[string]string{}
	for j := range intentFiles {
		files[fmt.Sprintf("src/f%d.txt", j)] = intentText(j, 0)
	}
	f := newFixture(t, files)
	f.say("change the files together")
	inside, mixed, completed, undone := 0, 0, 0, 0
	for k := range kills {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestIntentKillChild$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%s|%d", intentChildEnv, f.home, f.dir, f.sess.ID))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The child reports how long its last write loop took (Apply) and
		// when the next one is about to start; the kill lands at a
		// random point of about that length from there.
		lines := bufio.NewScanner(stdout)
		loop := 0
		for lines.Scan() {
			f := strings.Fields(lines.Text())
			switch {
			case len(f) > 0 && f[0] == "error":
				t.Fatalf("child: %s", lines.Text())
			case len(f) == 3 && f[0] == "round":
				loop, _ = strconv.Atoi(f[2])
				continue
			case len(f) == 2 && f[0] == "begin" && loop > 0:
			default:
				continue
			}
			break
		}
		go func() {
			for lines.Scan() {
			}
		}()
		time.Sleep(time.Duration(rand.IntN(loop*3/2+1)) * time.Microsecond) // where the kill lands, not a wait for anything
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()

		pending, err := f.st.Checkpoints.Pending(f.ctx)
		if err != nil {
			t.Fatal(err)
		}
		state := func(cp store.Checkpoint) (olds, news int) {
			for _, e := range cp.Files {
				cur, _, err := ReadState(filepath.Join(f.dir, filepath.FromSlash(e.Path)))
				switch {
				case err != nil:
					t.Fatal(err)
				case cur.Same(stateOf(e.Before)):
					olds++
				case cur.Same(stateOf(e.After)):
					news++
				default:
					t.Fatalf("kill %d: %s holds neither its old nor its new content", k, e.Path)
				}
			}
			return olds, news
		}
		for _, cp := range pending {
			if olds, news := state(cp); olds > 0 && news > 0 {
				inside++
			}
		}
		f.open() // the next start
		if err := f.lg.Repair(f.ctx); err != nil {
			t.Fatal(err)
		}
		for _, cp := range pending {
			olds, news := state(cp)
			switch {
			case olds > 0 && news > 0:
				mixed++
				t.Logf("kill %d: checkpoint %d left %d files old and %d new", k, cp.ID, olds, news)
			case news > 0:
				completed++
			default:
				undone++
			}
		}
	}
	t.Logf("%d kills: %d hit between the first and the last rename of a change; after the next start %d changes were all new, %d all old, %d mixed",
		kills, inside, completed, undone, mixed)
	if mixed > 0 {
		t.Errorf("%d of %d changes were left half written after the next start", mixed, kills)
	}
	if inside < kills/10 {
		t.Errorf("only %d of %d kills hit inside the write loop: the test proves too little", inside, kills)
	}
}
