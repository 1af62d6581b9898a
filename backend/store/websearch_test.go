package store

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// TestSearchFindsWebSearchResults: a web_search call's results are its
// tool output; a later search of the project's sessions finds a result's
// title and URL, pointing at the assistant message that searched, even
// when the title is far into a long output.
func TestSearchFindsWebSearchResults(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	must[Message](t)(s.Messages.Append(ctx, x.ID, user("Find how SearXNG answers in JSON"), llm.Usage{}))
	assistant := must[Message](t)(s.Messages.Append(ctx, x.ID, llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
		toolUse("toolu_s", "web_search", `{"query":"searxng json api"}`)}}, llm.Usage{}))
	call := must[ToolCall](t)(s.ToolCalls.Insert(ctx, ToolCall{SessionID: x.ID, MessageID: assistant.ID, Call: Call{ToolUseID: "toolu_s", Name: "web_search", Input: json.RawMessage(`{"query":"searxng json api"}`)}}))
	var out strings.Builder
	out.WriteString("Search 1 of 20 in this session.\nSearXNG results for \"searxng json api\" (20). Read a page with web_fetch.\n")
	for i := range 19 {
		out.WriteString("\n" + strings.Repeat("filler words about search engines ", 20) + string(rune('a'+i)) + "\n")
	}
	out.WriteString("\n20. Search API — SearXNG Documentation\n   https://docs.searxng.org/dev/search_api.html\n   Date: 2024-11-02\n   The search supports both GET and POST.\n")
	if err := s.ToolCalls.Finish(ctx, call.ID, wire.ToolDone, out.String()); err != nil {
		t.Fatal(err)
	}
	must[Message](t)(s.Messages.Append(ctx, x.ID, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{toolResult("toolu_s", out.String())}}, llm.Usage{}))

	for _, q := range []string{"SearXNG Documentation", "docs.searxng.org"} {
		hits := must[[]SearchHit](t)(s.Search(ctx, p.ID, q, 10))
		if len(hits) != 1 || hits[0].Kind != HitToolOutput || hits[0].MessageID != assistant.ID || !strings.Contains(hits[0].Snippet, MarkOpen) {
			t.Errorf("search %q: %+v, want one tool output hit on message %d", q, hits, assistant.ID)
		}
	}
}
