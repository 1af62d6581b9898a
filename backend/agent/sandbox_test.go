package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"pilot/backend/gate"
	"pilot/backend/internal/fakellm"
	"pilot/backend/sandbox"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// unavailable is the Status.Why the tests' machine without a sandbox gives.
const unavailable = "bubblewrap is not installed: install the package bubblewrap (sudo apt install bubblewrap)."

// fakeBox is a Sandbox whose readiness the test sets; the pods it makes
// are the sandbox package's own, counted as they are made and closed.
type fakeBox struct {
	mu     sync.Mutex
	made   []sandbox.Policy
	closed int
	cache  string
}

func (f *fakeBox) options(t *testing.T, ready bool) Sandbox {
	f.cache = t.TempDir()
	return Sandbox{
		Probe: func() sandbox.Status {
			if ready {
				return sandbox.Status{Ready: true}
			}
			return sandbox.Status{Why: unavailable}
		},
		New: func(p sandbox.Policy) *sandbox.Session {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.made = append(f.made, p)
			return sandbox.NewSession(p)
		},
		Close: func(s *sandbox.Session) error {
			f.mu.Lock()
			f.closed++
			f.mu.Unlock()
			return s.Close()
		},
		Hidden:    func() []string { return []string{"~/.config/secret-app"} },
		PilotHome: "/pilot-home",
		Home:      "/home/someone",
		CacheDir:  f.cache,
	}
}

func (f *fakeBox) counts() (made, closed int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.made), f.closed
}

// lastCard is the last card shown for the call id.
func lastCard(h *harness, id string) wire.ToolCall {
	var c wire.ToolCall
	for _, p := range h.rec.events(wire.AgentTool) {
		if v := p.(wire.ToolPayload).Call; v.ID == id {
			c = v
		}
	}
	return c
}

