//go:build linux

package cli

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/paths"
)

// killPadding makes each file big enough that writing it (temporary file,
// fsync, rename, fsync of the folder) takes a while, so that random kills
// often land between two files' renames.
var killPadding = strings.Repeat("a line the change leaves as it is\n", 5000)

const killFileCount = 5

func killFile(j int, state string) string {
	return fmt.Sprintf("f%d state %s\n%s", j, state, killPadding)
}

var killSpec = regexp.MustCompile(`KILLSPEC ([AB]+)`)

// flipScript is a model that, asked "KILLSPEC <states>", flips the files
// f0..f(n-1) from their state (A or B) to the other one with one
// multi_patch per answer, forever: the states of its k-th answer are those
// of the prompt flipped k times.
func flipScript() fakellm.Script {
	var turns []fakellm.Turn
	for n := 2; n <= killFileCount; n++ {
		for bits := range 1 << n {
			from := make([]byte, n)
			var edits []map[string]string
			for j := range n {
				from[j] = "AB"[bits>>j&1]
				to := "AB"[1-bits>>j&1]
				edits = append(edits, map[string]string{
					"path":     fmt.Sprintf("f%d.txt", j),
					"old_text": fmt.Sprintf("f%d state %c\n", j, from[j]),
					"new_text": fmt.Sprintf("f%d state %c\n", j, to),
				})
			}
			input, _ := json.Marshal(map[string]any{"edits": edits})
			want := string(from)
			turns = append(turns, fakellm.Turn{Repeat: true, ToolCalls: []fakellm.ToolCall{{Name: "multi_patch", Input: input}},
				Match: func(r fakellm.Request) bool { return flipState(r) == want }})
		}
	}
	return fakellm.Script{Turns: turns}
}

// flipState is the state of the files the request's answer starts from.
func flipState(r fakellm.Request) string {
	msgs, _ := json.Marshal(r.Body["messages"])
	m := killSpec.FindSubmatch(msgs)
	if m == nil {
		return ""
	}
	state := []byte(m[1])
	if strings.Count(string(msgs), `"role":"assistant"`)%2 == 1 {
		for j := range state {
			state[j] = "BA"[state[j]-'A']
		}
	}
	return string(state)
}

func sha(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// TestBinaryKillDuringMultiPatch kills the production binary (`pilot -p
// --approve all`, a scripted model proposing multi_patch changes of 2 to 5
// files one after the other) 100 times at random moments, and after each
// kill starts it again (`pilot sessions list`, which repairs at start as
// every start does). Every change is then all old or all new, and its tool
// call says what the start did. It reports how many kills landed between
// the first and the last rename of a change.
func TestBinaryKillDuringMultiPatch(t *testing.T) {
	t.Parallel()
	kills := 100
	if s := os.Getenv("PILOT_KILLS"); s != "" {
		fmt.Sscan(s, &kills)
	}
	srv := fakellm.New(flipScript())
	defer srv.Close()
	home := t.TempDir()
	files := map[string]string{}
	for j := range killFileCount {
		files[fmt.Sprintf("f%d.txt", j)] = killFile(j, "A")
	}
	dir := tempProject(t, files)
	state := func(j int) byte {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("f%d.txt", j)))
		if err != nil {
			t.Fatal(err)
		}
		if s := string(b); s == killFile(j, "A") || s == killFile(j, "B") {
			return s[len(fmt.Sprintf("f%d state ", j))]
		}
		t.Fatalf("f%d.txt holds neither state", j)
		return 0
	}
	inside, mixed, completed, untouched, undone, notApplied := 0, 0, 0, 0, 0, 0
	started := time.Now()
	for k := range kills {
		n := 2 + rand.IntN(4)
		spec := make([]byte, n)
		for j := range n {
			spec[j] = state(j)
		}
		renamed := watchRenames(t, dir)
		cmd := command(t, srv, home, "-p", "KILLSPEC "+string(spec), "--project", dir, "--approve", "all")
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		patching := make(chan bool, 1)
		go func() {
			lines := bufio.NewScanner(stderr)
			seen := false
			for lines.Scan() {
				if !seen && strings.Contains(lines.Text(), "→ Patching") {
					seen = true
					patching <- true
				}
			}
			if !seen {
				patching <- false
			}
		}()
		if !<-patching {
			_ = cmd.Wait()
			t.Fatalf("kill %d: the run ended before its first change", k)
		}
		if k%2 == 0 {
			// Every other kill lands the moment the kernel reports a
			// change's first rename: between its first and last file
			// unless the change had one file left to write.
			renamed.wait(t)
		} else {
			// The others land at a random point of the first change or
			// of one of the next ones (where, not a wait for anything).
			time.Sleep(time.Duration(rand.IntN(300_000)) * time.Microsecond)
		}
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		renamed.close()

		pending := pendingEdits(t, home)
		for _, p := range pending {
			olds, news := p.count(t, dir)
			if olds > 0 && news > 0 {
				inside++
			}
		}
		if out, err := command(t, srv, home, "sessions", "list", "--project", dir).CombinedOutput(); err != nil {
			t.Fatalf("the start after kill %d: %v\n%s", k, err, out)
		}
		for _, p := range pending {
			olds, news := p.count(t, dir)
			said := toolOutput(t, home, p.toolCall)
			switch {
			case olds > 0 && news > 0:
				mixed++
				t.Errorf("kill %d: the change left %d files old and %d new after the start", k, olds, news)
			case news > 0 && strings.HasPrefix(said, "Interrupted by a crash; completed on restart."):
				completed++
			case olds > 0 && strings.HasPrefix(said, "Interrupted by a crash; not applied."):
				notApplied++
			case olds > 0 && strings.HasPrefix(said, "Interrupted by a crash; undone on restart."):
				undone++
			case olds > 0 && said == "":
				untouched++ // killed before the tool call was stored
			default:
				t.Errorf("kill %d: %d old, %d new, and the tool call says %q", k, olds, news, said)
			}
		}
	}
	t.Logf("%d kills of the binary in %v: %d between the first and the last rename of a change; after the next start %d changes completed, %d undone, %d not applied (nothing written), %d never started, %d mixed",
		kills, time.Since(started).Round(time.Second), inside, completed, undone, notApplied, untouched, mixed)
	if inside < kills/4 {
		t.Errorf("only %d of %d kills hit inside the write loop: the test proves too little", inside, kills)
	}
}

