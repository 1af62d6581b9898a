package agent

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/permission"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// attempts are the change-making calls a model sends in plan mode anyway,
// each of which would leave a trace on disk, in a shell or at an MCP
// server if it ran; the last one only reads.
var attempts = []fakellm.ToolCall{
	toolCall("w1", "write_file", `{"path":"evil.txt","content":"written"}`),
	toolCall("p1", "patch_file", `{"path":"main.go","old_text":"package main","new_text":"package evil"}`),
	toolCall("m1", "multi_patch", `{"edits":[{"path":"main.go","old_text":"package main","new_text":"package multi"}]}`),
	toolCall("b1", "run_bash", `{"command":"touch ran.txt; echo ran > ran2.txt"}`),
	toolCall("o1", "write_file", `{"path":"../outside.txt","content":"escaped"}`),
	toolCall("e1", "mcp__t__echo", `{"text":"hi"}`),
	toolCall("r1", "read_file", `{"path":"main.go"}`),
}

// TestPlanModeRefusesChanges: in plan mode the model is offered only the
// read-only tools and present_plan, and every change-making call it sends
// anyway is refused by the loop before it is built: no file is written,
// no command runs, nothing is proposed or asked, even with rules that
// allow everything. The turn ends with the plan.
func TestPlanModeRefusesChanges(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			servers := &fakeMCP{}
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{Text: "Let me try anyway.", ToolCalls: attempts},
				{ToolCalls: []fakellm.ToolCall{toolCall("plan1", "present_plan", `{"plan":"# Goal\nRename the package.","steps":["Patch main.go","Run go build"]}`)},
					When: &fakellm.When{HasToolResult: true}},
			}}, setup{mode: "plan", files: map[string]string{"main.go": "package main\n"}, mcp: servers})
			ctx := context.Background()
			for _, r := range []store.Rule{
				{ProjectID: h.sess.ProjectID, Tool: permission.BashTool, Pattern: "*", Effect: store.Allow},
				{ProjectID: h.sess.ProjectID, Tool: permission.Edits, Pattern: "**", Effect: store.Allow},
			} {
				if _, err := h.st.Rules.Add(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			h.approveWith(func(a wire.Approval) { t.Errorf("asked in plan mode: %+v", a) })
			if r := h.turn("Plan a rename of the package"); r != ReasonPlan {
				t.Fatalf("reason %s, want %s", r, ReasonPlan)
			}
			for _, name := range []string{"evil.txt", "ran.txt", "ran2.txt", "../outside.txt"} {
				if _, err := fileExists(h, name); !os.IsNotExist(err) {
					t.Errorf("%s exists (%v): a refused call reached the disk or a shell", name, err)
				}
			}
			if len(servers.calls) != 0 {
				t.Errorf("MCP calls in plan mode: %v", servers.calls)
			}
			if got := h.read("main.go"); got != "package main\n" {
				t.Errorf("main.go = %q", got)
			}
			if chs, err := h.st.Changes.List(ctx, h.sess.ID); err != nil || len(chs) != 0 {
				t.Errorf("changes proposed: %v %v", chs, err)
			}
			if cps, err := h.st.Checkpoints.List(ctx, h.sess.ID); err != nil || len(cps) != 0 {
				t.Errorf("checkpoints: %+v %v", cps, err)
			}
			reqs := h.srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d model calls, want 2", len(reqs))
			}
			for _, tool := range []string{"write_file", "patch_file", "multi_patch", "run_bash", "mcp__t__echo"} {
				if slices.Contains(reqs[0].Tools, tool) {
					t.Errorf("%s offered in plan mode: %v", tool, reqs[0].Tools)
				}
			}
			for _, tool := range []string{"read_file", "grep", "todo_write", "present_plan"} {
				if !slices.Contains(reqs[0].Tools, tool) {
					t.Errorf("%s not offered in plan mode: %v", tool, reqs[0].Tools)
				}
			}
			if !strings.Contains(reqs[0].System, "# Plan mode") {
				t.Error("the system prompt does not say plan mode")
			}
			res := h.results(1)
			if len(res) != len(attempts) {
				t.Fatalf("results %+v", res)
			}
			for i, r := range res[:6] {
				if !failed(r) || !strings.Contains(r.Content, "plan mode") || !strings.Contains(r.Content, "nothing was changed or run") {
					t.Errorf("result of %s: %+v", attempts[i].Name, r)
				}
			}
			if read := res[len(res)-1]; failed(read) || !strings.Contains(read.Content, "package main") {
				t.Errorf("read_file in plan mode: %+v", read)
			}
			calls, err := h.st.ToolCalls.List(ctx, h.sess.ID)
			if err != nil {
				t.Fatal(err)
			}
			statuses := map[string]wire.ToolStatus{}
			for _, c := range calls {
				statuses[c.Name] = c.Status
			}
			for name, want := range map[string]wire.ToolStatus{"write_file": wire.ToolRejected, "run_bash": wire.ToolRejected,
				"multi_patch": wire.ToolRejected, "read_file": wire.ToolDone, "present_plan": wire.ToolDone} {
				if statuses[name] != want {
					t.Errorf("%s is %s, want %s", name, statuses[name], want)
				}
			}
			if n := len(h.rec.events(wire.AgentApproval)); n != 0 {
				t.Errorf("%d approvals asked", n)
			}
			checkPairs(t, h.messages())
		})
	}
}