// storedSandbox is the sandbox info stored with the session's call id.
func storedSandbox(t *testing.T, h *harness, id string) wire.SandboxInfo {
	t.Helper()
	calls, err := h.st.ToolCalls.List(t.Context(), h.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range calls {
		if c.ToolUseID == id {
			var v wire.SandboxInfo
			if c.Sandbox != "" {
				if err := json.Unmarshal([]byte(c.Sandbox), &v); err != nil {
					t.Fatal(err)
				}
			}
			return v
		}
	}
	t.Fatalf("no call %s", id)
	return wire.SandboxInfo{}
}

// In edits mode, where the sandbox can start, a command runs in the
// session's sandbox without asking (it asked before the sandbox); a turn
// has one pod for all its commands, made with the policy and ended with
// the turn (nothing runs in it any more), and the next turn makes a new
// one.
func TestSandboxEditsRunsWithoutAsking(t *testing.T) {
	t.Parallel()
	box := &fakeBox{}
	h := newHarness(t, formats[0], fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("c1", "run_bash", `{"command":"echo one > made.txt"}`)}},
		{ToolCalls: []fakellm.ToolCall{toolCall("c2", "run_bash", `{"command":"echo two >> made.txt"}`)}},
		{Text: "Done."},
		{ToolCalls: []fakellm.ToolCall{toolCall("c3", "run_bash", `{"command":"echo three >> made.txt"}`)}},
		{Text: "Done again."},
	}}, setup{mode: "edits", opt: Options{Sandbox: box.options(t, true)}})
	h.approveWith(func(a wire.Approval) {
		t.Errorf("asked %s about %q in edits mode with the sandbox ready", a.Kind, a.Command)
		h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{})
	})
	if r := h.turn("Make the file"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if got := h.read("made.txt"); got != "one\ntwo\n" {
		t.Errorf("made.txt = %q", got)
	}
	for i, id := range []string{"c1", "c2"} {
		if res := h.results(i + 1); len(res) != 1 || !strings.Contains(res[0].Content, "[exit code 0]") {
			t.Errorf("result of %s: %+v", id, res)
		}
		if card := lastCard(h, id); card.Sandbox == nil || !card.Sandbox.Sandboxed || card.Sandbox.Unavailable != "" {
			t.Errorf("card of %s: sandbox %+v", id, card.Sandbox)
		}
		if info := storedSandbox(t, h, id); !info.Sandboxed {
			t.Errorf("stored sandbox of %s: %+v", id, info)
		}
	}
	made, closed := box.counts()
	if made != 1 || closed != 1 {
		t.Fatalf("%d pods made, %d closed by the turn's end; want one, ended", made, closed)
	}
	p := box.made[0]
	proj, _ := h.st.Projects.Get(t.Context(), h.sess.ProjectID)
	real, _ := filepath.EvalSymlinks(h.dir)
	if p.Project != real || p.Home != "/home/someone" || p.PilotHome != "/pilot-home" ||
		len(p.Hidden) != 1 || p.Hidden[0] != "~/.config/secret-app" || p.Proxy == nil ||
		p.Cache != filepath.Join(box.cache, strconv.FormatInt(proj.ID, 10)) {
		t.Errorf("policy %+v", p)
	}
	if fi, err := os.Stat(p.Cache); err != nil || !fi.IsDir() {
		t.Errorf("the cache folder was not made: %v", err)
	}
	if r := h.turn("Once more"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if made, closed := box.counts(); made != 2 || closed != 2 {
		t.Errorf("%d pods made, %d closed after a second turn; want two, both ended", made, closed)
	}
	h.m.Close()
	if _, closed := box.counts(); closed != 2 {
		t.Errorf("Close closed an ended pod again: %d closed", closed)
	}
}

// A background job keeps its pod after the turn; a deleted session's pod
// is closed at once (Release), and the session gets no new one.
func TestSandboxReleasedWithTheSession(t *testing.T) {
	t.Parallel()
	box := &fakeBox{}
	h := newHarness(t, formats[0], fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("c1", "run_bash", `{"command":"sleep 600","background":true}`)}},
		{Text: "Started."},
	}}, setup{mode: "edits", opt: Options{Sandbox: box.options(t, true)}})
	if r := h.turn("Run it"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if made, closed := box.counts(); made != 1 || closed != 0 {
		t.Fatalf("%d made, %d closed with a job running after the turn; want one, open", made, closed)
	}
	h.m.Release(h.sess.ID)
	if made, closed := box.counts(); made != 1 || closed != 1 {
		t.Fatalf("%d made, %d closed after Release", made, closed)
	}
	h.m.Close()
	if _, closed := box.counts(); closed != 1 {
		t.Errorf("the pod was closed %d times", closed)
	}
}

// sandbox: false asks in edits mode with the kind outside_sandbox and the
// model's reason, offers no "always", and a no runs nothing.
func TestSandboxOutsideAsks(t *testing.T) {
	t.Parallel()
	box := &fakeBox{}
	h := newHarness(t, formats[0], fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("c1", "run_bash", `{"command":"echo x > out.txt","sandbox":false,"reason":"It writes the user's global config."}`)}},
		{Text: "Understood."},
	}}, setup{mode: "edits", opt: Options{Sandbox: box.options(t, true)}})
	var asked []wire.Approval
	var mu sync.Mutex
	h.approveWith(func(a wire.Approval) {
		mu.Lock()
		asked = append(asked, a)
		mu.Unlock()
		h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: false, Feedback: "not now"})
	})
	if r := h.turn("Configure it"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if len(asked) != 1 {
		t.Fatalf("asked %d times", len(asked))
	}
	a := asked[0]
	if a.Kind != wire.ApprovalOutsideSandbox || a.Reason != "It writes the user's global config." || len(a.AlwaysRules) != 0 ||
		a.NoAlways != gate.NoAlwaysOutside || a.ToolCallID != "c1" || a.Command != "echo x > out.txt" {
		t.Errorf("approval %+v", a)
	}
	if _, err := fileExists(h, "out.txt"); err == nil {
		t.Error("the rejected command ran")
	}
	res := h.results(1)
	if len(res) != 1 || !strings.Contains(res[0].Content, "did not let this command run outside the sandbox") || !strings.Contains(res[0].Content, "not now") {
		t.Errorf("result %+v", res)
	}
	if made, _ := box.counts(); made != 0 {
		t.Errorf("a pod was made for a command that asked to run outside")
	}
}

