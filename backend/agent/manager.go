// Package agent runs Pilot's conversations: the turn loop that streams a
// model's answer, runs the tools it asks for (asking the user where the
// permission policy says so), sends the results back, and repeats until the
// model answers without tools, the user cancels, or a limit is reached.
// The window (through backend/service) and the headless CLI run the same
// Manager; only the wire.Emitter they inject differs.
//
// # API
//
//	m := agent.NewManager(agent.Deps{Store: st, Emitter: e, Provider: newProvider})
//	m.Send(ctx, sessionID, text, attachments) // starts a turn in the background; ErrBusy if one runs
//	m.Retry(ctx, sessionID)                   // runs a failed turn again, without adding the message again
//	m.Cancel(sessionID)                       // stops the turn: stream, command, pending approvals
//	m.CompactNow(ctx, sessionID)              // summarise older turns now (or before the next call)
//	m.State(sessionID)                        // idle, streaming, awaiting_approval, tool_executing, error
//	m.Pending(sessionID)                      // approvals waiting for the user
//	m.Change(approvalID)                      // a pending change with its hunks
//	m.Approvals().DecideChange(approvalID, decision)  // approve all / some hunks / edited text / reject
//	m.Approvals().DecideCommand(approvalID, decision) // approve or reject every other kind
//	m.SetApprovalMode(sessionID, mode)        // plan, ask, edits, all, none for this session from its next model call
//	m.Jobs(sessionID), m.JobOutput(sessionID, id) // background jobs and their held output
//	m.StopJob(ctx, sessionID, id)             // TERM, then KILL, the job's process group
//	m.Release(sessionID)                      // end the session's jobs and sandbox (a deleted session)
//	m.Close()                                 // cancel every turn, wait for them, end every job and sandbox
//
// # Events
//
// Everything a frontend shows arrives as events (backend/wire): the
// state (agent:state), streamed text in batches of DefaultBatchInterval
// (agent:stream), committed messages (agent:message), tool cards
// (agent:tool) with live command output (agent:tool_output), approvals
// (agent:approval, agent:approval_done), usage with the context use
// (agent:usage), notices (retry, compacted, loop_guard, limit, budget),
// errors as one human sentence (agent:error), the task list whenever
// todo_write replaces it (agent:todos), background jobs (agent:job when
// one starts or ends, agent:job_output batched by offset) and the end of each turn
// (agent:turn_done; reason "plan" when a plan-mode turn presented its
// plan). Each carries the session id and a per-session sequence number; deltas are coalesced, every other event is delivered in order
// after the deltas before it and never dropped.
//
// # Persistence
//
// Messages go to the store as they happen: the streamed answer debounced,
// each finished answer and each message of tool results committed before
// the next model call, tool calls and proposed changes with their
// decisions. A cancelled answer is kept as interrupted and the history is
// repaired before the next turn, so it is always valid to continue.
//
// The store keeps the whole history and, beside it, the latest
// compaction's summary with the first message it keeps, which a session
// loads again after a restart.
package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"pilot/backend/approval"
	"pilot/backend/config"
	"pilot/backend/hooks"
	"pilot/backend/hostexec"
	"pilot/backend/ledger"
	"pilot/backend/llm"
	"pilot/backend/modelfacts"
	"pilot/backend/permission"
	"pilot/backend/projectroot"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/webfetch"
	"pilot/backend/websearch"
	"pilot/backend/wire"
)

// Defaults of Options.
const (
	DefaultMaxCalls  = 50
	DefaultLoopGuard = 3
)

