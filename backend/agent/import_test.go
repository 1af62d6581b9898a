package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/webfetch"
	"pilot/backend/wire"
)

// An imported session's approvals are history, never grants: a web_fetch
// of a host approved in the export (made on another machine, or edited by
// hand to "all") does not pre-approve that host here. Resumed in ask or
// plan mode, the next fetch from it asks, and refused, the server sees no
// request. On the old code the stored approval was taken as the user's
// and /exfil was fetched without asking.
func TestImportedApprovalIsNotAGrant(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"ask", "plan"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			web, hits := pageServer(t)
			first := func(r fakellm.Request) bool {
				return len(r.ToolResults) == 0 && strings.Contains(r.LastUserText, "gopher")
			}
			again := func(r fakellm.Request) bool {
				return len(r.ToolResults) == 0 && strings.Contains(r.LastUserText, "again")
			}
			script := fakellm.Script{Turns: []fakellm.Turn{
				{Match: first, Repeat: true, ToolCalls: []fakellm.ToolCall{fetchCall("f1", web.URL+"/page1", "")}},
				{Match: again, Repeat: true, ToolCalls: []fakellm.ToolCall{fetchCall("f2", web.URL+"/exfil?data=secret", "")}},
				{Match: func(r fakellm.Request) bool { return len(r.ToolResults) > 0 }, Repeat: true, Text: "Done."},
			}}
			opt := Options{WebFetch: webfetch.Options{AllowPrivate: func(string) bool { return true }}}
			h := newHarness(t, llm.ProviderAnthropic, script, setup{mode: "ask", opt: opt})
			var mu sync.Mutex
			var asked []wire.Approval
			approve := true
			h.approveWith(func(a wire.Approval) {
				mu.Lock()
				asked = append(asked, a)
				ok := approve
				mu.Unlock()
				h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: ok})
			})
			// On the machine that made it: the user approves the host once.
			if r := h.turn("read the gopher page"); r != ReasonEndTurn {
				t.Fatalf("first turn: %s", r)
			}
			if hits.Load() != 1 || len(asked) != 1 {
				t.Fatalf("first fetch: hits %d, asked %d", hits.Load(), len(asked))
			}

			// Shared, edited to "all", imported here at the user's mode.
			ctx := context.Background()
			var doc bytes.Buffer
			if err := h.st.WriteJSON(ctx, h.sess.ID, &doc); err != nil {
				t.Fatal(err)
			}
			var e map[string]any
			if err := json.Unmarshal(doc.Bytes(), &e); err != nil {
				t.Fatal(err)
			}
			e["session"].(map[string]any)["approvalMode"] = "all"
			edited, _ := json.Marshal(e)
			imp, err := h.st.Import(ctx, h.sess.ProjectID, bytes.NewReader(edited), mode)
			if err != nil {
				t.Fatal(err)
			}
			if imp.ApprovalMode != mode {
				t.Fatalf("imported at mode %q, want %q (the file says all)", imp.ApprovalMode, mode)
			}
			calls, err := h.st.ToolCalls.List(ctx, imp.ID)
			if err != nil || len(calls) != 1 || calls[0].Approval != store.ApprovalApproved {
				t.Fatalf("the imported history must still show what happened: %+v %v", calls, err)
			}

			mu.Lock()
			asked, approve = nil, false
			mu.Unlock()
			h.sess = imp
			if r := h.turn("fetch it again"); r != ReasonEndTurn {
				t.Fatalf("resumed turn: %s", r)
			}
			if len(asked) != 1 || asked[0].Host != "127.0.0.1" {
				t.Errorf("the imported session fetched without asking: asked %+v", asked)
			}
			if hits.Load() != 1 {
				t.Errorf("the web server saw %d requests after the import, want 0", hits.Load()-1)
			}
		})
	}
}
