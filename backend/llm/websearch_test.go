package llm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// answerOf streams one call and puts its blocks together the way the
// agent's assembler does: text (a new block at EventTextBlock), its
// citations, and the provider's own blocks; with the usage.
func answerOf(t *testing.T, p Provider, req Request) ([]ContentBlock, Usage) {
	t.Helper()
	ch := streamOf(t, p, req)
	var blocks []ContentBlock
	var usage Usage
	text := func() *ContentBlock {
		if n := len(blocks); n > 0 && blocks[n-1].Type == BlockText {
			return &blocks[n-1]
		}
		blocks = append(blocks, ContentBlock{Type: BlockText})
		return &blocks[len(blocks)-1]
	}
	for ev := range ch {
		switch ev.Type {
		case EventTextBlock:
			blocks = append(blocks, ContentBlock{Type: BlockText})
		case EventTextDelta:
			text().Text += ev.Text
		case EventCitation:
			b := text()
			b.Citations = append(b.Citations, json.RawMessage(ev.Text))
		case EventServerBlock:
			blocks = append(blocks, *ev.Block)
		case EventUsage:
			usage = ev.Usage
		case EventError:
			t.Fatal(ev.Err)
		}
	}
	return blocks, usage
}

// recordedEvents are the fixture's JSON events, as they came.
func recordedEvents(t *testing.T, fixture string) [][]byte {
	t.Helper()
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(readFixture(t, fixture)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: ")); ok {
			out = append(out, append([]byte(nil), data...))
		}
	}
	return out
}

