package agent

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"pilot/backend/hooks"
	"pilot/backend/internal/fakellm"
	"pilot/backend/ledger"
	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// formats are the two wire formats the agent tests run against.
var formats = []string{llm.ProviderAnthropic, llm.ProviderOpenAI}

// recorder is an wire.Emitter that keeps every event and lets a test
// react to approvals and wait for the end of a turn.
type recorder struct {
	mu        sync.Mutex
	all       []recorded
	turnDone  chan Reason
	onApprove func(wire.Approval)
	onEvent   func(name string, payload any)
}

type recorded struct {
	name    string
	payload any
}

func newRecorder() *recorder { return &recorder{turnDone: make(chan Reason, 16)} }

func (r *recorder) Emit(name string, payload any) {
	r.mu.Lock()
	r.all = append(r.all, recorded{name, payload})
	on, onEv := r.onApprove, r.onEvent
	r.mu.Unlock()
	if onEv != nil {
		onEv(name, payload)
	}
	switch p := payload.(type) {
	case wire.ApprovalPayload:
		if on != nil {
			go on(p.Approval)
		}
	case wire.TurnDonePayload:
		r.turnDone <- Reason(p.Reason)
	}
}

func (r *recorder) events(name string) []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []any
	for _, e := range r.all {
		if e.name == name {
			out = append(out, e.payload)
		}
	}
	return out
}

func (r *recorder) notices(kind wire.NoticeKind) []string {
	var out []string
	for _, p := range r.events(wire.AgentNotice) {
		if n := p.(wire.NoticePayload); n.Kind == kind {
			out = append(out, n.Text)
		}
	}
	return out
}

// harness is a project folder, a database, a fake model server and a
// Manager wired together.
type harness struct {
	t      testing.TB
	format string
	dir    string
	home   string // the user's home folder the agent reads (~/.claude), under t.TempDir() unless the setup names one
	path   string // the database file
	base   string // the fake server's URL for format
	opt    Options
	idle   time.Duration
	srv    *fakellm.Server
	st     *store.Store
	lg     *ledger.Ledger
	rec    *recorder
	logs   *syncBuffer // the Manager's log, as text lines
	m      *Manager
	sess   store.Session
	mcp    tools.MCP
	hooks  *hooks.Set
	diag   Diagnostics
	// native, when set, is the host the client says its provider's own
	// web search is judged by (the fake server stands in for that API).
	native string
}

type setup struct {
	mode  string
	files map[string]string
	opt   Options
	idle  time.Duration // the provider's StreamIdleTimeout (0: its default)
	mcp   tools.MCP     // MCP servers of the project (nil: none)
	hooks *hooks.Set    // settings.json hooks (nil: none)
	diag  Diagnostics   // the language servers (nil: none)
}

