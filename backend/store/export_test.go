package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

func TestExportImportRoundTrip(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	seedConversation(t, s, x)
	if err := s.Sessions.Rename(ctx, x.ID, "Lexer"); err != nil {
		t.Fatal(err)
	}
	// A cut-off answer must survive the round trip too.
	st := must[*Stream](t)(s.Messages.BeginStream(ctx, x.ID))
	if err := st.Update("half"); err != nil {
		t.Fatal(err)
	}
	if err := st.Interrupt(); err != nil {
		t.Fatal(err)
	}

	var first bytes.Buffer
	if err := s.WriteJSON(ctx, x.ID, &first); err != nil {
		t.Fatal(err)
	}
	imported := must[Session](t)(s.Import(ctx, p.ID, bytes.NewReader(first.Bytes()), ""))
	if imported.ID == x.ID {
		t.Fatal("import reused the id")
	}
	var second bytes.Buffer
	if err := s.WriteJSON(ctx, imported.ID, &second); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Errorf("export after import differs:\n%s\n---\n%s", first.String(), second.String())
	}
	// The copy is a full citizen: searchable, with its tool calls and changes.
	if calls := must[[]ToolCall](t)(s.ToolCalls.List(ctx, imported.ID)); len(calls) != 1 {
		t.Errorf("imported tool calls = %+v", calls)
	}
	if chs := must[[]Change](t)(s.Changes.List(ctx, imported.ID)); len(chs) != 1 {
		t.Errorf("imported changes = %+v", chs)
	}
	found := false
	for _, h := range must[[]SearchHit](t)(s.Search(ctx, p.ID, "quokka", 10)) {
		found = found || h.SessionID == imported.ID
	}
	if !found {
		t.Error("imported session not searchable")
	}
	checkIntegrity(t, s)

	for _, bad := range []string{"", "{", `{"format":"other","version":1}`, `{"format":"pilot-session","version":99}`} {
		if _, err := s.Import(ctx, p.ID, strings.NewReader(bad), ""); !errors.Is(err, ErrInvalid) {
			t.Errorf("Import(%q): err = %v, want ErrInvalid", bad, err)
		}
	}
}