var (
	// ErrBusy: the session already runs a turn. The sentinels' texts
	// reach the user as they are: sentences, no package prefix.
	ErrBusy = errors.New("A turn is already running in this session; wait for it to finish or stop it first.")
	// ErrEmpty: a message with no text and no attachment.
	ErrEmpty = errors.New("There is nothing to send: type a message or attach a file.")
	// ErrNothingToCompact: the history is too short to summarise.
	ErrNothingToCompact = errors.New("The conversation is too short to compact yet; there are no older turns to summarise.")
	// ErrNothingToRetry: the session's last turn did not fail.
	ErrNothingToRetry = errors.New("There is nothing to retry: the last turn did not fail. Send a new message instead.")
	// ErrShuttingDown: Pilot is closing.
	ErrShuttingDown = errors.New("Pilot is closing; the message was not sent.")
)

// Deps is what a Manager works with.
type Deps struct {
	Store   *store.Store
	Emitter wire.Emitter
	// Provider returns the model client for a session (its Provider and
	// Model fields name what the session was created with).
	Provider func(ctx context.Context, s store.Session) (Model, error)
	Options  Options
	Log      *slog.Logger // nil: discard
	// Ledger records a checkpoint of every approved change and command so
	// the user can see and undo them; nil records none.
	Ledger *ledger.Ledger
	// MCP returns the MCP servers of a project folder (nil, or a nil
	// result: none). Their tools are offered beside the built-in ones.
	MCP func(projectDir string) tools.MCP
	// Hooks returns the settings.json hooks of a project folder, run in a
	// session's folder root (its worktree, or the project folder); nil, or
	// a nil result: none. Called when each turn starts.
	Hooks func(projectDir, root string) *hooks.Set
	// SettingsRules returns the rules in force from the settings files of
	// a project folder (Claude Code's and Pilot's settings.json: deny and
	// ask rules, and the allow rules of the user's files and of trusted
	// project files); they are judged beside the project's stored rules.
	// nil: none.
	SettingsRules func(projectDir string) []permission.Rule
	// Diagnostics are the user's language servers: after every applied
	// change the tool result ends with what they say, and the
	// diagnostics tool reads them. nil: none.
	Diagnostics Diagnostics
}

// Model is a session's model client and how its turns call it.
type Model struct {
	llm.Provider
	// Facts are the model's window, answer limit and prices, and where
	// each came from; zero: the built-in table's, or a guess.
	Facts modelfacts.Facts
	// ThinkingBudget turns on extended thinking in the calls of a turn
	// (not in titles or summaries): tokens per call, 0: off. It is read
	// when a turn starts and holds for the whole turn.
	ThinkingBudget int
	// Helpers is how many helpers (task calls) of a turn run at once,
	// read when a turn starts; 0: Options.Helpers.
	Helpers int
}

// facts are the model's facts: Facts, or when the provider gave none (a
// test's), the built-in table's or a guess for model (the provider's
// default model when "").
func (p Model) facts(model string) modelfacts.Facts {
	if p.Facts.Window.Value > 0 {
		return p.Facts
	}
	if model == "" {
		model = llm.DefaultModel(p.Name())
	}
	return modelfacts.Resolve(model, config.ModelOverride{}, llm.Reported{}, false)
}

// window is the context window a turn works with and where it came
// from: Options.ContextWindow (an override), else the model's.
func (m *Manager) window(f modelfacts.Facts) (int, wire.FactSource) {
	if m.opt.ContextWindow > 0 {
		return m.opt.ContextWindow, wire.FactOverride
	}
	return f.Window.Value, f.Window.From
}