func newHarness(t testing.TB, format string, script fakellm.Script, s setup) *harness {
	t.Helper()
	dir := t.TempDir()
	for name, content := range s.files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := fakellm.New(script)
	base := srv.URL()
	if format == llm.ProviderOpenAI {
		base = srv.OpenAIBaseURL()
	}
	opt := s.opt
	if opt.Sandbox.Home == "" {
		opt.Sandbox.Home = t.TempDir() // the developer's own ~/.claude never reaches a test
	}
	if opt.BatchInterval == 0 {
		opt.BatchInterval = 5 * time.Millisecond
	}
	h := &harness{t: t, format: format, dir: dir, home: opt.Sandbox.Home, path: filepath.Join(t.TempDir(), "pilot.db"), base: base, opt: opt, idle: s.idle, srv: srv, mcp: s.mcp, hooks: s.hooks, diag: s.diag}
	h.open()
	t.Cleanup(func() {
		for _, r := range srv.Requests() {
			if strings.Contains(r.System, homeCanary) {
				t.Errorf("a model request carries the instructions of the process's home folder (%s): give the agent a home under t.TempDir() (Options.Sandbox.Home)", os.Getenv("HOME"))
				break
			}
		}
	})
	t.Cleanup(func() {
		h.m.Close()
		h.lg.Close()
		srv.Close()
		h.st.Close()
	})
	ctx := context.Background()
	proj, err := h.st.Projects.Touch(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	h.sess, err = h.st.Sessions.Create(ctx, store.NewSession{ProjectID: proj.ID, Provider: format, Model: llm.DefaultModel(format), ApprovalMode: s.mode})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// open opens the database and a Manager on it, with a new recorder.
func (h *harness) open() {
	h.t.Helper()
	st, err := store.Open(context.Background(), h.path)
	if err != nil {
		h.t.Fatal(err)
	}
	lg, err := ledger.Open(filepath.Join(filepath.Dir(h.path), "checkpoints"), st, ledger.DefaultLimits, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	h.st, h.lg, h.rec = st, lg, newRecorder()
	if h.logs == nil {
		h.logs = &syncBuffer{}
	}
	h.m = NewManager(Deps{
		Store:   st,
		Emitter: h.rec,
		Log:     slog.New(slog.NewTextHandler(h.logs, nil)),
		Options: h.opt,
		Ledger:  lg,
		MCP: func(string) tools.MCP {
			return h.mcp
		},
		Hooks:       func(string, string) *hooks.Set { return h.hooks },
		Diagnostics: h.diag,
		Provider: func(_ context.Context, s store.Session) (Model, error) {
			p, err := h.client(s)
			return Model{Provider: p}, err
		},
	})
}

// client is the model client of a session: the fake server in its format.
func (h *harness) client(s store.Session) (llm.Provider, error) {
	p, err := llm.New(llm.Config{Provider: s.Provider, Model: s.Model, BaseURL: h.base, APIKey: "sk-test",
		Retry:             llm.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond},
		StreamIdleTimeout: h.idle})
	if err != nil || h.native == "" {
		return p, err
	}
	return nativeClient{Provider: p, host: h.native}, nil
}

// nativeClient is a client whose provider searches the web itself, judged
// by host.
type nativeClient struct {
	llm.Provider
	host string
}

func (n nativeClient) NativeSearch(string) string { return n.host }

// restart closes the Manager and the database and opens them again, as
// when Pilot starts again.
func (h *harness) restart() {
	h.t.Helper()
	h.m.Close()
	h.lg.Close()
	if err := h.st.Close(); err != nil {
		h.t.Fatal(err)
	}
	h.open()
}

// turn sends text and waits for the turn to end; it returns the reason.
func (h *harness) turn(text string) Reason {
	h.t.Helper()
	if err := h.m.Send(context.Background(), h.sess.ID, text, nil); err != nil {
		h.t.Fatalf("send: %v", err)
	}
	return h.wait()
}

func (h *harness) wait() Reason {
	h.t.Helper()
	select {
	case r := <-h.rec.turnDone:
		return r
	case <-time.After(2 * time.Minute): // a hung turn, not a slow one: a loaded machine takes 20 s and more
		h.rec.mu.Lock()
		n := len(h.rec.all)
		h.rec.mu.Unlock()
		h.t.Fatalf("the turn did not end; events: %d", n)
		return ""
	}
}

func (h *harness) read(name string) string {
	h.t.Helper()
	b, err := os.ReadFile(filepath.Join(h.dir, name))
	if err != nil {
		h.t.Fatal(err)
	}
	return string(b)
}

// approveWith answers every approval with decide.
func (h *harness) approveWith(decide func(a wire.Approval)) {
	h.rec.mu.Lock()
	h.rec.onApprove = decide
	h.rec.mu.Unlock()
}

// approveAll approves every change and command.
func (h *harness) approveAll() {
	h.approveWith(func(a wire.Approval) {
		if a.Kind != wire.ApprovalChange {
			h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: true})
			return
		}
		v, err := h.m.Approvals().Change(a.ID)
		if err != nil {
			h.t.Error(err)
			return
		}
		h.m.Approvals().DecideChange(a.ID, allHunks(v, true))
	})
}

func allHunks(v wire.ChangeView, ok bool) wire.ChangeDecision {
	var d wire.ChangeDecision
	for _, f := range v.Files {
		hs := make([]bool, len(f.Hunks))
		for i := range hs {
			hs[i] = ok
		}
		d.Files = append(d.Files, wire.FileDecision{Path: f.Path, Hunks: hs})
	}
	return d
}

// results returns the tool results of the model call at index i, as the
// server received them.
func (h *harness) results(i int) []fakellm.ToolResult {
	h.t.Helper()
	reqs := h.srv.Requests()
	if i >= len(reqs) {
		h.t.Fatalf("only %d requests", len(reqs))
	}
	return reqs[i].ToolResults
}

// toolCall builds a scripted tool call.
func toolCall(id, name, input string) fakellm.ToolCall {
	return fakellm.ToolCall{ID: id, Name: name, Input: []byte(input)}
}

// messages returns the stored messages.
func (h *harness) messages() []store.Message {
	h.t.Helper()
	ms, err := h.st.Messages.List(context.Background(), h.sess.ID)
	if err != nil {
		h.t.Fatal(err)
	}
	return ms
}

// checkPairs asserts the history is valid to send: every tool_use answered
// by exactly one tool_result with its id, in order, in the next message.
func checkPairs(t *testing.T, ms []store.Message) {
	t.Helper()
	for i, m := range ms {
		var ids []string
		for _, b := range m.Content {
			if b.Type == llm.BlockToolUse {
				ids = append(ids, b.ID)
			}
		}
		if len(ids) == 0 {
			continue
		}
		if i+1 >= len(ms) {
			t.Fatalf("message %d has tool calls and no results", i)
		}
		var got []string
		for _, b := range ms[i+1].Content {
			if b.Type == llm.BlockToolResult {
				got = append(got, b.ToolUseID)
			}
		}
		if strings.Join(got, ",") != strings.Join(ids, ",") {
			t.Fatalf("message %d: tool_use ids %v answered by %v", i, ids, got)
		}
	}
}

func fileExists(h *harness, name string) (os.FileInfo, error) {
	return os.Stat(filepath.Join(h.dir, name))
}

// storeSession is a new session like h's, for benchmarks that need many.
func storeSession(h *harness) store.NewSession {
	return store.NewSession{ProjectID: h.sess.ProjectID, Provider: h.sess.Provider, Model: h.sess.Model, ApprovalMode: h.sess.ApprovalMode}
}

// syncBuffer is a bytes.Buffer safe for a logger and a test at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
