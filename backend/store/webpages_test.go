package store

import (
	"context"
	"strings"
	"testing"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// A page web_fetch read is found by Search with its session, a page also
// sent whole in a tool result gives one hit, and the pages go with their
// session.
func TestWebPagesSearch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	_, sess := newSession(t, s, t.TempDir())
	must[Message](t)(s.Messages.Append(ctx, sess.ID, user("read the docs"), llm.Usage{}))
	asst := must[Message](t)(s.Messages.Append(ctx, sess.ID, llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
		toolUse("f1", "web_fetch", `{"url":"https://example.org/a","prompt":"what is it"}`),
		toolUse("f2", "web_fetch", `{"url":"https://example.org/b"}`),
	}}, llm.Usage{}))
	call := must[ToolCall](t)(s.ToolCalls.Insert(ctx, ToolCall{SessionID: sess.ID, MessageID: asst.ID, Call: Call{ToolUseID: "f1", Name: "web_fetch"}}))
	must[WebPage](t)(s.WebPages.Add(ctx, WebPage{SessionID: sess.ID, ToolCallID: call.ID, MessageID: asst.ID,
		URL: "https://example.org/a", Title: "Zanzibar notes", Markdown: "The quokka lives on Rottnest island."}))
	must[WebPage](t)(s.WebPages.Add(ctx, WebPage{SessionID: sess.ID, MessageID: asst.ID, URL: "https://example.org/b", Markdown: "wombat burrows"}))
	must[Message](t)(s.Messages.Append(ctx, sess.ID, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{
		toolResult("f1", "It is a page about a marsupial."), toolResult("f2", "wombat burrows"),
	}}, llm.Usage{}))

	for _, tc := range []struct {
		query string
		kind  HitKind
		hits  int
	}{
		{"quokka", HitWebPage, 1},
		{"rottnest isl", HitWebPage, 1},
		{"zanzibar", HitWebPage, 1},
		{"wombat", HitToolOutput, 1}, // in the tool result too: one hit
	} {
		hits := must[[]SearchHit](t)(s.Search(ctx, sess.ProjectID, tc.query, 10))
		if len(hits) != tc.hits || hits[0].Kind != tc.kind || hits[0].SessionID != sess.ID || hits[0].MessageID != asst.ID {
			t.Fatalf("%q: %+v", tc.query, hits)
		}
	}
	pages := must[[]WebPage](t)(s.WebPages.List(ctx, sess.ID))
	if len(pages) != 2 || pages[0].ToolCallID != call.ID || pages[0].Title != "Zanzibar notes" {
		t.Fatalf("pages %+v", pages)
	}
	checkIntegrity(t, s)
	if err := s.Sessions.Delete(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	if hits := must[[]SearchHit](t)(s.Search(ctx, sess.ProjectID, "quokka", 10)); len(hits) != 0 {
		t.Fatalf("hits after delete: %+v", hits)
	}
	checkIntegrity(t, s)
}

// A helper's tool call keeps its parent and its own output, through a
// restart of the view (Transcript) and a fork.
func TestHelperToolCalls(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	_, sess := newSession(t, s, t.TempDir())
	must[Message](t)(s.Messages.Append(ctx, sess.ID, user("look around"), llm.Usage{}))
	asst := must[Message](t)(s.Messages.Append(ctx, sess.ID, llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
		toolUse("t1", "task", `{"description":"find","prompt":"find main"}`),
	}}, llm.Usage{}))
	parent := must[ToolCall](t)(s.ToolCalls.Insert(ctx, ToolCall{SessionID: sess.ID, MessageID: asst.ID, Call: Call{ToolUseID: "t1", Name: "task"}}))
	child := must[ToolCall](t)(s.ToolCalls.Insert(ctx, ToolCall{SessionID: sess.ID, MessageID: asst.ID, ParentToolUseID: "t1", Call: Call{ToolUseID: "t1/1", Name: "glob"}}))
	if err := s.ToolCalls.Finish(ctx, child.ID, wire.ToolDone, "main.go"); err != nil {
		t.Fatal(err)
	}
	if err := s.ToolCalls.Finish(ctx, parent.ID, wire.ToolDone, "It is main.go"); err != nil {
		t.Fatal(err)
	}
	last := must[Message](t)(s.Messages.Append(ctx, sess.ID, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{toolResult("t1", "It is main.go")}}, llm.Usage{}))
	tr := must[Transcript](t)(s.Sessions.Transcript(ctx, sess.ID))
	check := func(cs []ToolCall) {
		t.Helper()
		if len(cs) != 2 || cs[1].ParentToolUseID != "t1" || cs[1].Output != "main.go" || cs[0].ParentToolUseID != "" || cs[0].Output != "It is main.go" {
			t.Fatalf("calls %+v", cs)
		}
	}
	check(tr.ToolCalls)
	check(must[[]ToolCall](t)(s.ToolCalls.List(ctx, sess.ID)))
	if md := tr.Markdown(); !strings.Contains(md, "The helper's tool calls:\n\n- `glob` `{}` — done\n\n```\nmain.go\n```") {
		t.Fatalf("markdown export:\n%s", md)
	}
	fork := must[Session](t)(s.Sessions.Fork(ctx, sess.ID, last.ID))
	check(must[[]ToolCall](t)(s.ToolCalls.List(ctx, fork.ID)))
}
