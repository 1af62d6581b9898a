// Package websearch asks the search service the user chose (Brave Search,
// Tavily, or a self-hosted SearXNG) for the web_search tool: one query in,
// results with title, URL, snippet and date out. The service's answer is
// outside input: it is parsed into Result and never followed.
//
// Nothing is resolved or dialled before Search is called: the agent calls
// it only after the gate let the search go to the service's host (Host).
// Environment proxies are not used, as for web_fetch.
package websearch

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"pilot/backend/secret"
)

// The backends, as settings.json names them (webSearch.backend).
const (
	Brave   = "brave"
	Tavily  = "tavily"
	SearXNG = "searxng"
)

// Backends are the backends in the order Settings lists them.
var Backends = []string{Brave, Tavily, SearXNG}

// Default endpoints of the hosted services.
const (
	BraveURL  = "https://api.search.brave.com/res/v1/web/search"
	TavilyURL = "https://api.tavily.com/search"
)

// Result counts.
const (
	DefaultCount = 5
	MaxCount     = 20
)

const (
	timeout  = 30 * time.Second
	maxBytes = 4 << 20
)

// Config says which backend to ask and how: URL is the endpoint (only
// SearXNG's must be given: the instance's address), Key the API key
// (Brave's and Tavily's; SearXNG takes none).
type Config struct {
	Backend string
	URL     string
	Key     string
}

// Query is one search.
type Query struct {
	Text string
	// Count is how many results to ask for: 0 gives DefaultCount, more
	// than MaxCount MaxCount.
	Count int
	// Domains, when given, keep the results to these sites.
	Domains []string
}

// Result is one hit.
type Result struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet,omitempty"`
	Date    string `json:"date,omitempty"` // as the service gave it ("2 days ago", "2024-05-01"); "" unknown
}

// Searcher is a configured backend.
type Searcher struct {
	cfg    Config
	u      *url.URL
	client *http.Client
}

// New checks cfg and returns its searcher; the error says what to set.
func New(cfg Config) (*Searcher, error) {
	cfg.Backend = strings.ToLower(strings.TrimSpace(cfg.Backend))
	cfg.URL = strings.TrimSpace(cfg.URL)
	switch cfg.Backend {
	case Brave:
		cfg.URL = cmp.Or(cfg.URL, BraveURL)
	case Tavily:
		cfg.URL = cmp.Or(cfg.URL, TavilyURL)
	case SearXNG:
		if cfg.URL == "" {
			return nil, errors.New("SearXNG needs its instance's address: set it in Settings › Web (for example http://localhost:8080)")
		}
	case "":
		return nil, errors.New("no search backend is set up: choose Brave Search, Tavily or SearXNG in Settings › Web")
	default:
		return nil, fmt.Errorf("%q is not a search backend: choose one of %s in Settings › Web", cfg.Backend, strings.Join(Backends, ", "))
	}
	if cfg.Backend != SearXNG && cfg.Key == "" {
		return nil, fmt.Errorf("%s needs an API key: add it in Settings › Web", Name(cfg.Backend))
	}
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return nil, fmt.Errorf("%q is not an http or https address: correct the %s address in Settings › Web", cfg.URL, Name(cfg.Backend))
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	return &Searcher{cfg: cfg, u: u, client: &http.Client{Transport: tr, Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}, nil
}

// Name is the backend as people know it.
func Name(backend string) string {
	switch backend {
	case Brave:
		return "Brave Search"
	case Tavily:
		return "Tavily"
	case SearXNG:
		return "SearXNG"
	}
	return backend
}

// Backend is the backend's settings name.
func (s *Searcher) Backend() string { return s.cfg.Backend }

// Host is the host the search goes to (lower case, no port): what the
// gate judges and the user is asked about.
func (s *Searcher) Host() string { return strings.ToLower(s.u.Hostname()) }

// Search sends q and reads the answer. The key never appears in an error.
func (s *Searcher) Search(ctx context.Context, q Query) ([]Result, error) {
	q.Text = strings.TrimSpace(q.Text)
	if q.Text == "" {
		return nil, errors.New("the query is empty")
	}
	q.Count = min(max(q.Count, 0), MaxCount)
	if q.Count == 0 {
		q.Count = DefaultCount
	}
	var req *http.Request
	var err error
	var parse func([]byte) ([]Result, error)
	switch s.cfg.Backend {
	case Brave:
		req, err = braveRequest(ctx, s.u, s.cfg.Key, q)
		parse = braveResults
	case Tavily:
		req, err = tavilyRequest(ctx, s.u, s.cfg.Key, q)
		parse = listResults
	default:
		req, err = searxngRequest(ctx, s.u, q)
		parse = listResults
	}
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "Pilot/1 (web_search)")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, errors.New(secret.Redact(err.Error(), s.cfg.Key))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes))
	if err != nil {
		return nil, fmt.Errorf("reading %s's answer: %s", Name(s.cfg.Backend), secret.Redact(err.Error(), s.cfg.Key))
	}
	if resp.StatusCode != http.StatusOK {
		return nil, s.statusError(resp.StatusCode)
	}
	rs, err := parse(body)
	if err != nil {
		return nil, fmt.Errorf("%s answered something that is not a search result (%v)", Name(s.cfg.Backend), err)
	}
	if len(rs) > q.Count {
		rs = rs[:q.Count]
	}
	return rs, nil
}

// statusError says what an answer other than 200 means.
func (s *Searcher) statusError(code int) error {
	name := Name(s.cfg.Backend)
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		if s.cfg.Backend == SearXNG {
			return fmt.Errorf("%s refused the search (%d): check that the instance allows the JSON format (search.formats in its settings.yml)", name, code)
		}
		return fmt.Errorf("%s refused the API key (%d): check the key in Settings › Web", name, code)
	case code == http.StatusTooManyRequests:
		return fmt.Errorf("%s says too many searches (429): wait, or check the plan's limits", name)
	}
	return fmt.Errorf("%s answered %d %s: try again later, or check its address in Settings › Web", name, code, http.StatusText(code))
}

// errNotSearch: the answer is JSON but not a search's.
var errNotSearch = errors.New("no results list")

// decode reads JSON into v, saying so when it is not JSON.
func decode(body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return errors.New("not JSON")
	}
	return nil
}

// Text is what the model reads of a search: each result's title, URL,
// date and snippet, numbered.
func Text(backend, query string, rs []Result) string {
	var b strings.Builder
	if len(rs) == 0 {
		fmt.Fprintf(&b, "%s found nothing for %q. Try other words, or fewer of them.", Name(backend), query)
		return b.String()
	}
	fmt.Fprintf(&b, "%s results for %q (%d). Read a page with web_fetch.\n", Name(backend), query, len(rs))
	for i, r := range rs {
		fmt.Fprintf(&b, "\n%d. %s\n   %s\n", i+1, cmp.Or(r.Title, "(no title)"), r.URL)
		if r.Date != "" {
			fmt.Fprintf(&b, "   Date: %s\n", r.Date)
		}
		if r.Snippet != "" {
			fmt.Fprintf(&b, "   %s\n", r.Snippet)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