func TestMarkdown(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	_, x := newSession(t, s, "/proj")
	seedConversation(t, s, x)
	must[Message](t)(s.Messages.Append(ctx, x.ID, user("show me ```code``` fences"), llm.Usage{}))
	var b bytes.Buffer
	if err := s.WriteMarkdown(ctx, x.ID, &b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"# Session 1\n",
		"- Project: `/proj`",
		"- Model: claude-test (anthropic)",
		"250 in, 30 out",
		"## User\n\nFix the parser bug in lexer.go please\n",
		"> **Thinking**\n>\n> Look at the lexer first.",
		"**Tool call** `patch_file` — done, approved",
		"```json\n{\n  \"path\": \"internal/lexer.go\",",
		"Change to `internal/lexer.go` (applied)",
		"```diff\n@@ -1 +1 @@ hunk 1: approved\n-a\n+b\n```", // numbered from 1, like the tool results
		"Edited by the user to:\n\n```\npackage lexer\n```",
		"**Tool result**\n\n```\npatched internal/lexer.go: quokka\n```",
		"show me ```code``` fences",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if _, err := s.Sessions.Transcript(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing session: %v", err)
	}
}

// An export carries no authority: the session comes in at the mode the
// importer gives (never the file's "all"), and its approved calls stay in
// the history but are not ApprovedHere, in the import and in its forks.
// Calls approved on this machine are.
func TestImportCarriesNoAuthority(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	must[Message](t)(s.Messages.Append(ctx, x.ID, user("fetch it"), llm.Usage{}))
	fetch := func(sessionID int64, id string) {
		m := must[Message](t)(s.Messages.Append(ctx, sessionID, llm.Message{Role: llm.RoleAssistant,
			Content: []llm.ContentBlock{toolUse(id, "web_fetch", `{"url":"http://host.example/exfil"}`)}}, llm.Usage{}))
		must[ToolCall](t)(s.ToolCalls.Insert(ctx, ToolCall{SessionID: sessionID, MessageID: m.ID, Call: Call{ToolUseID: id, Name: "web_fetch", Input: []byte(`{"url":"http://host.example/exfil"}`), Status: wire.ToolDone, Approval: ApprovalApproved}}))
		must[Message](t)(s.Messages.Append(ctx, sessionID, llm.Message{Role: llm.RoleUser,
			Content: []llm.ContentBlock{toolResult(id, "page")}}, llm.Usage{}))
	}
	fetch(x.ID, "f1")
	if here := must[[]ToolCall](t)(s.ToolCalls.ApprovedHere(ctx, x.ID, "web_fetch")); len(here) != 1 {
		t.Fatalf("a call approved here: ApprovedHere = %+v", here)
	}
	if err := s.Sessions.SetApprovalMode(ctx, x.ID, "all"); err != nil {
		t.Fatal(err)
	}
	var doc bytes.Buffer
	if err := s.WriteJSON(ctx, x.ID, &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.String(), `"approvalMode": "all"`) {
		t.Fatalf("the export should say all:\n%s", doc.String())
	}
	for _, mode := range []string{"", "ask", "edits", "plan"} {
		imp := must[Session](t)(s.Import(ctx, p.ID, bytes.NewReader(doc.Bytes()), mode))
		if want := map[string]string{"": "ask"}[mode]; imp.ApprovalMode != mode && imp.ApprovalMode != want {
			t.Errorf("Import at %q: mode %q", mode, imp.ApprovalMode)
		}
		calls := must[[]ToolCall](t)(s.ToolCalls.List(ctx, imp.ID))
		if len(calls) != 1 || calls[0].Approval != ApprovalApproved {
			t.Errorf("the history must show what happened: %+v", calls)
		}
		if here := must[[]ToolCall](t)(s.ToolCalls.ApprovedHere(ctx, imp.ID, "web_fetch")); len(here) != 0 {
			t.Errorf("an imported approval counts as one made here: %+v", here)
		}
		ms := must[[]Message](t)(s.Messages.List(ctx, imp.ID))
		fork := must[Session](t)(s.Sessions.Fork(ctx, imp.ID, ms[len(ms)-1].ID))
		if here := must[[]ToolCall](t)(s.ToolCalls.ApprovedHere(ctx, fork.ID, "web_fetch")); len(here) != 0 {
			t.Errorf("a fork of an import counts its approvals: %+v", here)
		}
		fetch(fork.ID, "f2") // decided here, in the fork
		if here := must[[]ToolCall](t)(s.ToolCalls.ApprovedHere(ctx, fork.ID, "web_fetch")); len(here) != 1 || here[0].ToolUseID != "f2" {
			t.Errorf("the fork's own approval: %+v", here)
		}
	}
	// The file's budget does not come along, and negative costs, which
	// would lift the budget, are refused.
	var e map[string]any
	if err := json.Unmarshal(doc.Bytes(), &e); err != nil {
		t.Fatal(err)
	}
	e["session"].(map[string]any)["budgetUsd"] = 1e9
	raised, _ := json.Marshal(e)
	if imp := must[Session](t)(s.Import(ctx, p.ID, bytes.NewReader(raised), "ask")); imp.BudgetUSD != 0 {
		t.Errorf("imported budget %v, want the user's own (0)", imp.BudgetUSD)
	}
	e["session"].(map[string]any)["costUsd"] = -1000
	if _, err := s.Import(ctx, p.ID, bytes.NewReader(must[[]byte](t)(json.Marshal(e))), "ask"); !errors.Is(err, ErrInvalid) {
		t.Errorf("a negative cost was imported: %v", err)
	}
	e["session"].(map[string]any)["costUsd"] = 0
	e["messages"].([]any)[0].(map[string]any)["usage"] = map[string]any{"inputTokens": -5000000}
	if _, err := s.Import(ctx, p.ID, bytes.NewReader(must[[]byte](t)(json.Marshal(e))), "ask"); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative tokens were imported: %v", err)
	}
	// A local session's fork keeps its approvals.
	ms := must[[]Message](t)(s.Messages.List(ctx, x.ID))
	fork := must[Session](t)(s.Sessions.Fork(ctx, x.ID, ms[len(ms)-1].ID))
	if here := must[[]ToolCall](t)(s.ToolCalls.ApprovedHere(ctx, fork.ID, "web_fetch")); len(here) != 1 {
		t.Errorf("a local fork lost its approvals: %+v", here)
	}
	checkIntegrity(t, s)
}
