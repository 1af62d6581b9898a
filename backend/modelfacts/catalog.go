package modelfacts

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"pilot/backend/config"
	"pilot/backend/llm"
)

// CacheFile is the catalog's file under PILOT_HOME: what servers said of
// their models, and when.
const CacheFile = "model-facts.json"

// How long what a server said is kept before it is asked again (in the
// background; the facts kept serve meanwhile), and how long a first ask
// may hold up a turn.
const (
	HostedMaxAge = 24 * time.Hour
	// LocalMaxAge is short: a local server loads and unloads models, and
	// the context a model is loaded with changes with them.
	LocalMaxAge = 30 * time.Second
	// FailedMaxAge is how long a server that could not answer is left
	// alone.
	FailedMaxAge = time.Minute
	AskWait      = 3 * time.Second
	askLimit     = 20 * time.Second
	askAtOnce    = 4 // a listing's asks running at once (its workers)
)

// Catalog gives models' facts, asking each server once per model and
// keeping what it said (in memory and in CacheFile). Safe for concurrent
// use.
type Catalog struct {
	path   string
	log    *slog.Logger
	now    func() time.Time
	report func(context.Context, llm.Config, string) (llm.Reported, error)
	all    func(context.Context, llm.Config) (map[string]llm.Reported, error) // llm.ReportAll
	wait   time.Duration                                                      // AskWait

	mu      sync.Mutex
	entries map[string]entry
	asking  map[string]chan struct{}
	wg      sync.WaitGroup
}

// entry is what a server said of a model: Reported, or nothing (None:
// the server reports nothing of it; Failed: it could not be asked).
type entry struct {
	Reported llm.Reported `json:"reported"`
	None     bool         `json:"none,omitempty"`
	Failed   bool         `json:"failed,omitempty"`
	At       time.Time    `json:"at"`
}

// NewCatalog returns a catalog kept in home's CacheFile ("": in memory
// only); log may be nil.
func NewCatalog(home string, log *slog.Logger) *Catalog {
	c := &Catalog{log: log, now: time.Now, report: llm.Report, all: llm.ReportAll, wait: AskWait, entries: map[string]entry{}, asking: map[string]chan struct{}{}}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if home != "" {
		c.path = filepath.Join(home, CacheFile)
		c.load()
	}
	return c
}

// For is the facts of model on the server cfg names, with the user's
// overrides. A server not asked yet about the model is asked, for at most
// AskWait (the answer, if later, serves the next call); what is older
// than its age is asked again in the background.
func (c *Catalog) For(ctx context.Context, cfg llm.Config, overrides map[string]config.ModelOverride, model string) Facts {
	e, ok := c.reported(ctx, cfg, model, false)
	return facts(cfg, overrides, model, e, ok)
}

