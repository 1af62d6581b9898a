package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pilot/backend/llm"
)

// The benchmark history: benchProjects projects with benchSessions
// sessions of benchMessages messages in all, one of them benchLargest
// messages long. It is generated once into the temp dir and reused by later
// runs (delete it, or bump benchDataVersion, to regenerate).
const (
	benchProjects    = 20
	benchSessions    = 1000
	benchMessages    = 200
	benchLargest     = 2000
	benchDataVersion = 3
)

var bench struct {
	once    sync.Once
	err     error
	s       *Store
	path    string
	raw     int64 // bytes of text the history holds
	largest int64 // id of the 2,000-message session
	project int64 // its project
}

// benchStore opens (generating if needed) the benchmark history.
func benchStore(b *testing.B) *Store {
	b.Helper()
	bench.once.Do(func() {
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("pilot-store-bench-v%d", benchDataVersion))
		bench.path = filepath.Join(dir, "pilot.db")
		stamp := filepath.Join(dir, "rawbytes")
		raw, err := os.ReadFile(stamp)
		if err != nil {
			os.RemoveAll(dir)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				bench.err = err
				return
			}
			start := time.Now()
			n, err := generateHistory(bench.path)
			if err != nil {
				bench.err = err
				return
			}
			fmt.Fprintf(os.Stderr, "generated %d sessions, %d messages in %v (%s)\n",
				benchSessions, benchSessions*benchMessages-benchMessages+benchLargest, time.Since(start).Round(time.Millisecond), bench.path)
			raw = []byte(strconv.FormatInt(n, 10))
			if err := os.WriteFile(stamp, raw, 0o644); err != nil {
				bench.err = err
				return
			}
		}
		bench.raw, _ = strconv.ParseInt(string(raw), 10, 64)
		if bench.s, bench.err = Open(context.Background(), bench.path); bench.err != nil {
			return
		}
		bench.err = bench.s.r.QueryRow(`SELECT session_id, s.project_id FROM messages m JOIN sessions s ON s.id = m.session_id
			WHERE seq = ? LIMIT 1`, benchLargest-1).Scan(&bench.largest, &bench.project)
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.s
}

// words is a vocabulary of made-up words; text draws from it with a Zipf
// distribution, like natural language: a few words are everywhere, most
// are rare.
var words = func() []string {
	r := rand.New(rand.NewPCG(1, 2))
	const letters = "abcdefghijklmnopqrstuvwxyz"
	ws := make([]string, 20000)
	for i := range ws {
		n := 3 + r.IntN(8)
		var sb strings.Builder
		for range n {
			sb.WriteByte(letters[r.IntN(len(letters))])
		}
		ws[i] = sb.String()
	}
	return ws
}()

type textGen struct {
	r *rand.Rand
	z *rand.Zipf
}

func (g textGen) text(n int) string {
	var sb strings.Builder
	for i := range n {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(words[g.z.Uint64()])
	}
	return sb.String()
}

