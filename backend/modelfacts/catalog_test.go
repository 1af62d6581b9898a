package modelfacts

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// reporter is a server's answers, counted; each ask waits for release
// when gate is set.
type reporter struct {
	asks atomic.Int32
	gate chan struct{}
	mu   sync.Mutex
	rep  llm.Reported
	err  error
}

func (r *reporter) report(ctx context.Context, _ llm.Config, _ string) (llm.Reported, error) {
	r.asks.Add(1)
	if r.gate != nil {
		select {
		case <-r.gate:
		case <-ctx.Done():
			return llm.Reported{}, ctx.Err()
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rep, r.err
}

func (r *reporter) set(rep llm.Reported, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rep, r.err = rep, err
}

func newTestCatalog(t *testing.T, home string, r *reporter, now func() time.Time) *Catalog {
	c := NewCatalog(home, nil)
	c.report, c.now = r.report, now
	t.Cleanup(c.Wait)
	return c
}

var ollama = llm.Config{Provider: "ollama", BaseURL: "http://localhost:11434/v1"}

// TestCatalogAsksOnceAndKeeps: concurrent turns ask the server once; what
// it said is kept in the cache file for the next process.
func TestCatalogAsksOnceAndKeeps(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	r := &reporter{rep: llm.Reported{Window: 262_144, Loaded: 4096}, gate: make(chan struct{})}
	now := time.Now()
	c := newTestCatalog(t, home, r, func() time.Time { return now })
	c.wait = time.Hour // the answer comes when the test releases it
	var wg sync.WaitGroup
	got := make([]Facts, 8)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = c.For(context.Background(), ollama, nil, "qwen3-coder:30b") }()
	}
	for r.asks.Load() == 0 {
		time.Sleep(time.Millisecond) // a condition: the first ask has started
	}
	close(r.gate)
	wg.Wait()
	for _, f := range got {
		if f.Window != (Fact[int]{262_144, wire.FactServer}) || f.Loaded != 4096 {
			t.Fatalf("facts %+v", f)
		}
	}
	if n := r.asks.Load(); n != 1 {
		t.Errorf("the server was asked %d times, want once", n)
	}
	c.Wait()
	r2 := &reporter{err: errors.New("must not be asked")}
	again := newTestCatalog(t, home, r2, func() time.Time { return now })
	if f := again.For(context.Background(), ollama, nil, "qwen3-coder:30b"); f.Window.From != wire.FactServer || r2.asks.Load() != 0 {
		t.Errorf("the next process: %+v, %d asks", f.Window, r2.asks.Load())
	}
}

// TestCatalogRefreshesInTheBackground: what is older than its age serves
// while the server is asked again; a server that fails keeps what it
// said last; one that reports nothing gives the table or a guess.
func TestCatalogRefreshesInTheBackground(t *testing.T) {
	t.Parallel()
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	r := &reporter{rep: llm.Reported{Window: 8192}}
	c := newTestCatalog(t, "", r, now)
	if f := c.For(context.Background(), ollama, nil, "llama3"); f.Window.Value != 8192 {
		t.Fatalf("first: %+v", f.Window)
	}
	clock.Add(int64(LocalMaxAge + time.Second))
	r.set(llm.Reported{Window: 16384}, nil)
	if f := c.For(context.Background(), ollama, nil, "llama3"); f.Window.Value != 8192 {
		t.Errorf("stale facts are served while the refresh runs: %+v", f.Window)
	}
	c.Wait()
	if f := c.Known(ollama, nil, "llama3"); f.Window.Value != 16384 {
		t.Errorf("after the refresh: %+v", f.Window)
	}
	clock.Add(int64(LocalMaxAge + time.Second))
	r.set(llm.Reported{}, errors.New("connection refused"))
	c.For(context.Background(), ollama, nil, "llama3")
	c.Wait()
	if f := c.Known(ollama, nil, "llama3"); f.Window.Value != 16384 {
		t.Errorf("a failed ask dropped what the server said: %+v", f.Window)
	}
	r.set(llm.Reported{}, llm.ErrNotReported)
	if f := c.For(context.Background(), ollama, nil, "other"); f.Window.From != wire.FactGuess {
		t.Errorf("not reported: %+v", f.Window)
	}
}

// TestCatalogDoesNotHoldATurn: a server slower than the wait gives the
// table's facts (or a guess) now, and its answer to the next call.
func TestCatalogDoesNotHoldATurn(t *testing.T) {
	t.Parallel()
	r := &reporter{rep: llm.Reported{Window: 1_048_576}, gate: make(chan struct{})}
	c := newTestCatalog(t, "", r, time.Now)
	c.wait = time.Millisecond
	openrouter := llm.Config{Provider: "openrouter"}
	if f := c.For(context.Background(), openrouter, nil, "moonshotai/kimi-k2"); f.Window.From != wire.FactGuess {
		t.Errorf("before the answer: %+v", f.Window)
	}
	close(r.gate)
	c.Wait()
	if f := c.For(context.Background(), openrouter, nil, "moonshotai/kimi-k2"); f.Window != (Fact[int]{1_048_576, wire.FactServer}) {
		t.Errorf("after the answer: %+v", f.Window)
	}
	if n := r.asks.Load(); n != 1 {
		t.Errorf("%d asks, want 1", n)
	}
}

// TestCatalogListsInOneAsk: a listing of a server whose one list says it
// all (OpenRouter's) asks it once for every model, not once per model.
func TestCatalogListsInOneAsk(t *testing.T) {
	t.Parallel()
	r := &reporter{err: errors.New("must not be asked model by model")}
	c := newTestCatalog(t, "", r, time.Now)
	var lists atomic.Int32
	c.all = func(context.Context, llm.Config) (map[string]llm.Reported, error) {
		lists.Add(1)
		return map[string]llm.Reported{"a/one": {Window: 1_000_000}, "b/two": {Window: 64_000}}, nil
	}
	openrouter := llm.Config{Provider: "openrouter"}
	got := c.ForAll(context.Background(), openrouter, nil, []string{"a/one", "b/two", "c/gone"})
	if got[0].Window != (Fact[int]{1_000_000, wire.FactServer}) || got[1].Window.Value != 64_000 || got[2].Window.From != wire.FactGuess {
		t.Errorf("facts %+v %+v %+v", got[0].Window, got[1].Window, got[2].Window)
	}
	c.ForAll(context.Background(), openrouter, nil, []string{"a/one", "b/two", "c/gone"})
	if lists.Load() != 1 || r.asks.Load() != 0 {
		t.Errorf("%d list asks and %d model asks, want 1 and 0", lists.Load(), r.asks.Load())
	}
}
