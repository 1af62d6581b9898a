package store

import (
	"context"
	"strings"
	"testing"

	"pilot/backend/llm"
)

func TestFTSQuery(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"   ", ""},
		{"- * : ( ) \"", ""},
		{"lexer", `"lexer"*`},
		{"fix lexer", `"fix" "lexer"*`},
		{`say "hi"`, `"say" """hi"""*`},
		{"main.go", `"main.go"*`},
		{"-v NOT x:y", `"-v" "NOT" "x:y"*`},
		{"AND OR NEAR(a b)", `"AND" "OR" "NEAR(a" "b)"*`},
	}
	for _, tc := range tests {
		if got := ftsQuery(tc.in); got != tc.want {
			t.Errorf("ftsQuery(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestSearch(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	if err := s.Rename(ctx, x.ID, "Lexer work"); err != nil {
		t.Fatal(err)
	}
	seedConversation(t, s, x)
	// The same words in another project must not show up.
	_, other := newSession(t, s, "/elsewhere")
	seedConversation(t, s, other)
	// A message still streaming is not searchable yet.
	st := must[*Stream](t)(s.BeginStream(ctx, x.ID))
	if err := st.Update("zebra crossing"); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		query     string
		wantKinds []HitKind // kinds of the hits, in any order
		snippet   string    // a snippet that must be among the hits
	}{
		{"tokenizer", []HitKind{HitMessage}, "patch the «tokenizer»."},
		{"tokeni", []HitKind{HitMessage}, "«tokenizer»"},
		{"quokka", []HitKind{HitToolOutput}, "«quokka»"},
		{"old_text", []HitKind{HitToolInput}, `"«old_text»"`},
		{"lexer.go", []HitKind{HitMessage, HitToolInput, HitToolOutput, HitPath}, "internal/«lexer.go»"},
		{"escapes", []HitKind{HitMessage}, "`«escapes»`"},
		{"zebra", nil, ""},
		{"nothing-like-this", nil, ""},
		// Syntax that would break a raw FTS5 query.
		{`"unbalanced`, nil, ""},
		{"lexer AND", nil, ""},
		{"NEAR(", nil, ""},
		{"text:lexer", nil, ""},
		{"-lexer", []HitKind{HitMessage, HitToolInput, HitToolOutput, HitPath}, ""},
		{"*", nil, ""},
		{"^ ( ) {", nil, ""},
	}
	for _, tc := range tests {
		hits, err := s.Search(ctx, p.ID, tc.query, 20)
		if err != nil {
			t.Errorf("Search(%q): %v", tc.query, err)
			continue
		}
		kinds := map[HitKind]bool{}
		found := tc.snippet == ""
		for i, h := range hits {
			if h.SessionID != x.ID || h.SessionTitle != "Lexer work" || h.MessageID == 0 {
				t.Errorf("Search(%q) hit %+v: wrong session or message", tc.query, h)
			}
			if i > 0 && h.Score < hits[i-1].Score {
				t.Errorf("Search(%q): not ranked: %v after %v", tc.query, h.Score, hits[i-1].Score)
			}
			kinds[h.Kind] = true
			found = found || strings.Contains(h.Snippet, tc.snippet)
		}
		if len(kinds) != len(tc.wantKinds) {
			t.Errorf("Search(%q) kinds = %v, want %v (hits %+v)", tc.query, kinds, tc.wantKinds, hits)
		}
		for _, k := range tc.wantKinds {
			if !kinds[k] {
				t.Errorf("Search(%q): no %s hit in %+v", tc.query, k, hits)
			}
		}
		if !found {
			t.Errorf("Search(%q): no snippet contains %q: %+v", tc.query, tc.snippet, hits)
		}
	}

	// Once finished, the streamed message is found, and its path hit
	// points at the assistant message of the tool call.
	if _, err := st.Finish([]llm.ContentBlock{llm.TextBlock("zebra crossing ahead")}, llm.Usage{}); err != nil {
		t.Fatal(err)
	}
	if hits := must[[]SearchHit](t)(s.Search(ctx, p.ID, "zebra", 5)); len(hits) != 1 || hits[0].MessageID != st.MessageID() {
		t.Errorf("after Finish: %+v", hits)
	}
	if hits := must[[]SearchHit](t)(s.Search(ctx, p.ID, "lexer", 1)); len(hits) != 1 {
		t.Errorf("limit 1: %d hits", len(hits))
	}
	checkIntegrity(t, s)
}

// TestSearchToolHitsNameAssistantMessage: hits in a tool's input or output
// carry the assistant message that asked for the tool.
func TestSearchToolHitsNameAssistantMessage(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	assistant, _, _ := seedConversation(t, s, x)
	for _, tc := range []struct {
		query string
		kind  HitKind
	}{{"quokka", HitToolOutput}, {"old_text", HitToolInput}, {"tokenizer", HitMessage}} {
		hits := must[[]SearchHit](t)(s.Search(ctx, p.ID, tc.query, 10))
		if len(hits) != 1 || hits[0].Kind != tc.kind || hits[0].MessageID != assistant.ID {
			t.Errorf("search %q: %+v, want one %s hit on message %d", tc.query, hits, tc.kind, assistant.ID)
		}
	}
}

// TestSearchCommonWord: more matches than are ranked, and a last word
// found whole as well as the start of longer words.
func TestSearchCommonWord(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	for i := range rankCandidates + 10 {
		text := "common filler"
		if i == 3 {
			text = "common common common rare"
		}
		must[Message](t)(s.AppendMessage(ctx, x.ID, user(text), llm.Usage{}))
	}
	must[Message](t)(s.AppendMessage(ctx, x.ID, user("commonplace words"), llm.Usage{}))
	hits := must[[]SearchHit](t)(s.Search(ctx, p.ID, "common", 5))
	if len(hits) != 5 {
		t.Fatalf("%d hits", len(hits))
	}
	for _, h := range hits {
		if h.Snippet == "" || h.SessionID != x.ID {
			t.Errorf("hit %+v", h)
		}
	}
	// Whole-word matches fill the page; a prefix finds the longer word.
	if hits := must[[]SearchHit](t)(s.Search(ctx, p.ID, "commonp", 5)); len(hits) != 1 {
		t.Errorf("commonp: %+v", hits)
	}
	if hits := must[[]SearchHit](t)(s.Search(ctx, p.ID, "rare com", 5)); len(hits) != 1 {
		t.Errorf("rare com: %+v", hits)
	}
}
