package ledger

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
	"syscall"
	"testing"
	"time"

	"pilot/backend/store"
	"pilot/backend/wire"
)

const killChildEnv = "PILOT_LEDGER_KILL_CHILD" // home|project|session|message

const killFiles = 200

func killVersions(i int) (string, string) {
	return fmt.Sprintf("original %d\n", i), fmt.Sprintf("changed %d\n%s", i, strings.Repeat("x", i*50))
}

// TestKillChild is the child of TestKillDuringRewind: it rewinds the
// session's files and undoes the rewind, over and over, until killed.
func TestKillChild(t *testing.T) {
	spec := os.Getenv(killChildEnv)
	if spec == "" {
		t.Skip("only run as the child of TestKillDuringRewind")
	}
	parts := strings.Split(spec, "|")
	sessionID, _ := strconv.ParseInt(parts[2], 10, 64)
	messageID, _ := strconv.ParseInt(parts[3], 10, 64)
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(parts[0], "pilot.db"))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	lg, err := Open(filepath.Join(parts[0], "checkpoints"), st, DefaultLimits, nil)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	out := bufio.NewWriter(os.Stdout)
	for i := 0; ; i++ {
		res, err := lg.RewindSession(ctx, sessionID, messageID, wire.RewindCode, none())
		if err == nil && res.CheckpointID != 0 {
			_, err = lg.RevertCheckpointFor(ctx, res.CheckpointID, none())
		}
		if err != nil {
			fmt.Fprintln(out, "error", err)
		} else {
			fmt.Fprintln(out, "round", i)
		}
		out.Flush()
	}
}

// TestKillDuringRewind kills a process in the middle of rewinding and
// undoing the rewind of many files, at random moments. Afterwards every
// file holds either its old or its new content (never a mix, never a
// temporary file beside it), and once the ledger is repaired at start-up
// its last recorded state of every file is what is on disk, so a further
// rewind works without a conflict.
func TestKillDuringRewind(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes")
	}
	t.Parallel()
	for round := range 4 {
		t.Run(fmt.Sprint("kill ", round), func(t *testing.T) {
			t.Parallel()
			files := map[string]string{}
			for i := range killFiles {
				files[fmt.Sprintf("d%d/f%03d.txt", i%7, i)], _ = killVersions(i)
			}
			f := newFixture(t, files)
			first := f.say("change everything")
			for i := range killFiles {
				_, nw := killVersions(i)
				f.edit(fmt.Sprintf("d%d/f%03d.txt", i%7, i), nw)
			}
			cmd := exec.Command(os.Args[0], "-test.run", "^TestKillChild$", "-test.v")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%s|%d|%d", killChildEnv, f.home, f.dir, f.sess.ID, first))
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(stdout)
			rounds := 0
			for rounds < 1+round && lines.Scan() {
				if strings.HasPrefix(lines.Text(), "error") {
					t.Fatalf("child: %s", lines.Text())
				}
				if strings.HasPrefix(lines.Text(), "round") {
					rounds++
				}
			}
			time.Sleep(time.Duration(rand.IntN(40)) * time.Millisecond)
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()

			for i := range killFiles {
				rel := fmt.Sprintf("d%d/f%03d.txt", i%7, i)
				old, nw := killVersions(i)
				if got := f.read(rel); got != old && got != nw {
					t.Fatalf("%s holds %q: neither its old nor its new content", rel, got)
				}
			}
			f.open()
			if err := f.lg.Repair(f.ctx); err != nil {
				t.Fatal(err)
			}
			for d := range 7 {
				ents, _ := os.ReadDir(filepath.Join(f.dir, fmt.Sprintf("d%d", d)))
				for _, e := range ents {
					if strings.HasSuffix(e.Name(), ".tmp") {
						t.Fatalf("a temporary file was left in the project: %s", e.Name())
					}
				}
			}
			pending, err := f.st.Checkpoints.Pending(f.ctx)
			if err != nil || len(pending) != 0 {
				t.Fatalf("pending after repair: %d, %v", len(pending), err)
			}
			cps, err := f.st.Checkpoints.List(f.ctx, f.sess.ID)
			if err != nil {
				t.Fatal(err)
			}
			for rel, evs := range history(cps) {
				disk, _, err := ReadState(filepath.Join(f.dir, filepath.FromSlash(rel)))
				if err != nil {
					t.Fatal(err)
				}
				if !disk.Same(stateOf(evs[len(evs)-1].After)) {
					t.Fatalf("the ledger says %s was last written as %s, the disk holds %s", rel, evs[len(evs)-1].After.Hash[:8], disk.Hash)
				}
			}
			res, err := f.lg.RewindSession(f.ctx, f.sess.ID, first, wire.RewindCode, none())
			if err != nil || !res.Done {
				t.Fatalf("rewind after the kill: %+v %v", res.Message, err)
			}
			for i := range killFiles {
				old, _ := killVersions(i)
				if got := f.read(fmt.Sprintf("d%d/f%03d.txt", i%7, i)); got != old {
					t.Fatalf("after the rewind f%03d holds %q", i, got)
				}
			}
		})
	}
}