// TestAnthropicWebSearchRecorded replays Anthropic's web search as the
// Vercel AI SDK recorded it (testdata/README.md): the search, its results
// and the cited text are kept as they came, the results read as sources,
// the searches counted from the usage; and all of it goes back in the
// next request unchanged, with the server tool offered in place of
// Pilot's own web_search.
func TestAnthropicWebSearchRecorded(t *testing.T) {
	t.Parallel()
	const fixture = "anthropic_web_search.sse"
	srv, last := captureServer(t, fixture)
	p := newProvider(t, ProviderAnthropic, srv.URL, RetryPolicy{})
	blocks, usage := answerOf(t, p, simpleRequest)

	// What the recording holds, as it came.
	var resultRaw []byte
	var citations [][]byte
	for _, ev := range recordedEvents(t, fixture) {
		var e struct {
			ContentBlock json.RawMessage `json:"content_block"`
			Delta        struct {
				Citation json.RawMessage `json:"citation"`
			} `json:"delta"`
		}
		if err := json.Unmarshal(ev, &e); err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(e.ContentBlock, []byte(`"type":"web_search_tool_result"`)) {
			resultRaw = e.ContentBlock
		}
		if len(e.Delta.Citation) > 0 {
			citations = append(citations, e.Delta.Citation)
		}
	}
	if resultRaw == nil || len(citations) == 0 {
		t.Fatal("the recording has no search result or no citation")
	}

	var uses, results []ContentBlock
	var cited int
	var gotCitations [][]byte
	for _, b := range blocks {
		switch b.Type {
		case BlockServerToolUse:
			uses = append(uses, b)
		case BlockWebSearchResult:
			results = append(results, b)
		case BlockText:
			if len(b.Citations) > 0 {
				cited++
			}
			for _, c := range b.Citations {
				gotCitations = append(gotCitations, c)
			}
		}
	}
	if len(uses) != 1 || len(results) != 1 {
		t.Fatalf("got %d searches and %d results, want 1 and 1: %+v", len(uses), len(results), blocks)
	}
	use := uses[0]
	if use.ID != "srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k" || use.Name != "web_search" || SearchQuery(use) != "tech news today September 26 2025" {
		t.Errorf("search = %s %s %q", use.ID, use.Name, SearchQuery(use))
	}
	if want := `{"type":"server_tool_use","id":"srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k","name":"web_search","input":{"query": "tech news today September 26 2025"}}`; string(use.Raw) != want {
		t.Errorf("kept search block:\n got %s\nwant %s", use.Raw, want)
	}
	if !bytes.Equal(results[0].Raw, resultRaw) || results[0].ToolUseID != use.ID {
		t.Errorf("the result block was not kept as it came (tool_use_id %q)", results[0].ToolUseID)
	}
	if len(gotCitations) != len(citations) {
		t.Fatalf("%d citations kept, the recording has %d", len(gotCitations), len(citations))
	}
	for i := range citations {
		if !bytes.Equal(gotCitations[i], citations[i]) {
			t.Errorf("citation %d not kept as it came:\n got %s\nwant %s", i, gotCitations[i], citations[i])
		}
	}
	if cited < 5 {
		t.Errorf("%d cited text blocks; each cited block of the recording keeps its own", cited)
	}
	for _, b := range blocks {
		if b.Type == BlockText && len(b.Citations) == 0 && strings.Contains(b.Text, "Apple Ginza opens to customers") {
			t.Errorf("cited words landed in an uncited block: %q", b.Text)
		}
	}

	found, code := SearchResults(results[0])
	if code != "" || len(found) < 3 {
		t.Fatalf("sources = %+v, error %q", found, code)
	}
	if found[0].Title != "The Latest AI News and AI Breakthroughs that Matter Most: 2025 | News" || found[0].URL != "https://www.crescendo.ai/news/latest-ai-news-and-updates" || found[0].Age != "" {
		t.Errorf("first source = %+v", found[0])
	}
	if found[1].Age != "3 hours ago" {
		t.Errorf("second source's age = %q", found[1].Age)
	}
	var first []Source
	for _, b := range blocks {
		if len(b.Citations) > 0 {
			first = Citations(b)
			break
		}
	}
	if len(first) == 0 || !strings.HasPrefix(first[0].URL, "https://www.apple.com/newsroom/2025/09/") || !strings.HasPrefix(first[0].Cited, "Apple today announced") {
		t.Errorf("the first cited block's sources = %+v", first)
	}
	if usage.WebSearches != 1 || usage.InputTokens != 15665 || usage.OutputTokens != 795 {
		t.Errorf("usage = %+v", usage)
	}

	// The next request: the answer goes back as it came.
	next := Request{
		Tools: []ToolDef{{Name: "read_file", Description: "Read a file"}, {Name: "web_search", Description: "Pilot's own"}},
		Messages: []Message{
			{Role: RoleUser, Content: []ContentBlock{TextBlock("What's new in tech today?")}},
			{Role: RoleAssistant, Content: blocks},
			{Role: RoleUser, Content: []ContentBlock{TextBlock("More on Apple Ginza?")}},
		},
		WebSearch: 19,
	}
	answerOf(t, p, next)
	body := last().raw
	var sent struct {
		Tools    []json.RawMessage `json:"tools"`
		Messages []struct {
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &sent); err != nil {
		t.Fatal(err)
	}
	var tools string
	for _, tool := range sent.Tools {
		tools += string(tool) + "\n"
	}
	if !strings.Contains(tools, `{"type":"web_search_20250305","name":"web_search","max_uses":19`) || strings.Contains(tools, "Pilot's own") {
		t.Errorf("tools sent:\n%s", tools)
	}
	back := sent.Messages[1].Content
	// Every field and value as it came; only the white space between
	// them is not kept (encoding/json compacts what it sends).
	compact := func(b []byte) []byte {
		var out bytes.Buffer
		if err := json.Compact(&out, b); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	if !bytes.Equal(back[0], compact(use.Raw)) || !bytes.Equal(back[1], compact(resultRaw)) {
		t.Errorf("the search went back changed:\n%s\n%s", back[0], back[1][:200])
	}
	for _, c := range citations {
		if !bytes.Contains(body, c) {
			t.Errorf("a citation did not go back as it came: %s", c)
		}
	}

	// Not offered: Pilot's own tool stays, no server tool.
	answerOf(t, p, Request{Tools: next.Tools, Messages: next.Messages})
	if body := string(last().raw); strings.Contains(body, "web_search_20250305") || !strings.Contains(body, "Pilot's own") {
		t.Errorf("without WebSearch the request offered: %s", body[:min(len(body), 400)])
	}
}

// TestSearchResultsError: an error in place of the results is read as its
// code, and said in words.
func TestSearchResultsError(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ raw, code, says string }{
		// The shape of Anthropic's documentation (web search tool, "Errors").
		{`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_a","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}}`, "max_uses_exceeded", "every search it was allowed"},
		{`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_a","content":{"type":"web_search_tool_result_error","error_code":"too_many_requests"}}`, "too_many_requests", "Wait a minute"},
		{`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_a","content":{"type":"web_search_tool_result_error","error_code":"something_new"}}`, "something_new", "failed (something_new)"},
	} {
		found, code := SearchResults(ContentBlock{Type: BlockWebSearchResult, Raw: json.RawMessage(tt.raw)})
		if len(found) != 0 || code != tt.code || !strings.Contains(SearchError(code), tt.says) {
			t.Errorf("%s: %v %q %q", tt.raw, found, code, SearchError(code))
		}
	}
}

// TestNativeSearchHost: only Anthropic's own API, with a model that has
// the tool, and OpenRouter search themselves.
func TestNativeSearchHost(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ kind, base, model, want string }{
		{ProviderAnthropic, "https://api.anthropic.com", "claude-sonnet-4-5", "api.anthropic.com"},
		{ProviderAnthropic, "https://api.anthropic.com", "claude-3-haiku-20240307", ""},
		{ProviderAnthropic, "https://proxy.example.com", "claude-sonnet-4-5", ""},
		{ProviderOpenAI, "https://openrouter.ai/api/v1", "anthropic/claude-sonnet-4.5", "openrouter.ai"},
		{ProviderOpenAI, "https://api.openai.com/v1", "gpt-5", ""},
	} {
		p, err := New(Config{Provider: tt.kind, BaseURL: tt.base, APIKey: testKey, Model: tt.model})
		if err != nil {
			t.Fatal(err)
		}
		if got := NativeSearchHost(p, tt.model); got != tt.want {
			t.Errorf("%s %s: %q, want %q", tt.base, tt.model, got, tt.want)
		}
	}
}