// generateHistory writes the history in one transaction with prepared
// statements, through the same schema and triggers as the app. It returns
// the bytes of text written: text blocks, tool inputs, tool outputs (held
// by the tool_result block, the tool call links to it) and
// changed paths.
func generateHistory(path string) (int64, error) {
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(3, 4))
	g := textGen{r: r, z: rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))}
	var raw int64
	err = s.write(ctx, func(tx *sql.Tx) error {
		insSession, err := tx.Prepare(`INSERT INTO sessions (project_id, title, provider, model, created_at, updated_at)
			VALUES (?, ?, 'anthropic', 'claude-bench', ?, ?) RETURNING id`)
		if err != nil {
			return err
		}
		insMessage, err := tx.Prepare(`INSERT INTO messages (session_id, seq, role, content, state, created_at)
			VALUES (?, ?, ?, ?, 'complete', ?) RETURNING id`)
		if err != nil {
			return err
		}
		insCall, err := tx.Prepare(`INSERT INTO tool_calls (session_id, message_id, tool_use_id, name, input, output, status, started_at, finished_at)
			VALUES (?, ?, ?, 'read_file', ?, ?, 'done', ?, ?) RETURNING id`)
		if err != nil {
			return err
		}
		insChange, err := tx.Prepare(`INSERT INTO changes (tool_call_id, path, hunks, created_at) VALUES (?, ?, '[]', ?)`)
		if err != nil {
			return err
		}
		t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
		for pi := range benchProjects {
			var pid int64
			if err := tx.QueryRow(`INSERT INTO projects (path, name, created_at, last_opened) VALUES (?, ?, ?, ?) RETURNING id`,
				fmt.Sprintf("/home/dev/project%02d", pi), fmt.Sprintf("project%02d", pi), t0, t0).Scan(&pid); err != nil {
				return err
			}
			for si := range benchSessions / benchProjects {
				n := benchMessages
				if pi == 0 && si == 0 {
					n = benchLargest
				}
				now := t0 + int64(pi*benchSessions+si)*60_000
				var sid int64
				if err := insSession.QueryRow(pid, g.text(5), now, now).Scan(&sid); err != nil {
					return err
				}
				var pending string // tool_use id awaiting its result
				var pendingOut string
				for seq := range n {
					var blocks []llm.ContentBlock
					role := llm.RoleUser
					switch {
					case pending != "":
						blocks = []llm.ContentBlock{toolResult(pending, pendingOut)}
						pending = ""
					case seq%2 == 0:
						blocks = []llm.ContentBlock{llm.TextBlock(g.text(10 + r.IntN(40)))}
						raw += int64(len(blocks[0].Text))
					default:
						role = llm.RoleAssistant
						blocks = []llm.ContentBlock{llm.TextBlock(g.text(20 + r.IntN(80)))}
						raw += int64(len(blocks[0].Text))
						if seq+1 < n && r.IntN(2) == 0 {
							pending = fmt.Sprintf("toolu_%d_%d", sid, seq)
							input := fmt.Sprintf(`{"path":"src/%s/%s.go"}`, words[r.IntN(300)], g.text(1))
							blocks = append(blocks, toolUse(pending, "read_file", input))
							pendingOut = g.text(50 + r.IntN(250))
							raw += int64(len(input) + len(pendingOut))
						}
					}
					content, _ := json.Marshal(blocks)
					var mid int64
					if err := insMessage.QueryRow(sid, seq, string(role), string(content), now).Scan(&mid); err != nil {
						return err
					}
					if pending != "" {
						var cid int64
						input := blocks[len(blocks)-1].Input
						if err := insCall.QueryRow(sid, mid, pending, string(input), pendingOut, now, now+50).Scan(&cid); err != nil {
							return err
						}
						if r.IntN(10) == 0 {
							var in struct{ Path string }
							_ = json.Unmarshal(input, &in)
							if _, err := insChange.Exec(cid, in.Path, now); err != nil {
								return err
							}
							raw += int64(len(in.Path))
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	// Leave the file as the app would after a while: checkpointed, with
	// the planner's statistics.
	_, err = s.w.Exec(`PRAGMA optimize; PRAGMA wal_checkpoint(TRUNCATE)`)
	return raw, err
}

// BenchmarkOpenLargestSession reads the 2,000-message session with its tool
// calls and changes, as the window does when it opens it.
func BenchmarkOpenLargestSession(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	for b.Loop() {
		t, err := s.Sessions.Transcript(ctx, bench.largest)
		if err != nil || len(t.Messages) != benchLargest {
			b.Fatalf("%d messages, %v", len(t.Messages), err)
		}
	}
}

// BenchmarkListSessions lists the first page of a project's sessions.
func BenchmarkListSessions(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	for b.Loop() {
		xs, err := s.Sessions.List(ctx, bench.project, 50, 0)
		if err != nil || len(xs) != 50 {
			b.Fatalf("%d sessions, %v", len(xs), err)
		}
	}
}

// BenchmarkSearch searches a project for a word of each frequency class:
// rank is the word's place in the Zipf vocabulary (0 is the most common).
func BenchmarkSearch(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	for _, rank := range []int{2, 50, 1000} {
		word := words[rank]
		var docs int
		if err := s.r.QueryRow(`SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?`, ftsMatch([]string{word}, true, false)).Scan(&docs); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("rank%d_in_%d_messages", rank, docs), func(b *testing.B) {
			for b.Loop() {
				hits, err := s.Search(ctx, bench.project, word, 20)
				if err != nil || len(hits) == 0 {
					b.Fatalf("%d hits, %v", len(hits), err)
				}
			}
		})
	}
}

// BenchmarkAppendMessage commits one message to a session of the history
// (a scratch session, deleted afterwards).
func BenchmarkAppendMessage(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	x, err := s.Sessions.Create(ctx, NewSession{ProjectID: bench.project, Title: "bench scratch"})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Sessions.Delete(ctx, x.ID)
	g := textGen{r: rand.New(rand.NewPCG(5, 6))}
	g.z = rand.NewZipf(g.r, 1.1, 2, uint64(len(words)-1))
	m := llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock(g.text(60)), toolUse("t", "read_file", `{"path":"a.go"}`)}}
	for b.Loop() {
		if _, err := s.Messages.Append(ctx, x.ID, m, llm.Usage{OutputTokens: 80}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDBSize reports the database file against the raw text in it.
func BenchmarkDBSize(b *testing.B) {
	benchStore(b)
	var size int64
	for _, suffix := range []string{"", "-wal"} {
		if fi, err := os.Stat(bench.path + suffix); err == nil {
			size += fi.Size()
		}
	}
	for b.Loop() {
	}
	b.ReportMetric(float64(size)/1e6, "db_MB")
	b.ReportMetric(float64(bench.raw)/1e6, "raw_text_MB")
	b.ReportMetric(float64(size)/float64(bench.raw), "db/raw")
}