// pendingEdit is an edit checkpoint the binary left pending.
type pendingEdit struct {
	toolCall      int64
	paths         []string
	before, after []string
}

// count reads the files: how many hold their content before, how many the
// change's.
func (p pendingEdit) count(t *testing.T, dir string) (olds, news int) {
	t.Helper()
	for i, rel := range p.paths {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		switch sha(b) {
		case p.before[i]:
			olds++
		case p.after[i]:
			news++
		default:
			t.Fatalf("%s holds neither its content before nor the change's: %.40q (%d bytes)", rel, b, len(b))
		}
	}
	return olds, news
}

// pendingEdits reads the database as the killed binary left it.
func pendingEdits(t *testing.T, home string) []pendingEdit {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+paths.DB(home)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(context.Background(), `SELECT c.id, coalesce(c.tool_call_id, 0), e.path, e.before_hash, e.after_hash
		FROM checkpoints c JOIN file_events e ON e.checkpoint_id = c.id
		WHERE c.state = 'pending' AND c.kind = 'edit' ORDER BY c.id, e.path`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []pendingEdit
	last := int64(-1)
	for rows.Next() {
		var id, call int64
		var path, before, after string
		if err := rows.Scan(&id, &call, &path, &before, &after); err != nil {
			t.Fatal(err)
		}
		if id != last {
			out = append(out, pendingEdit{toolCall: call})
			last = id
		}
		p := &out[len(out)-1]
		p.paths, p.before, p.after = append(p.paths, path), append(p.before, before), append(p.after, after)
	}
	return out
}

// toolOutput is the stored result of a tool call ("" when there is none).
func toolOutput(t *testing.T, home string, id int64) string {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+paths.DB(home)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out string
	if err := db.QueryRowContext(context.Background(), `SELECT output FROM tool_call_rows WHERE id = ?`, id).Scan(&out); err != nil && err != sql.ErrNoRows {
		t.Fatal(err)
	}
	return out
}

// renames reports the project's files renamed into place (the last step
// of each file's atomic write), from the kernel (inotify). The inotify
// descriptor is non-blocking and wrapped in an *os.File, so the runtime's
// poller owns it: Close wakes the reader and the number is not reused
// while a read is in flight (a raw descriptor closed under a blocked
// read could be reused by the test's own file reads, and the stale read
// would eat their bytes).
type renames struct {
	f      *os.File
	events chan struct{}
}

// watchRenames starts watching dir for files renamed into it.
func watchRenames(t *testing.T, dir string) *renames {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_MOVED_TO); err != nil {
		syscall.Close(fd)
		t.Fatal(err)
	}
	r := &renames{f: os.NewFile(uintptr(fd), "inotify"), events: make(chan struct{}, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := r.f.Read(buf)
			if err != nil || n <= 0 {
				return
			}
			select {
			case r.events <- struct{}{}:
			default:
			}
		}
	}()
	return r
}

// wait returns at the first rename since the watch began.
func (r *renames) wait(t *testing.T) {
	t.Helper()
	select {
	case <-r.events:
	case <-time.After(60 * time.Second):
		t.Fatal("no file of the project was renamed into place within 60 s")
	}
}

// close ends the watch; its reader's read then fails.
func (r *renames) close() { r.f.Close() }