// Options tunes the loop; zero values mean the defaults.
type Options struct {
	MaxCalls      int           // model calls per turn (DefaultMaxCalls)
	LoopGuard     int           // identical tool calls in a row that stop a turn (DefaultLoopGuard)
	BatchInterval time.Duration // delta batching (DefaultBatchInterval)
	MaxTokens     int           // answer limit per call (0: the provider's default)
	ContextWindow int           // tokens; 0: the model's window (Model.Facts)
	BudgetTokens  int           // tokens per session before the turn pauses and asks (0: none)
	BudgetUSD     float64       // dollars per session when the session sets none (0: none)
	Env           []string      // environment of run_bash before secrets are stripped (nil: os.Environ())
	Helpers       int           // helpers (task calls) of a turn running at once (DefaultHelpers)
	// WebFetch are web_fetch's limits; its AllowPrivate lets hosts reach
	// private addresses beyond those the project's rules allow (tests).
	WebFetch webfetch.Options
	// WebSearch is the search service set up now and how many searches
	// a session may make, read at each web_search call and each time the
	// tools are offered; an error (or nil) means none is set up, and
	// web_search is not offered.
	WebSearch func() (*websearch.Searcher, int, error)
	// ProviderSearch reports whether the user let the model's provider
	// search the web itself (Settings › Web): its own search is then
	// offered where the gate would ask about web_search on its host, not
	// only where it allows it unasked (nil: no).
	ProviderSearch func() bool
	// Sandbox is how run_bash commands are confined (the zero value: the
	// machine's sandbox, when it can start).
	Sandbox Sandbox
	// Titles asks the model for a short title after a session's first turn
	// (until then, and when that fails, the title is the first line of the
	// first message).
	Titles bool
	Now    func() time.Time
	// JobsPerSession is how many background jobs a session may run at
	// once, read when one starts (nil or 0: DefaultJobsPerSession).
	JobsPerSession func() int
}

// Manager runs the agent of every session. Safe for concurrent use.
type Manager struct {
	st       *store.Store
	provider func(context.Context, store.Session) (Model, error)
	opt      Options
	log      *slog.Logger
	out      *outbox
	broker   *approval.Broker
	ledger   *ledger.Ledger
	mcp      func(string) tools.MCP
	hooks    func(projectDir, root string) *hooks.Set
	settings func(string) []permission.Rule
	// diagnostics: the language servers (Deps.Diagnostics), or nil.
	diagnostics Diagnostics

	base   context.Context
	stop   context.CancelFunc
	turns  sync.WaitGroup
	jobsWG sync.WaitGroup // background jobs' watchers (jobs.go)
	mu     sync.Mutex
	lives  map[int64]*live
	closed bool
}