// sandbox: false without a reason is refused with a sentence, unasked.
func TestSandboxOutsideNeedsReason(t *testing.T) {
	t.Parallel()
	box := &fakeBox{}
	h := newHarness(t, formats[0], fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("c1", "run_bash", `{"command":"echo x > out.txt","sandbox":false}`)}},
		{Text: "Understood."},
	}}, setup{mode: "all", opt: Options{Sandbox: box.options(t, true)}})
	h.approveWith(func(a wire.Approval) {
		t.Errorf("asked %+v", a)
		h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{})
	})
	if r := h.turn("Configure it"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if res := h.results(1); len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].Content, "sandbox: false needs a reason") {
		t.Errorf("result %+v", res)
	}
	if _, err := fileExists(h, "out.txt"); err == nil {
		t.Error("the command ran")
	}
}

// Where the sandbox cannot start, commands ask as before in edits mode,
// the approval and the card say why, and mode all runs them with the
// card saying so: nothing runs unsandboxed silently.
func TestSandboxNotReady(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"edits", "all"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			box := &fakeBox{}
			h := newHarness(t, formats[0], fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{toolCall("c1", "run_bash", `{"command":"echo x > out.txt"}`)}},
				{Text: "Done."},
			}}, setup{mode: mode, opt: Options{Sandbox: box.options(t, false)}})
			var asked []wire.Approval
			var mu sync.Mutex
			h.approveWith(func(a wire.Approval) {
				mu.Lock()
				asked = append(asked, a)
				mu.Unlock()
				h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: true})
			})
			if r := h.turn("Run it"); r != ReasonEndTurn {
				t.Fatalf("reason %s", r)
			}
			wantAsked := 0
			if mode == "edits" {
				wantAsked = 1
			}
			if len(asked) != wantAsked {
				t.Fatalf("asked %d times", len(asked))
			}
			if wantAsked == 1 && (asked[0].Kind != wire.ApprovalCommand || !strings.Contains(asked[0].NoSandbox, unavailable)) {
				t.Errorf("approval %+v", asked[0])
			}
			if got := h.read("out.txt"); got != "x\n" {
				t.Errorf("out.txt %q", got)
			}
			if card := lastCard(h, "c1"); card.Sandbox == nil || card.Sandbox.Sandboxed || card.Sandbox.Unavailable != unavailable {
				t.Errorf("card sandbox %+v", card.Sandbox)
			}
			if made, _ := box.counts(); made != 0 {
				t.Error("a pod was made where the sandbox cannot start")
			}
		})
	}
}

