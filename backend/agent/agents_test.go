package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pilot/backend/customagent"
	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// agentFiles are a project's custom agents: a read-only finder on haiku
// and a fixer that may write.
var agentFiles = map[string]string{
	".claude/agents/finder.md": "---\nname: finder\ndescription: Finds where things are.\ntools: Read, Grep, WebSearch\nmodel: haiku\n---\nYou are FINDER-PROMPT. Look, never touch.\n",
	".pilot/agents/fixer.md":   "---\nname: fixer\ndescription: Fixes small things in files.\ntools: Read, Write\n---\nYou are FIXER-PROMPT.\n",
	".claude/agents/broken.md": "You are an agent without front matter.\n",
	"alpha.txt":                "alpha-content\n",
}

func isAgent(name string) func(fakellm.Request) bool {
	return func(r fakellm.Request) bool {
		return strings.Contains(r.System, "You are "+name+", a custom agent of Pilot")
	}
}

func isMain(r fakellm.Request) bool {
	return !strings.Contains(r.System, "a custom agent of Pilot") && !isHelper(r)
}

func taskCall(id, agent, prompt string) fakellm.ToolCall {
	in, _ := json.Marshal(map[string]string{"description": "delegate", "prompt": prompt, "subagent_type": agent})
	return fakellm.ToolCall{ID: id, Name: "task", Input: in}
}

// agentOptions keep the machine's own ~/.claude/agents out.
func agentOptions(t *testing.T) Options {
	var o Options
	o.Sandbox.Home = t.TempDir()
	return o
}

func TestReadOnlyAgent(t *testing.T) {
	t.Parallel()
	million := fakellm.Usage{InputTokens: 1_000_000}
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{Match: func(r fakellm.Request) bool { return isMain(r) && len(r.ToolResults) == 0 },
					ToolCalls: []fakellm.ToolCall{taskCall("t1", "finder", "where is alpha?"), taskCall("t2", "nobody", "hi")}},
				{Match: func(r fakellm.Request) bool { return isAgent("finder")(r) && len(r.ToolResults) == 0 }, Usage: &million,
					ToolCalls: []fakellm.ToolCall{toolCall("f1", "read_file", `{"path":"alpha.txt"}`), toolCall("f2", "write_file", `{"path":"x.txt","content":"x"}`)}},
				{Match: isAgent("finder"), Usage: &million, Text: "Alpha is in alpha.txt."},
				{Match: isMain, Text: "Found."},
			}}, setup{mode: "ask", files: agentFiles, opt: agentOptions(t)})
			if r := h.turn("find alpha"); r != ReasonEndTurn {
				t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
			}
			reqs := h.srv.Requests()
			body, _ := json.Marshal(reqs[0].Body)
			if !strings.Contains(string(body), "- finder: Finds where things are.") || !strings.Contains(string(body), "- fixer: Fixes small things in files.") {
				t.Fatalf("the task tool's description does not list the agents: %s", body)
			}
			var agentReqs []fakellm.Request
			for _, r := range reqs {
				if isAgent("finder")(r) {
					agentReqs = append(agentReqs, r)
				}
			}
			if len(agentReqs) != 2 {
				t.Fatalf("%d requests of the agent", len(agentReqs))
			}
			a := agentReqs[0]
			if !strings.Contains(a.System, "You are FINDER-PROMPT.") || !slices.Equal(a.Tools, []string{"read_file", "grep"}) {
				t.Fatalf("the agent ran with tools %v and system %q", a.Tools, a.System)
			}
			wantModel := "claude-haiku-4-5" // the alias on Anthropic
			if format == llm.ProviderOpenAI {
				wantModel = llm.DefaultModel(format) // not served there: the session's
			}
			if a.Model != wantModel {
				t.Fatalf("the agent ran on %q, want %q", a.Model, wantModel)
			}
			res := map[string]fakellm.ToolResult{}
			for _, r := range agentReqs[1].ToolResults {
				res[r.ToolUseID] = r
			}
			if !strings.Contains(res["f1"].Content, "alpha-content") || !strings.Contains(res["f2"].Content, "The agent finder cannot call write_file. Its tools are: read_file, grep.") {
				t.Fatalf("the agent's results %+v", res)
			}
			if _, err := os.Stat(filepath.Join(h.dir, "x.txt")); err == nil {
				t.Fatal("a read-only agent wrote a file")
			}
			main := map[string]fakellm.ToolResult{}
			for _, r := range reqs[len(reqs)-1].ToolResults {
				main[r.ToolUseID] = r
			}
			if !strings.HasPrefix(main["t1"].Content, "Alpha is in alpha.txt.") {
				t.Fatalf("task result %q", main["t1"].Content)
			}
			if format == llm.ProviderOpenAI && !strings.Contains(main["t1"].Content, "asks for the model haiku, which the session's provider (openai) does not serve") {
				t.Fatalf("no note on the model: %q", main["t1"].Content)
			}
			if !strings.HasSuffix(main["t2"].Content, `There is no custom agent called "nobody". The custom agents are: finder, fixer. Call task again with one of them as subagent_type, or without it for the read-only helper.`) {
				t.Fatalf("unknown agent: %+v", main["t2"])
			}
			calls, err := h.st.ToolCalls.List(context.Background(), h.sess.ID)
			if err != nil {
				t.Fatal(err)
			}
			if i := slices.IndexFunc(calls, func(c store.ToolCall) bool { return c.ToolUseID == "t1/1" }); i < 0 || calls[i].ParentToolUseID != "t1" || calls[i].Status != wire.ToolDone {
				t.Fatalf("the agent's read is not nested under its task: %+v", calls)
			}
			sess, err := h.st.Sessions.Get(context.Background(), h.sess.ID)
			if err != nil {
				t.Fatal(err)
			}
			if format == llm.ProviderAnthropic && (sess.CostUSD < 2 || sess.CostUSD > 2.1) {
				t.Fatalf("the session cost $%.2f, want about $2: the agent's two million input tokens at Haiku's price (Sonnet's would be $6), plus the main agent's few", sess.CostUSD)
			}
			var told bool
			for _, e := range h.rec.events(wire.AgentNotice) {
				n := e.(wire.NoticePayload)
				told = told || (n.Kind == wire.NoticeAgents && strings.Contains(n.Text, "broken.md is not used as an agent: it has no front matter"))
			}
			if !told {
				t.Fatalf("no notice about broken.md: %+v", h.rec.events(wire.AgentNotice))
			}
			if len(h.rec.events(wire.AgentApproval)) != 0 {
				t.Fatal("a read-only agent asked for an approval")
			}
		})
	}
}