// ForAll is For of each model of ids, in their order, all within AskWait
// (what comes later serves the next listing): askAtOnce workers ask the
// server about one model at a time each, waiting for a refresh too, so
// that no more than askAtOnce asks run at once however many models the
// server lists. Once ctx ends, the models left get what the catalog
// already has (Known), and no more asks start.
func (c *Catalog) ForAll(ctx context.Context, cfg llm.Config, overrides map[string]config.ModelOverride, ids []string) []Facts {
	out := make([]Facts, len(ids))
	ctx, cancel := context.WithTimeout(ctx, c.wait)
	defer cancel()
	c.keepAll(ctx, cfg, ids)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(askAtOnce, len(ids)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if ctx.Err() != nil {
					out[i] = c.Known(cfg, overrides, ids[i])
					continue
				}
				e, ok := c.reported(ctx, cfg, ids[i], true)
				out[i] = facts(cfg, overrides, ids[i], e, ok)
			}
		}()
	}
	for i := range ids {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// keepAll asks a server whose one list says what it knows of every model
// (OpenRouter's) once for all of ids, instead of once per model.
func (c *Catalog) keepAll(ctx context.Context, cfg llm.Config, ids []string) {
	c.mu.Lock()
	stale := slices.ContainsFunc(ids, func(id string) bool {
		e, ok := c.entries[key(cfg, id)]
		return !ok || c.now().Sub(e.At) >= maxAge(cfg, e)
	})
	c.mu.Unlock()
	if !stale {
		return
	}
	cfg.Retry.MaxRetries = -1
	all, err := c.all(ctx, cfg)
	if err != nil {
		return // not such a server, or it failed: model by model
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	at := c.now()
	for _, id := range ids {
		if r, ok := all[id]; ok {
			c.entries[key(cfg, id)] = entry{Reported: r, At: at}
		} else {
			c.entries[key(cfg, id)] = entry{None: true, At: at}
		}
	}
	c.save()
}

// Known is For without asking any server: what the catalog already has.
func (c *Catalog) Known(cfg llm.Config, overrides map[string]config.ModelOverride, model string) Facts {
	c.mu.Lock()
	e, ok := c.entries[key(cfg, model)]
	c.mu.Unlock()
	return facts(cfg, overrides, model, e, ok)
}

// facts is the facts of model from what the server said (e, if ok) and
// the overrides.
func facts(cfg llm.Config, overrides map[string]config.ModelOverride, model string, e entry, ok bool) Facts {
	return withServer(cfg, Resolve(model, Override(overrides, model), e.Reported, ok && !e.None && !e.Failed))
}

// withServer is f with the name of the server cfg names.
func withServer(cfg llm.Config, f Facts) Facts {
	if p, ok := llm.LookupPreset(cfg.Provider); ok && p.ID != llm.ProviderOpenAI {
		f.Server = p.Name
	} else if u, err := url.Parse(baseURL(cfg)); err == nil && u.Host != "" {
		f.Server = u.Host
	}
	return f
}

// Wait waits for the asks running in the background (Close of the service).
func (c *Catalog) Wait() { c.wg.Wait() }

// reported is what the server said of model, asking it when the catalog
// has nothing or something older than its age: for nothing, it waits for
// the answer (at most AskWait, or until ctx ends); for a refresh, only
// when wait is set (the stale entry serves meanwhile).
func (c *Catalog) reported(ctx context.Context, cfg llm.Config, model string, wait bool) (entry, bool) {
	k := key(cfg, model)
	c.mu.Lock()
	e, ok := c.entries[k]
	fresh := ok && c.now().Sub(e.At) < maxAge(cfg, e)
	var done chan struct{}
	if !fresh {
		done = c.ask(k, cfg, model)
	}
	c.mu.Unlock()
	if fresh || ok && !wait {
		return e, ok // fresh, or stale while the ask above refreshes it
	}
	t := time.NewTimer(c.wait)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	case <-ctx.Done():
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok = c.entries[k]
	return e, ok
}

// ask starts asking the server about model unless an ask of k runs; the
// channel closes when it ends. Called with mu held.
func (c *Catalog) ask(k string, cfg llm.Config, model string) chan struct{} {
	if done, ok := c.asking[k]; ok {
		return done
	}
	done := make(chan struct{})
	c.asking[k] = done
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), askLimit)
		defer cancel()
		cfg.Retry.MaxRetries = -1 // a server that does not answer is asked again later, not now
		rep, err := c.report(ctx, cfg, model)
		e := entry{Reported: rep, At: c.now()}
		switch {
		case errors.Is(err, llm.ErrNotReported):
			e = entry{None: true, At: e.At}
		case err != nil:
			e = entry{Failed: true, At: e.At}
			c.log.Info("asking the server for the model's facts", "provider", cfg.Provider, "model", model, "err", config.Redact(err.Error(), cfg.APIKey))
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.asking, k)
		if old, had := c.entries[k]; e.Failed && had && !old.Failed {
			old.At = e.At // keep what the server said last, for a while more
			e = old
		}
		c.entries[k] = e
		c.save()
	}()
	return done
}

// maxAge is how long e, from the server cfg names, is kept.
func maxAge(cfg llm.Config, e entry) time.Duration {
	switch {
	case e.Failed:
		return FailedMaxAge
	case local(cfg):
		return LocalMaxAge
	}
	return HostedMaxAge
}

// local reports whether the server runs on the user's machine or network
// (a local preset, or a loopback or private address).
func local(cfg llm.Config) bool {
	if p, ok := llm.LookupPreset(cfg.Provider); ok && p.Local {
		return true
	}
	u, err := url.Parse(baseURL(cfg))
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate())
}

func baseURL(cfg llm.Config) string {
	if cfg.BaseURL != "" {
		return strings.TrimRight(cfg.BaseURL, "/")
	}
	return strings.TrimRight(llm.DefaultBaseURL(cfg.Provider), "/")
}

// key names a model on a server: the provider and base URL (not the key:
// one server says the same of a model to every key) and the model's id.
func key(cfg llm.Config, model string) string {
	return strings.ToLower(cfg.Provider) + " " + baseURL(cfg) + " " + model
}

// load reads the cache file; one that cannot be read is started afresh.
func (c *Catalog) load() {
	b, err := os.ReadFile(c.path)
	if err != nil {
		return
	}
	var entries map[string]entry
	if json.Unmarshal(b, &entries) != nil {
		c.log.Warn("the model facts cache cannot be read; starting afresh", "path", c.path)
		return
	}
	for k, e := range entries {
		if e.Reported.Window >= 0 && e.Reported.Window <= config.MaxWindow {
			c.entries[k] = e
		}
	}
}

// save writes the cache file (in a temporary file renamed over it).
// Called with mu held.
func (c *Catalog) save() {
	if c.path == "" {
		return
	}
	b, err := json.Marshal(c.entries)
	if err == nil {
		tmp := c.path + ".tmp"
		if err = os.WriteFile(tmp, b, 0o600); err == nil {
			err = os.Rename(tmp, c.path)
		}
	}
	if err != nil {
		c.log.Warn("saving the model facts cache", "path", c.path, "err", err)
	}
}