// NewManager returns a Manager; call Close when done.
func NewManager(d Deps) *Manager {
	o := d.Options
	if o.MaxCalls <= 0 {
		o.MaxCalls = DefaultMaxCalls
	}
	if o.LoopGuard <= 0 {
		o.LoopGuard = DefaultLoopGuard
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	log := d.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	emit := d.Emitter
	if emit == nil {
		emit = wire.Discard{}
	}
	m := &Manager{st: d.Store, provider: d.Provider, opt: o, log: log, out: newOutbox(emit, o.BatchInterval), lives: map[int64]*live{}, ledger: d.Ledger, mcp: d.MCP, hooks: d.Hooks, settings: d.SettingsRules, diagnostics: d.Diagnostics}
	m.base, m.stop = context.WithCancel(context.Background())
	m.broker = approval.New(notifier{m})
	// The sandbox's caches are written by commands: no program Pilot
	// starts is taken from them.
	hostexec.Distrust(o.Sandbox.cacheRoot())
	return m
}

// notifier turns the broker's announcements into events.
type notifier struct{ m *Manager }

func (n notifier) Asked(session int64, a wire.Approval) {
	n.m.notification(session, a)
	n.m.out.send(session, wire.AgentApproval, func(s wire.Seq) any { return wire.ApprovalPayload{Seq: s, Approval: a} })
}

func (n notifier) Done(session int64, id string, outcome wire.ApprovalOutcome) {
	n.m.out.send(session, wire.AgentApprovalDone, func(s wire.Seq) any {
		return wire.ApprovalDonePayload{Seq: s, ApprovalID: id, Outcome: outcome}
	})
}

// Send starts a turn with the user's text and attached files (paths in the
// project) and returns at once; the turn reports through events. It fails
// when the session does not exist or already runs a turn.
func (m *Manager) Send(ctx context.Context, sessionID int64, text string, attachments []string) error {
	return m.send(ctx, sessionID, "", text, attachments, nil)
}

// SendCommand is Send for a slash command: typed is the user's message as
// they wrote it ("/hello Ada"), text what it expanded to. The model reads
// text; the message keeps typed beside it for the transcript.
func (m *Manager) SendCommand(ctx context.Context, sessionID int64, typed, text string, attachments []string) error {
	return m.send(ctx, sessionID, typed, text, attachments, nil)
}

// SendImages is Send with images the user attached (pasted or dropped);
// a model known to take no images refuses them before anything is saved.
func (m *Manager) SendImages(ctx context.Context, sessionID int64, text string, attachments []string, images []Image) error {
	return m.send(ctx, sessionID, "", text, attachments, images)
}

func (m *Manager) send(ctx context.Context, sessionID int64, typed, text string, attachments []string, images []Image) error {
	if err := m.notDiscarded(ctx, sessionID); err != nil {
		return err
	}
	l, err := m.live(ctx, sessionID)
	if err != nil {
		return err
	}
	blocks, err := l.userBlocks(text, attachments, len(images) > 0)
	if err != nil {
		return err
	}
	if typed != "" && typed != text && len(blocks) > 0 && blocks[0].Type == llm.BlockText && blocks[0].Text == text {
		blocks[0].Command = typed
	}
	imgs, release, err := m.userImages(ctx, sessionID, images)
	if err != nil {
		return err
	}
	blocks = append(blocks, imgs...)
	if err := m.precheck(ctx, sessionID, blocks); err != nil {
		release()
		return err
	}
	tctx, err := m.begin(l)
	if err != nil {
		release()
		return err
	}
	go func() {
		defer m.turns.Done()
		defer release() // the message is saved (or the turn failed) by now
		l.run(tctx, blocks)
	}()
	return nil
}

// begin marks l running and returns the turn's context.
func (m *Manager) begin(l *live) (context.Context, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrShuttingDown
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cancel != nil {
		return nil, ErrBusy
	}
	ctx, cancel := context.WithCancel(m.base)
	l.cancel = cancel
	m.turns.Add(1)
	return ctx, nil
}

// Cancel stops the session's running turn, if any: the stream stops, a
// running command is killed, pending approvals are cancelled.
func (m *Manager) Cancel(sessionID int64) {
	l := m.loaded(sessionID)
	if l == nil {
		return
	}
	l.mu.Lock()
	cancel := l.cancel
	l.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Running reports whether a turn (or a compaction) of the session runs
// or is starting.
func (m *Manager) Running(sessionID int64) bool {
	l := m.loaded(sessionID)
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cancel != nil
}

// State returns the session's state (idle for a session with no turn yet).
func (m *Manager) State(sessionID int64) State {
	l := m.loaded(sessionID)
	if l == nil {
		return Idle
	}
	return l.machine.get()
}

// Live is what a session's events carried beyond what the store may hold
// yet: the last sequence number sent, the text of the message being
// streamed, and the output of running commands by tool call id.
type Live struct {
	Seq       int64
	MessageID int64
	Text      string
	Thinking  string
	Output    map[string]string
}

// Snapshot runs read (which reads the session from the store) while none
// of the session's events can be emitted, and returns the sequence number
// the snapshot covers with the in-flight work the store may lack. A frontend
// applies only the events after Live.Seq on top of it.
func (m *Manager) Snapshot(sessionID int64, read func() error) (Live, error) {
	return m.out.snapshot(sessionID, read)
}

// Approvals is the broker of every session's pending approvals: the
// window and the terminal read and answer them there (Pending, Change,
// DecideChange, DecideCommand); a second answer to the same approval
// returns an error wrapping approval.ErrNotPending and changes nothing.
func (m *Manager) Approvals() *approval.Broker { return m.broker }

// SetApprovalMode sets the session's approval mode (plan, ask, edits,
// all, none) in place of the one it was created with; a running turn
// takes it from its next model call. It does not store it (the caller
// does when the change is the user's, service.SetSessionMode).
func (m *Manager) SetApprovalMode(ctx context.Context, sessionID int64, mode string) error {
	pm, err := permission.ParseMode(mode)
	if err != nil {
		return err
	}
	l, err := m.live(ctx, sessionID)
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.mode = pm
	l.mu.Unlock()
	return nil
}

// Close cancels every running turn and waits until they have ended, and
// stops every background job.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.stop()
	m.turns.Wait()
	m.mu.Lock()
	lives := make([]*live, 0, len(m.lives))
	for _, l := range m.lives {
		lives = append(lives, l)
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, l := range lives {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.jobs.closeJobs(context.Background()) // recorded in the ledger, then ended
		}()
	}
	wg.Wait()
	m.jobsWG.Wait()
	for _, l := range lives {
		l.sessionEnd(context.Background(), "prompt_input_exit")
		l.pod.closeSandbox() // no pod is left behind
	}
	m.out.flush()
}

// notDiscarded refuses a turn in a worktree session whose worktree was
// discarded: it has no folder to work in any more.
func (m *Manager) notDiscarded(ctx context.Context, sessionID int64) error {
	sess, err := m.st.Sessions.Get(ctx, sessionID)
	if err != nil {
		return nil // an unknown session is reported by live
	}
	return discarded(sess)
}

func discarded(sess store.Session) error {
	if !sess.Worktree.Discarded {
		return nil
	}
	return fmt.Errorf("the worktree of session %d (branch %s) was discarded, so it cannot run another turn; its history stays readable: start a new session to keep working", sess.ID, sess.Worktree.Branch)
}

// live returns the in-memory side of a session, loading it on first use.
func (m *Manager) live(ctx context.Context, sessionID int64) (*live, error) {
	l := m.loaded(sessionID)
	if l != nil {
		return l, nil
	}
	sess, err := m.st.Sessions.Get(ctx, sessionID)
	if err != nil {
		return nil, fmt.Errorf("session %d: %w", sessionID, err)
	}
	proj, err := m.st.Projects.Get(ctx, sess.ProjectID)
	if err != nil {
		return nil, fmt.Errorf("project of session %d: %w", sessionID, err)
	}
	if err := discarded(sess); err != nil {
		return nil, err
	}
	dir := sess.Root(proj.Path) // its worktree, or the project folder
	root, err := projectroot.New(dir)
	if err != nil {
		return nil, fmt.Errorf("session folder %s: %w", dir, err)
	}
	// Its commands may write it: no program Pilot starts is taken from it.
	hostexec.Distrust(proj.Path, root.Dir())
	reads := tools.NewReadTracker()
	var servers tools.MCP
	if m.mcp != nil {
		servers = m.mcp(root.Dir())
	}
	l = &live{
		id:       sessionID,
		m:        m,
		project:  proj,
		root:     root,
		worktree: sess.Worktree.Path != "",
		reads:    reads,
		calib:    1,
	}
	l.pod.l, l.jobs.l = l, l
	deps := tools.Deps{Root: root, Reads: reads, Env: m.opt.Env, MCP: servers, Withheld: l.withheld, Skills: l.currentSkills, Agents: l.currentAgents, UserHome: m.opt.Sandbox.home(), WebSearch: m.searchSetUp}
	if m.diagnostics != nil {
		deps.Diagnostics = l.diagnosticsTool
	}
	l.registry = tools.New(deps)
	l.machine.state = Idle
	switch sum, err := m.st.Messages.Summary(ctx, sessionID); {
	case err == nil:
		l.summary = &summary{text: sum.Text, keep: sum.KeepID}
	case !errors.Is(err, store.ErrNotFound):
		return nil, fmt.Errorf("summary of session %d: %w", sessionID, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if other := m.lives[sessionID]; other != nil {
		return other, nil
	}
	m.lives[sessionID] = l
	return l, nil
}