// TestAnthropicSearchWithoutResultNotSentBack: a search whose result never
// came (the stream broke after the server_tool_use) does not go back in the
// next request, which the API would refuse; a paired search in the same
// history does, and so does the answer's text.
func TestAnthropicSearchWithoutResultNotSentBack(t *testing.T) {
	t.Parallel()
	srv, last := captureServer(t, "anthropic_web_search.sse")
	p := newProvider(t, ProviderAnthropic, srv.URL, RetryPolicy{})
	blocks, _ := answerOf(t, p, simpleRequest)
	var cut []ContentBlock // the same answer, its result lost
	for _, b := range blocks {
		if b.Type != BlockWebSearchResult {
			cut = append(cut, b)
		}
	}
	orphan := ContentBlock{Type: BlockWebSearchResult, ToolUseID: "srvtoolu_gone", Raw: json.RawMessage(`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_gone","content":[]}`)}
	req := Request{Messages: []Message{
		{Role: RoleUser, Content: []ContentBlock{TextBlock("What's new in tech today?")}},
		{Role: RoleAssistant, Content: blocks},
		{Role: RoleUser, Content: []ContentBlock{TextBlock("And?")}},
		{Role: RoleAssistant, Content: append(cut, orphan)},
		{Role: RoleUser, Content: []ContentBlock{TextBlock("More?")}},
	}, WebSearch: 5}
	answerOf(t, p, req)
	var sent struct {
		Messages []struct {
			Content []struct {
				Type string `json:"type"`
				ID   string `json:"id"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(last().raw, &sent); err != nil {
		t.Fatal(err)
	}
	types := func(i int) map[string]int {
		n := map[string]int{}
		for _, b := range sent.Messages[i].Content {
			n[b.Type]++
		}
		return n
	}
	if got := types(1); got["server_tool_use"] != 1 || got["web_search_tool_result"] != 1 {
		t.Errorf("the paired search did not go back whole: %v", got)
	}
	if got := types(3); got["server_tool_use"] != 0 || got["web_search_tool_result"] != 0 || got["text"] == 0 {
		t.Errorf("the cut answer went back as %v; want its text only", got)
	}
}
