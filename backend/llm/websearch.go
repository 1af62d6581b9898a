package llm

import (
	"bytes"
	"encoding/json"
	"strings"

	"pilot/backend/toolname"
)

// webSearchName is the name both Pilot's own tool and a provider's search
// go by: where the provider's is offered, Pilot's gives way.
const webSearchName = toolname.WebSearch

// A provider's own web search (docs/CLI.md, "web_search"): Anthropic's
// server tool, and OpenRouter's. The provider searches on its side, so its
// blocks are kept in the session as they came and sent back to it
// unchanged (ContentBlock.Raw); Pilot only reads them to show the sources.
const (
	// BlockServerToolUse is a search the provider ran: ID, Name, Input
	// (the query), Raw.
	BlockServerToolUse BlockType = "server_tool_use"
	// BlockWebSearchResult is what it found: ToolUseID, Raw (the results,
	// or an error object).
	BlockWebSearchResult BlockType = "web_search_tool_result"
)

// NativeSearcher is a client whose provider can search the web itself.
type NativeSearcher interface {
	// NativeSearch is the host the provider's search is judged by (the
	// API's own host) for model; "" when it has none.
	NativeSearch(model string) string
}

// NativeSearchHost is the host p's own web search is judged by for model,
// or "" when p has none.
func NativeSearchHost(p Provider, model string) string {
	if n, ok := p.(NativeSearcher); ok {
		return n.NativeSearch(model)
	}
	return ""
}

// Source is a page a provider's search found, or an answer's text cites.
type Source struct {
	Title string `json:"title"`
	URL   string `json:"url"`
	Age   string `json:"age,omitempty"`   // how old the page is, as the provider said it ("3 hours ago")
	Cited string `json:"cited,omitempty"` // the words a citation quotes
}

// SearchQuery is the query of a server_tool_use block.
func SearchQuery(b ContentBlock) string {
	var in struct {
		Query string `json:"query"`
	}
	_ = json.Unmarshal(b.Input, &in)
	return in.Query
}

// SearchResults reads a web_search_tool_result block: the pages found, or
// the error code the provider gave instead.
func SearchResults(b ContentBlock) (found []Source, errCode string) {
	var block struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(b.Raw, &block) != nil {
		return nil, "unreadable"
	}
	var results []struct {
		Type    string `json:"type"`
		Title   string `json:"title"`
		URL     string `json:"url"`
		PageAge string `json:"page_age"`
	}
	if json.Unmarshal(block.Content, &results) != nil {
		var e struct {
			Code string `json:"error_code"`
		}
		_ = json.Unmarshal(block.Content, &e)
		return nil, firstNonEmpty(e.Code, "unavailable")
	}
	for _, r := range results {
		if r.Type == "web_search_result" && r.URL != "" {
			found = append(found, Source{Title: r.Title, URL: r.URL, Age: r.PageAge})
		}
	}
	return found, ""
}

// Citations reads the sources a text block cites: Anthropic's
// web_search_result_location and OpenRouter's url_citation.
func Citations(b ContentBlock) []Source {
	var out []Source
	for _, raw := range b.Citations {
		var c struct {
			Type        string `json:"type"`
			URL         string `json:"url"`
			Title       string `json:"title"`
			CitedText   string `json:"cited_text"`
			URLCitation *struct {
				URL     string `json:"url"`
				Title   string `json:"title"`
				Content string `json:"content"`
			} `json:"url_citation"`
		}
		if json.Unmarshal(raw, &c) != nil {
			continue
		}
		s := Source{Title: c.Title, URL: c.URL, Cited: c.CitedText}
		if u := c.URLCitation; u != nil {
			s = Source{Title: u.Title, URL: u.URL}
		}
		if s.URL != "" {
			out = append(out, s)
		}
	}
	return out
}

// SearchError says a provider's search error code in words, with what to
// do next.
func SearchError(code string) string {
	switch code {
	case "max_uses_exceeded":
		return "The provider's search stopped: this answer used every search it was allowed (the session's cap, Settings › Web)."
	case "too_many_requests":
		return "The provider refused the search: too many searches in a short time. Wait a minute and ask again."
	case "invalid_input", "invalid_tool_input":
		return "The provider refused the search's query as invalid."
	case "query_too_long":
		return "The provider refused the search: the query is too long."
	case "unavailable":
		return "The provider's search is unavailable now. Try again later, or set up a search service in Settings › Web."
	}
	return "The provider's search failed (" + code + "). Try again later, or set up a search service in Settings › Web."
}

// searchModel reports whether an Anthropic model has the web search
// tool: every model since Claude 3.5 Sonnet (October 2024), not the
// first Claude 3 models nor older ones.
func searchModel(model string) bool {
	for _, old := range []string{"claude-3-opus", "claude-3-sonnet", "claude-3-haiku", "claude-3-5-sonnet-20240620", "claude-2", "claude-instant"} {
		if strings.HasPrefix(model, old) {
			return false
		}
	}
	return strings.HasPrefix(model, "claude-")
}

// withoutTool is defs without the tool called name.
func withoutTool(defs []ToolDef, name string) []ToolDef {
	out := make([]ToolDef, 0, len(defs))
	for _, d := range defs {
		if d.Name != name {
			out = append(out, d)
		}
	}
	return out
}

// replaceInput is a server_tool_use block as the provider sent it at its
// start, with the input its deltas streamed in place of the empty one:
// every other field as it came, in its order.
func replaceInput(start json.RawMessage, input json.RawMessage) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(start))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return start
	}
	out := []byte{'{'}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		var value json.RawMessage
		if err != nil || !ok || dec.Decode(&value) != nil {
			return start
		}
		if key == "input" {
			value = input
		}
		name, _ := json.Marshal(key)
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, name...), ':'), value...)
	}
	return append(out, '}')
}