func TestEditingAgent(t *testing.T) {
	t.Parallel()
	for _, approve := range []bool{false, true} {
		t.Run(map[bool]string{false: "rejected", true: "approved"}[approve], func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
				{Match: func(r fakellm.Request) bool { return isMain(r) && len(r.ToolResults) == 0 },
					ToolCalls: []fakellm.ToolCall{taskCall("t1", "fixer", "create fixed.txt")}},
				{Match: func(r fakellm.Request) bool { return isAgent("fixer")(r) && len(r.ToolResults) == 0 },
					ToolCalls: []fakellm.ToolCall{toolCall("w1", "write_file", `{"path":"fixed.txt","content":"fixed\n"}`)}},
				{Match: isAgent("fixer"), Text: "Wrote fixed.txt, or tried to."},
				{Match: isMain, Text: "Done."},
			}}, setup{mode: "ask", files: agentFiles, opt: agentOptions(t)})
			var asked []wire.Approval
			h.approveWith(func(a wire.Approval) {
				asked = append(asked, a)
				v, err := h.m.Approvals().Change(a.ID)
				if err != nil {
					t.Error(err)
					return
				}
				// While it waits, nothing is on disk.
				if _, err := os.Stat(filepath.Join(h.dir, "fixed.txt")); err == nil {
					t.Error("the agent's file was written before the review")
				}
				if approve {
					h.m.Approvals().DecideChange(a.ID, allHunks(v, true))
				} else {
					h.m.Approvals().DecideChange(a.ID, wire.ChangeDecision{Feedback: "not now"})
				}
			})
			if r := h.turn("fix it"); r != ReasonEndTurn {
				t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
			}
			if len(asked) != 1 || asked[0].Kind != wire.ApprovalChange || asked[0].ToolCallID != "t1/1" {
				t.Fatalf("approvals %+v, want one change review of the nested call t1/1", asked)
			}
			calls, err := h.st.ToolCalls.List(context.Background(), h.sess.ID)
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(calls, func(c store.ToolCall) bool { return c.ToolUseID == "t1/1" })
			if i < 0 || calls[i].ParentToolUseID != "t1" || calls[i].Name != "write_file" {
				t.Fatalf("the agent's write is not nested under its task: %+v", calls)
			}
			cards, err := h.lg.Cards(context.Background(), h.sess.ID)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(h.dir, "fixed.txt"))
			if !approve {
				if err == nil {
					t.Fatalf("a rejected change was written: %q", b)
				}
				if calls[i].Status != wire.ToolRejected || calls[i].Approval != store.ApprovalRejected {
					t.Fatalf("the rejected call: %+v", calls[i])
				}
				agentRes := h.srv.Requests()[2].ToolResults
				if len(agentRes) != 1 || !strings.Contains(agentRes[0].Content, "not now") || !strings.Contains(agentRes[0].Content, "Nothing was written.") {
					t.Fatalf("the agent was told %+v", agentRes)
				}
				return
			}
			if err != nil || string(b) != "fixed\n" {
				t.Fatalf("the approved change: %q, %v", b, err)
			}
			if c := cards.Changes["t1/1"]; c == nil || c.Applied == 0 {
				t.Fatalf("the ledger has no change of the session for t1/1: %+v", cards.Changes)
			}
			var nested *wire.ToolCall
			for _, e := range h.rec.events(wire.AgentTool) {
				if v := e.(wire.ToolPayload).Call; v.ID == "t1/1" {
					nested = &v
				}
			}
			if nested == nil || nested.ParentID != "t1" || nested.Change == nil {
				t.Fatalf("the nested card %+v", nested)
			}
		})
	}
}

