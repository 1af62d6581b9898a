package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"pilot/backend/gate"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/websearch"
	"pilot/backend/wire"
)

// searchKind: a web_search call. The search service set up now is read
// (no lookup), the gate judges its host like web_fetch's (rules, mode,
// the session's earlier yes to that service, or the user), the session's
// cap is checked, and only then is the query sent. The results are the
// result, stored with the call so session search finds them.
var searchKind = kind{question: searchQuestion, effect: search, serial: true}

// searchState is what a session remembers of its searches while Pilot
// runs: the services the user allowed (a yes holds while Pilot runs:
// after a restart the first search asks again, unless a rule allows the
// host), and the searches sent, under its own lock.
type searchState struct {
	allowed hostGrants
	mu      sync.Mutex
	made    int
	counted bool // made includes the session's stored searches
}

// searchSetUp reports whether a search service is set up (web_search is
// offered only then).
func (m *Manager) searchSetUp() bool {
	if m.opt.WebSearch == nil {
		return false
	}
	_, _, err := m.opt.WebSearch()
	return err == nil
}

func searchQuestion(c *call) (question, bool) {
	t := c.t
	p, ok := inputOf[tools.WebSearchParams](c)
	if !ok {
		return question{}, false
	}
	var s *websearch.Searcher
	limit, err := 0, errors.New("no search backend is set up: the user can choose one in Settings › Web")
	if t.l.m.opt.WebSearch != nil {
		s, limit, err = t.l.m.opt.WebSearch()
	}
	if err != nil {
		c.fail("Not searched: "+err.Error()+".", false)
		return question{}, false
	}
	made := t.l.search.count(func() int { return t.l.m.storedSearches(c.ctx, t.l.id) })
	if made >= limit {
		c.fail(fmt.Sprintf("Not searched: this session made its %d searches, the most it may (Settings › Web sets the number). Work with what you found, or ask the user.", limit), false)
		return question{}, false
	}
	c.searcher, c.host = s, s.Host()
	host := c.host
	name := websearch.Name(s.Backend())
	return question{call: gate.Call{Tool: tools.WebSearchTool, ReadOnly: true, Host: host, HostApproved: t.l.search.allowed.has(host)},
		card:     wire.Approval{Command: fmt.Sprintf("Search %s (%s) for %q (search %d of %d)", name, host, p.Query, made+1, limit), Host: host},
		rejected: fmt.Sprintf("The user did not allow searching with %s (%s); nothing was sent. Do not search again unless the user asks.", name, host)}, true
}

// search sends the allowed query and tells the model the results.
func search(c *call) (tools.Result, error) {
	t, r, ctx := c.t, c.r, c.ctx
	l := t.l
	if c.grant.asked {
		l.search.allowed.add(c.host)
		c.running(ctx)
	}
	p, _ := tools.Params[tools.WebSearchParams](r.tool, r.use.Input) // read by the question
	_, limit, _ := l.m.opt.WebSearch()
	nth, ok := l.search.reserve(limit)
	if !ok { // calls of one turn asked together
		c.fail(fmt.Sprintf("Not searched: this session made its %d searches, the most it may (Settings › Web sets the number).", limit), true)
		return tools.Result{}, nil
	}
	rs, err := c.searcher.Search(ctx, websearch.Query{Text: p.Query, Count: p.MaxResults, Domains: p.AllowedDomains})
	switch {
	case err != nil && ctx.Err() != nil:
		return tools.Result{}, err
	case err != nil:
		c.fail(fmt.Sprintf("The search failed: %v.", err), true)
		return tools.Result{}, nil
	}
	text := fmt.Sprintf("Search %d of %d in this session.\n%s", nth, limit, websearch.Text(c.searcher.Backend(), p.Query, rs))
	return tools.Result{Output: text}, nil
}

// count is how many searches the session made: those of its stored
// history (stored, read once) that came back with results, and those
// sent since Pilot started.
func (st *searchState) count(stored func() int) int {
	st.mu.Lock()
	counted := st.counted
	st.mu.Unlock()
	if !counted {
		n := stored()
		st.mu.Lock()
		if !st.counted {
			st.made += n
			st.counted = true
		}
		st.mu.Unlock()
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.made
}

// storedSearches counts the session's finished, allowed searches in its
// stored history.
func (m *Manager) storedSearches(ctx context.Context, sessionID int64) int {
	n := 0
	calls, err := m.st.ToolCalls.List(context.WithoutCancel(ctx), sessionID)
	if err != nil {
		m.log.Warn("counting the session's searches", "session", sessionID, "err", err)
	}
	for _, c := range calls {
		if c.Name == tools.WebSearchTool && c.Status == wire.ToolDone && c.Approval != store.ApprovalRejected {
			n += searchesIn(c.Input)
		}
	}
	return n
}

// searchesIn is how many searches a stored web_search call stands for: a
// provider's search without a query of its own says how many it made
// ({"searches": N}); any other is one.
func searchesIn(input []byte) int {
	var in struct {
		Searches int `json:"searches"`
	}
	if json.Unmarshal(input, &in) == nil && in.Searches > 1 {
		return in.Searches
	}
	return 1
}

// add counts searches the provider made.
func (st *searchState) add(n int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.made += n
}

// reserve counts one more search if the session may make it, and says
// which it is.
func (st *searchState) reserve(limit int) (int, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.made >= limit {
		return 0, false
	}
	st.made++
	return st.made, true
}
