package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"pilot/backend/gate"
	"pilot/backend/llm"
	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// A provider's own web search (Anthropic's server tool, OpenRouter's):
// the provider searches on its side while it answers, so Pilot cannot ask
// before each query. It is offered only where the user let web_search
// reach the provider's host without asking (an allow rule for web_search
// on that host, or a mode that asks nothing), or where the gate would ask
// and the user turned on "Let the provider search" in Settings › Web:
// that rule or switch is the consent. Otherwise it is not offered, and Pilot's own web_search
// (which asks) is, when a search service is set up. Each search counts
// toward the session's cap like Pilot's own, is stored as a web_search
// call with its sources (the card, and session search), and the
// provider's blocks stay in the answer as they came.

// nativeSearch is how many searches the provider's own search may make in
// the next model call: the session's searches left, when the provider has
// a search and the gate lets web_search reach its host without asking; 0
// otherwise (not offered).
func (t *turn) nativeSearch(ctx context.Context) int {
	host := llm.NativeSearchHost(t.p, t.model)
	if host == "" {
		return 0
	}
	switch d := t.judge(ctx, gate.Call{Tool: tools.WebSearchTool, ReadOnly: true, Host: host}); {
	case d.Verdict == gate.Run:
	case d.Verdict == gate.Ask && t.l.m.opt.ProviderSearch != nil && t.l.m.opt.ProviderSearch():
		// The user let the provider search, in Settings › Web: that is
		// the consent a question would ask for.
	default:
		return 0
	}
	made := t.l.search.count(func() int { return t.l.m.storedSearches(ctx, t.l.id) })
	return max(0, t.l.m.searchLimit()-made)
}

// searchLimit is the session's cap on searches in force.
func (m *Manager) searchLimit() int {
	if m.opt.WebSearch == nil {
		return 0
	}
	_, limit, _ := m.opt.WebSearch() // the cap holds with no service set up
	return limit
}

// nativeRun is one search the provider made, as its card shows it.
type nativeRun struct {
	id, query string
	input     json.RawMessage
	found     []llm.Source
	failed    string // the error in words
	searches  int    // how many searches it stands for
}

// nativeRuns reads the provider's searches in an answer: Anthropic's
// server_tool_use blocks with their results; else, where the provider
// searched without such blocks (OpenRouter), one run for the answer with
// the sources its text cites.
func nativeRuns(msg store.Message, usage llm.Usage) []nativeRun {
	var runs []nativeRun
	results := map[string]llm.ContentBlock{}
	var cited []llm.Source
	for _, b := range msg.Content {
		switch b.Type {
		case llm.BlockWebSearchResult:
			results[b.ToolUseID] = b
		case llm.BlockText:
			cited = append(cited, llm.Citations(b)...)
		}
	}
	for _, b := range msg.Content {
		if b.Type != llm.BlockServerToolUse {
			continue
		}
		r := nativeRun{id: b.ID, query: llm.SearchQuery(b), input: b.Input, searches: 1}
		res, ok := results[b.ID]
		if !ok {
			r.failed = "The provider sent no results for this search."
		} else if found, code := llm.SearchResults(res); code != "" {
			r.failed = llm.SearchError(code)
		} else {
			r.found = found
		}
		runs = append(runs, r)
	}
	if len(runs) > 0 || (usage.WebSearches == 0 && len(cited) == 0) {
		return runs
	}
	n := max(1, usage.WebSearches)
	input, _ := json.Marshal(map[string]int{"searches": n})
	return []nativeRun{{id: fmt.Sprintf("native_search_%d", msg.ID), input: input, found: unique(cited), searches: n}}
}

// unique is sources with each URL once, in order.
func unique(sources []llm.Source) []llm.Source {
	seen := map[string]bool{}
	var out []llm.Source
	for _, s := range sources {
		if !seen[s.URL] {
			seen[s.URL] = true
			out = append(out, s)
		}
	}
	return out
}

// recordSearches stores the searches the provider at host made in an
// answer of session l as web_search calls (with their sources, which
// session search finds later), counts them toward the session's cap and
// shows their cards.
func recordSearches(ctx context.Context, l *live, host string, msg store.Message, usage llm.Usage) {
	runs := nativeRuns(msg, usage)
	if len(runs) == 0 {
		return
	}
	limit := l.m.searchLimit()
	made := l.search.count(func() int { return l.m.storedSearches(ctx, l.id) })
	for _, r := range runs {
		status := wire.ToolError // a failed search is not counted (nor stored as done)
		if r.failed == "" {
			status = wire.ToolDone
			made += r.searches
			l.search.add(r.searches)
		}
		output := searchText(host, r, made, limit)
		rec, err := l.m.st.ToolCalls.Insert(ctx, store.ToolCall{SessionID: l.id, MessageID: msg.ID,
			Call: store.Call{ToolUseID: r.id, Name: tools.WebSearchTool, Input: r.input, Output: output, Status: status, Approval: store.ApprovalAuto, FinishedAt: l.m.opt.Now()}})
		if err != nil {
			l.m.log.Warn("saving the provider's web search", "session", l.id, "err", err)
			continue
		}
		for _, s := range r.found {
			page := store.WebPage{SessionID: l.id, ToolCallID: rec.ID, MessageID: msg.ID, URL: s.URL, Title: s.Title, Markdown: s.Cited}
			if _, err := l.m.st.WebPages.Add(ctx, page); err != nil {
				l.m.log.Warn("saving a search result", "session", l.id, "err", err)
			}
		}
		label := "→ " + host + " searched the web"
		if r.query != "" {
			label += ": " + r.query
		}
		if r.failed == "" && limit > 0 {
			label += fmt.Sprintf(" (search %d of %d)", made, limit)
		}
		l.emitTool(present.ToolCall(rec, label))
	}
}

// searchText is a provider's search as its card and the session's
// history show it: who searched, the count, and the sources.
func searchText(host string, r nativeRun, made, limit int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Searched by %s, the provider's own web search (let by a web_search rule for %s, the all mode, or Settings › Web)", host, host)
	if r.query != "" {
		fmt.Fprintf(&b, " for %q", r.query)
	}
	if limit > 0 && r.failed == "" {
		fmt.Fprintf(&b, "; search %d of %d in this session", made, limit)
	}
	b.WriteString(".\n")
	if r.failed != "" {
		b.WriteString(r.failed + "\n")
		return b.String()
	}
	for i, s := range r.found {
		title := s.Title
		if title == "" {
			title = s.URL
		}
		fmt.Fprintf(&b, "%d. %s\n   %s\n", i+1, title, s.URL)
		if s.Age != "" {
			fmt.Fprintf(&b, "   %s\n", s.Age)
		}
	}
	return b.String()
}