// An editing agent's command is the session's: asked like one, run once
// approved, its card nested; a PreToolUse hook on Write blocks its write
// before any review, and nothing is written.
func TestEditingAgentCommandAndHook(t *testing.T) {
	t.Parallel()
	files := map[string]string{".claude/agents/runner.md": "---\nname: runner\ndescription: Runs things.\ntools: Bash, Write\n---\nYou run things.\n"}
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{Match: func(r fakellm.Request) bool { return isMain(r) && len(r.ToolResults) == 0 },
			ToolCalls: []fakellm.ToolCall{taskCall("t1", "runner", "make the files")}},
		{Match: func(r fakellm.Request) bool { return isAgent("runner")(r) && len(r.ToolResults) == 0 },
			ToolCalls: []fakellm.ToolCall{toolCall("b1", "run_bash", `{"command":"echo made > made.txt"}`), toolCall("w1", "write_file", `{"path":"blocked.txt","content":"no\n"}`)}},
		{Match: isAgent("runner"), Text: "Ran it; the write was blocked."},
		{Match: isMain, Text: "Done."},
	}}, setup{mode: "ask", files: files, opt: agentOptions(t),
		hooks: hookSet(t, "PreToolUse", "Write", `cat >/dev/null; echo "No new files from agents." >&2; exit 2`)})
	var asked []wire.Approval
	h.approveWith(func(a wire.Approval) {
		asked = append(asked, a)
		h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: true})
	})
	if r := h.turn("make the files"); r != ReasonEndTurn {
		t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
	}
	if len(asked) != 1 || asked[0].Kind != wire.ApprovalCommand || asked[0].ToolCallID != "t1/1" || asked[0].Command != "echo made > made.txt" {
		t.Fatalf("approvals %+v, want the agent's command, nested as t1/1", asked)
	}
	if got := h.read("made.txt"); got != "made\n" {
		t.Fatalf("made.txt = %q", got)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "blocked.txt")); err == nil {
		t.Fatal("a write a hook blocked was written")
	}
	calls, err := h.st.ToolCalls.List(context.Background(), h.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]store.ToolCall{}
	for _, c := range calls {
		byID[c.ToolUseID] = c
	}
	if c := byID["t1/1"]; c.ParentToolUseID != "t1" || c.Status != wire.ToolDone || c.Approval != store.ApprovalApproved {
		t.Fatalf("the command's call %+v", c)
	}
	if c := byID["t1/2"]; c.ParentToolUseID != "t1" || c.Status != wire.ToolRejected || !strings.Contains(c.Output, "No new files from agents.") {
		t.Fatalf("the blocked write's call %+v", c)
	}
}

