package store

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pilot/backend/llm"
)

func TestFTSMatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in             string
		prefix, inText bool
		want           string
	}{
		{"", true, false, ""},
		{"   ", true, false, ""},
		{"- * : ( ) \"", true, false, ""},
		{"lexer", true, false, `"lexer"*`},
		{"lexer", false, false, `"lexer"`},
		{"fix lexer", true, false, `"fix" "lexer"*`},
		{`say "hi"`, true, false, `"say" """hi"""*`},
		{"main.go", true, false, `"main.go"*`},
		{"-v NOT x:y", true, false, `"-v" "NOT" "x:y"*`},
		{"AND OR NEAR(a b)", true, false, `"AND" "OR" "NEAR(a" "b)"*`},
		// Only a word that could be the project column's token p<id> is
		// kept to the message columns.
		{"lexer p12", true, true, `"lexer" {text tool_input tool_output} : "p12"*`},
		{"P12 lexer", true, true, `{text tool_input tool_output} : "P12" "lexer"*`},
		{"(p12)", false, true, `{text tool_input tool_output} : "(p12)"`},
		{"p", true, true, `{text tool_input tool_output} : "p"*`},
		{"p", false, true, `"p"`},
		{"p1x p-1 p.go", true, true, `"p1x" "p-1" "p.go"*`},
		{"pä1", false, true, `{text tool_input tool_output} : "pä1"`},
		{"parser", true, true, `"parser"*`},
	}
	for _, tc := range tests {
		if got := ftsMatch(searchWords(tc.in), tc.prefix, tc.inText); got != tc.want {
			t.Errorf("ftsMatch(%q, %v, %v) = %s, want %s", tc.in, tc.prefix, tc.inText, got, tc.want)
		}
	}
}

func TestSearch(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	if err := s.Sessions.Rename(ctx, x.ID, "Lexer work"); err != nil {
		t.Fatal(err)
	}
	seedConversation(t, s, x)
	// The same words in another project must not show up.
	_, other := newSession(t, s, "/elsewhere")
	seedConversation(t, s, other)
	// A message still streaming is not searchable yet.
	st := must[*Stream](t)(s.Messages.BeginStream(ctx, x.ID))
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
		must[Message](t)(s.Messages.Append(ctx, x.ID, user(text), llm.Usage{}))
	}
	must[Message](t)(s.Messages.Append(ctx, x.ID, user("commonplace words"), llm.Usage{}))
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

// TestSearchProjectWord: a word that is also the token of a project in the
// index (p<id>) finds only the text that holds it, whole or as a prefix.
func TestSearchProjectWord(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	q, _ := newSession(t, s, "/other")
	mine := fmt.Sprintf("p%d", p.ID)
	must[Message](t)(s.Messages.Append(ctx, x.ID, user("nothing to see"), llm.Usage{}))
	must[Message](t)(s.Messages.Append(ctx, x.ID, user("the "+mine+" notes"), llm.Usage{}))
	tests := []struct {
		query string
		hits  int
	}{
		{mine, 1},
		{strings.ToUpper(mine), 1},
		{"p", 1},
		{"notes " + mine, 1},
		{fmt.Sprintf("p%d", q.ID), 0},
		{"nothing p", 0},
	}
	for _, tc := range tests {
		if hits := must[[]SearchHit](t)(s.Search(ctx, p.ID, tc.query, 10)); len(hits) != tc.hits {
			t.Errorf("Search(%q): %d hits, want %d: %+v", tc.query, len(hits), tc.hits, hits)
		}
	}
}