// TestPlanApproved: once the user leaves plan mode, the next turn is
// offered the change-making tools and not present_plan; a present_plan
// sent anyway is refused, and the approved plan's edits are proposed for
// review under ask.
func TestPlanApproved(t *testing.T) {
	t.Parallel()
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("plan1", "present_plan", `{"plan":"Create notes.txt","steps":["Write it"]}`)},
			When: &fakellm.When{LastUserContains: "Plan"}},
		{ToolCalls: []fakellm.ToolCall{
			toolCall("plan2", "present_plan", `{"plan":"again","steps":["x"]}`),
			toolCall("w1", "write_file", `{"path":"notes.txt","content":"hello\n"}`),
		}, When: &fakellm.When{LastUserContains: "approved this plan"}},
		{Text: "Done.", When: &fakellm.When{HasToolResult: true}},
	}}, setup{mode: "plan"})
	if r := h.turn("Plan a notes file"); r != ReasonPlan {
		t.Fatalf("plan turn: %s", r)
	}
	if err := h.m.SetApprovalMode(context.Background(), h.sess.ID, "ask"); err != nil {
		t.Fatal(err)
	}
	asked := make(chan wire.Approval, 1)
	h.approveWith(func(a wire.Approval) {
		asked <- a
		v, err := h.m.Approvals().Change(a.ID)
		if err != nil {
			t.Error(err)
			return
		}
		h.m.Approvals().DecideChange(a.ID, allHunks(v, true))
	})
	if r := h.turn("The user approved this plan:\n\nCreate notes.txt"); r != ReasonEndTurn {
		t.Fatalf("work turn: %s", r)
	}
	if a := <-asked; a.Tool != "write_file" {
		t.Errorf("asked about %+v", a)
	}
	if got := h.read("notes.txt"); got != "hello\n" {
		t.Errorf("notes.txt = %q", got)
	}
	reqs := h.srv.Requests()
	if slices.Contains(reqs[1].Tools, "present_plan") || !slices.Contains(reqs[1].Tools, "write_file") || strings.Contains(reqs[1].System, "# Plan mode") {
		t.Errorf("tools after approval: %v", reqs[1].Tools)
	}
	res := h.results(2)
	if !failed(res[0]) || !strings.Contains(res[0].Content, "only for plan mode") {
		t.Errorf("present_plan outside plan mode: %+v", res[0])
	}
}

// failed reports whether the model was told a call failed: Anthropic's
// is_error, or the "Error: " OpenAI-compatible tool messages start with.
func failed(r fakellm.ToolResult) bool { return r.IsError || strings.HasPrefix(r.Content, "Error: ") }

// TestPlanModeMidTurn: a mode switched while a turn runs holds from the
// turn's next model call: the switch to plan takes the change-making tools
// away and refuses what the model still sends.
func TestPlanModeMidTurn(t *testing.T) {
	t.Parallel()
	var h *harness
	switched := make(chan struct{})
	h = newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("w1", "write_file", `{"path":"a.txt","content":"a"}`)}, When: &fakellm.When{LastUserContains: "Write"}},
		{ToolCalls: []fakellm.ToolCall{toolCall("w2", "write_file", `{"path":"b.txt","content":"b"}`)}, Match: func(r fakellm.Request) bool {
			// The user picks plan while this call streams.
			if len(r.ToolResults) == 1 && r.ToolResults[0].ToolUseID == "w1" {
				if err := h.m.SetApprovalMode(context.Background(), h.sess.ID, "plan"); err != nil {
					t.Error(err)
				}
				close(switched)
				return true
			}
			return false
		}},
		{ToolCalls: []fakellm.ToolCall{toolCall("w3", "write_file", `{"path":"c.txt","content":"c"}`)}, When: &fakellm.When{ToolResultContains: "b.txt"}},
		{Text: "Stopping.", When: &fakellm.When{ToolResultContains: "plan mode"}},
	}}, setup{mode: "all"})
	if r := h.turn("Write three files"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	<-switched
	for name, want := range map[string]bool{"a.txt": true, "b.txt": true, "c.txt": false} {
		if _, err := fileExists(h, name); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", name, err == nil, want)
		}
	}
	reqs := h.srv.Requests()
	if len(reqs) != 4 || !slices.Contains(reqs[1].Tools, "write_file") || slices.Contains(reqs[2].Tools, "write_file") {
		t.Fatalf("tools per call: %v / %v", reqs[1].Tools, reqs[2].Tools)
	}
	if res := h.results(3); !failed(res[0]) || !strings.Contains(res[0].Content, "plan mode") {
		t.Errorf("c.txt result %+v", res)
	}
}
