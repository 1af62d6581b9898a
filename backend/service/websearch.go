package service

import (
	"context"
	"path/filepath"
	"strings"

	"pilot/backend/config"
	"pilot/backend/secret"
	"pilot/backend/websearch"
	"pilot/backend/wire"
)

// Web is web search's settings (Settings › Web): the service the
// web_search tool asks, saved in settings.json (webSearch), its API key in
// keys.json beside the providers' (config.SearchKey).
type Web struct {
	*core
	kept keptWhile[searchSetup] // searcher's answer while settings.json and keys.json are unchanged
}

// searchSetup is the search service set up and the searches a session may make.
type searchSetup struct {
	s        *websearch.Searcher
	n        int
	provider bool // config.WebSearch.Provider
}

// testQuery is the search Settings › Web's Test button sends.
const testQuery = "Go programming language"

// searcher is the search service set up now and the searches a session
// may make: the agent reads it at each model request (the tools offered)
// and each call (agent.Options.WebSearch), so it is read again only when
// settings.json or keys.json changed.
func (w *Web) searcher() (*websearch.Searcher, int, error) {
	got, err := w.setup()
	return got.s, got.n, err
}

// setup is what settings.json and keys.json say of web search now.
func (w *Web) setup() (searchSetup, error) {
	return w.kept.get([]string{filepath.Join(w.home, config.SettingsFile), filepath.Join(w.home, config.KeysFile)}, func() (searchSetup, error) {
		s, err := config.LoadSettings(w.home)
		if err != nil {
			return searchSetup{}, err
		}
		keys, err := config.LoadKeys(w.home)
		if err != nil {
			return searchSetup{}, err
		}
		ws := s.WebSearch
		srch, err := websearch.New(websearch.Config{Backend: ws.Backend, URL: ws.URL, Key: keys[config.SearchKey(ws.Backend)]})
		return searchSetup{s: srch, n: ws.Searches(), provider: ws.Provider}, err
	})
}

// providerSearch reports whether the user let the model's provider
// search the web itself (agent.Options.ProviderSearch).
func (w *Web) providerSearch() bool {
	got, _ := w.setup()
	return got.provider
}

// Get returns Settings › Web as saved.
func (w *Web) Get() (wire.WebSearchView, error) {
	s, err := config.LoadSettings(w.home)
	if err != nil && !isCorrupt(err) {
		return wire.WebSearchView{}, err
	}
	keys, err := config.LoadKeys(w.home)
	if err != nil {
		w.log.Warn("reading saved keys", "err", err)
	}
	v := wire.WebSearchView{Backend: s.WebSearch.Backend, URL: s.WebSearch.URL, PerSession: s.WebSearch.Searches(), ProviderSearch: s.WebSearch.Provider}
	for _, id := range websearch.Backends {
		key := keys[config.SearchKey(id)]
		b := wire.WebSearchBackend{ID: id, Name: websearch.Name(id), NeedsKey: id != websearch.SearXNG, HasKey: key != "", KeyHint: secret.Mask(key), NeedsURL: id == websearch.SearXNG}
		switch id {
		case websearch.Brave:
			b.DefaultURL = websearch.BraveURL
		case websearch.Tavily:
			b.DefaultURL = websearch.TavilyURL
		}
		v.Backends = append(v.Backends, b)
	}
	return v, nil
}

// Save checks and stores the form, then returns what is saved. A backend
// that cannot search as set up (no key, no address) is refused with the
// sentence saying what to add.
func (w *Web) Save(in wire.WebSearchInput) (wire.WebSearchView, error) {
	in.Backend = strings.ToLower(strings.TrimSpace(in.Backend))
	in.URL = strings.TrimSpace(in.URL)
	if err := config.SearchesBound.Check("searches per session", in.PerSession, ""); err != nil {
		return wire.WebSearchView{}, err
	}
	if in.Backend != "" {
		if _, err := websearch.New(w.config(in)); err != nil {
			return wire.WebSearchView{}, err
		}
	}
	cur, err := config.LoadSettings(w.home)
	if err != nil && !isCorrupt(err) {
		return wire.WebSearchView{}, err
	}
	cur.WebSearch = config.WebSearch{Backend: in.Backend, URL: in.URL, PerSession: in.PerSession, Provider: in.ProviderSearch}
	if err := config.SaveSettings(w.home, cur); err != nil {
		return wire.WebSearchView{}, err
	}
	switch key := strings.TrimSpace(in.APIKey); {
	case in.Backend == "":
	case in.ClearKey:
		err = config.SaveKey(w.home, config.SearchKey(in.Backend), "")
	case key != "":
		err = config.SaveKey(w.home, config.SearchKey(in.Backend), key)
	}
	if err != nil {
		return wire.WebSearchView{}, err
	}
	return w.Get()
}

// Test sends one search through the form's backend (its key, else the
// saved one) and says what came back, or in a sentence what is wrong.
// The key never appears in the answer.
func (w *Web) Test(ctx context.Context, in wire.WebSearchInput) wire.WebSearchTest {
	out := wire.WebSearchTest{Query: testQuery, Results: []wire.WebSearchResult{}}
	cfg := w.config(in)
	s, err := websearch.New(cfg)
	if err == nil {
		var rs []websearch.Result
		if rs, err = s.Search(ctx, websearch.Query{Text: testQuery, Count: 3}); err == nil {
			for _, r := range rs {
				out.Results = append(out.Results, wire.WebSearchResult(r))
			}
			if len(rs) == 0 {
				out.Error = websearch.Name(cfg.Backend) + " answered, with no results: the service works, but check its engines (SearXNG) or plan."
			}
			return out
		}
	}
	msg := sentence(err)
	out.Error = secret.Redact(strings.ToUpper(msg[:1])+msg[1:], cfg.Key)
	w.log.Info("testing web search", "backend", cfg.Backend, "err", out.Error)
	return out
}

// config is the search configuration of the form: its key, else the one
// saved for the backend.
func (w *Web) config(in wire.WebSearchInput) websearch.Config {
	backend := strings.ToLower(strings.TrimSpace(in.Backend))
	key := strings.TrimSpace(in.APIKey)
	if key == "" && !in.ClearKey {
		if keys, err := config.LoadKeys(w.home); err == nil {
			key = keys[config.SearchKey(backend)]
		}
	}
	return websearch.Config{Backend: backend, URL: strings.TrimSpace(in.URL), Key: key}
}