func TestPickModel(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		want, provider, session string
		model                   string
		noted                   bool
	}{
		{"", "anthropic", "claude-sonnet-4-5", "claude-sonnet-4-5", false},
		{"inherit", "openai", "gpt-5", "gpt-5", false},
		{"opus", "anthropic", "claude-sonnet-4-5", "claude-opus-4-5", false},
		{"haiku", "openai", "gpt-5", "gpt-5", true},
		{"claude-opus-4-1", "anthropic", "", "claude-opus-4-1", false},
		{"claude-opus-4-1", "openai", "gpt-5", "gpt-5", true},
		{"gpt-5-mini", "openai", "gpt-5", "gpt-5-mini", false},
		{"anthropic/claude-haiku-4.5", "openai", "gpt-5", "anthropic/claude-haiku-4.5", false},
		{"gpt-5-mini", "anthropic", "claude-sonnet-4-5", "claude-sonnet-4-5", true},
	} {
		model, note := pickModel(customagent.Agent{Name: "a", Model: c.want}, c.provider, c.session)
		if model != c.model || (note != "") != c.noted {
			t.Errorf("%q on %s (session %q): %q, note %q; want %q, noted %v", c.want, c.provider, c.session, model, note, c.model, c.noted)
		}
	}
}

// A helper whose call waits for the user (an editing agent's change, in
// the inbox) holds only that call: the turn's other helper runs on and
// finishes while the change waits.
func TestOtherHelpersRunWhileOneWaits(t *testing.T) {
	t.Parallel()
	first := func(r fakellm.Request) bool { return len(r.ToolResults) == 0 }
	both := func(a, b func(fakellm.Request) bool) func(fakellm.Request) bool {
		return func(r fakellm.Request) bool { return a(r) && b(r) }
	}
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{Match: both(isMain, first), ToolCalls: []fakellm.ToolCall{taskCall("t1", "fixer", "create fixed.txt"), taskCall("t2", "finder", "where is alpha?")}},
		{Match: both(isAgent("fixer"), first), ToolCalls: []fakellm.ToolCall{toolCall("w1", "write_file", `{"path":"fixed.txt","content":"fixed\n"}`)}},
		{Match: isAgent("fixer"), Text: "Wrote fixed.txt."},
		{Match: both(isAgent("finder"), first), ToolCalls: []fakellm.ToolCall{toolCall("r1", "read_file", `{"path":"alpha.txt"}`)}},
		{Match: isAgent("finder"), Text: "Alpha is in alpha.txt."},
		{Match: isMain, Text: "Done."},
	}}, setup{mode: "ask", files: agentFiles, opt: agentOptions(t)})
	finderDone := make(chan struct{})
	h.rec.mu.Lock()
	h.rec.onEvent = func(_ string, payload any) {
		if p, ok := payload.(wire.ToolPayload); ok && p.Call.ID == "t2" && p.Call.Status == wire.ToolDone {
			close(finderDone)
		}
	}
	h.rec.mu.Unlock()
	h.approveWith(func(a wire.Approval) {
		select {
		case <-finderDone:
		case <-time.After(30 * time.Second):
			t.Error("the finder did not finish while the fixer's change waited")
		}
		v, err := h.m.Approvals().Change(a.ID)
		if err == nil {
			err = h.m.Approvals().DecideChange(a.ID, allHunks(v, true))
		}
		if err != nil {
			t.Error(err)
		}
	})
	if r := h.turn("fix it and find alpha"); r != ReasonEndTurn {
		t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
	}
	if b, err := os.ReadFile(filepath.Join(h.dir, "fixed.txt")); err != nil || string(b) != "fixed\n" {
		t.Fatalf("the approved change: %q, %v", b, err)
	}
}