// A sandboxed command's connections: the proxy's Decide asks on the
// running command's card (kind network), remembers a yes for the
// session, refuses a denied host without asking and a host the user said
// no to; the refusals are told with the command's result and stored.
func TestSandboxNetworkDecide(t *testing.T) {
	t.Parallel()
	box := &fakeBox{}
	h := newHarness(t, formats[0], fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("c1", "run_bash", `{"command":"while [ ! -e release ]; do sleep 0.01; done; echo finished"}`)}},
		{Text: "Done."},
	}}, setup{mode: "edits", opt: Options{Sandbox: box.options(t, true)}})
	ctx := context.Background()
	if _, err := h.st.Rules.Add(ctx, store.Rule{ProjectID: h.sess.ProjectID, Tool: gate.NetworkTool, Pattern: "evil.example", Effect: store.Deny}); err != nil {
		t.Fatal(err)
	}
	running := make(chan struct{})
	var once sync.Once
	h.rec.mu.Lock()
	h.rec.onEvent = func(name string, p any) {
		if tp, ok := p.(wire.ToolPayload); ok && tp.Call.ID == "c1" && tp.Call.Status == wire.ToolRunning && tp.Call.Sandbox != nil && tp.Call.Sandbox.Sandboxed {
			once.Do(func() { close(running) })
		}
	}
	h.rec.mu.Unlock()
	var asked []wire.Approval
	var mu sync.Mutex
	h.approveWith(func(a wire.Approval) {
		mu.Lock()
		asked = append(asked, a)
		mu.Unlock()
		h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: a.Host != "no.example", AlwaysAllow: a.Host == "ok.example"})
	})
	if err := h.m.Send(ctx, h.sess.ID, "Fetch things", nil); err != nil {
		t.Fatal(err)
	}
	<-running
	l, err := h.m.live(ctx, h.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.pod.decide(ctx, "ok.example", 443); err != nil {
		t.Errorf("an approved host was refused: %v", err)
	}
	if err := l.pod.decide(ctx, "OK.example.", 443); err != nil {
		t.Errorf("the host allowed always was refused: %v", err)
	}
	if err := l.pod.decide(ctx, "once.example", 8080); err != nil {
		t.Errorf("a host allowed once was refused: %v", err)
	}
	if err := l.pod.decide(ctx, "once.example", 443); err != nil {
		t.Errorf("the host allowed once earlier in the session was refused: %v", err)
	}
	if err := l.pod.decide(ctx, "evil.example", 443); err == nil || !strings.Contains(err.Error(), "sandbox") || !strings.Contains(err.Error(), "evil.example") {
		t.Errorf("a denied host: %v", err)
	}
	if err := l.pod.decide(ctx, "no.example", 80); err == nil || !strings.Contains(err.Error(), "no.example:80") {
		t.Errorf("a host the user refused: %v", err)
	}
	mu.Lock()
	n := len(asked)
	first := asked[0]
	mu.Unlock()
	if n != 3 {
		t.Errorf("asked %d times, want ok.example, once.example and no.example once each", n)
	}
	if first.Kind != wire.ApprovalNetwork || first.ToolCallID != "c1" || first.Host != "ok.example" || first.Port != 443 ||
		!strings.Contains(first.Command, "while") || len(first.AlwaysRules) != 1 || first.AlwaysRules[0] != `allow network "ok.example"` {
		t.Errorf("approval %+v", first)
	}
	// "Always" stored the rule the card showed.
	rules, err := h.st.Rules.List(ctx, h.sess.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rules {
		names = append(names, string(r.Effect)+" "+r.Tool+" "+r.Pattern)
	}
	if len(names) != 2 || names[1] != "allow network ok.example" {
		t.Errorf("rules %q, want the deny rule and allow network ok.example", names)
	}
	if err := os.WriteFile(filepath.Join(h.dir, "release"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := h.wait(); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	res := h.results(1)
	if len(res) != 1 || !strings.Contains(res[0].Content, "finished") || !strings.Contains(res[0].Content, "evil.example") || !strings.Contains(res[0].Content, "no.example:80") {
		t.Errorf("result %+v", res)
	}
	if info := storedSandbox(t, h, "c1"); len(info.Blocked) != 2 {
		t.Errorf("stored blocks %q", info.Blocked)
	}
	if card := lastCard(h, "c1"); card.Status != wire.ToolDone || card.Sandbox == nil || len(card.Sandbox.Blocked) != 2 {
		t.Errorf("card %+v", card)
	}
	if err := l.pod.decide(ctx, "ok.example", 443); err == nil || !strings.Contains(err.Error(), "no command") {
		t.Errorf("a connection with no command running: %v", err)
	}
}
