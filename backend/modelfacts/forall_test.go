package modelfacts

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// ollamaServer is a fake Ollama that answers /api/show and /api/ps with
// Ollama's documented answers (docs/api.md, copied into
// backend/llm/testdata/ollama_*_apimd.json), holding every /api/show
// until release closes, and counting the asks running at once.
type ollamaServer struct {
	*httptest.Server
	release chan struct{}
	mu      sync.Mutex
	now     int // asks running
	most    int // the most running at once
	asked   int // asks received
}

func newOllamaServer(t *testing.T) *ollamaServer {
	t.Helper()
	show, err := os.ReadFile(filepath.Join("..", "llm", "testdata", "ollama_show_apimd.json"))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := os.ReadFile(filepath.Join("..", "llm", "testdata", "ollama_ps_apimd.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := &ollamaServer{release: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/ps" {
			w.Write(ps)
			return
		}
		s.mu.Lock()
		s.now++
		s.asked++
		s.most = max(s.most, s.now)
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			s.now--
			s.mu.Unlock()
		}()
		select {
		case <-s.release:
		case <-r.Context().Done():
			return
		}
		w.Write(show)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *ollamaServer) counts() (now, most, asked int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now, s.most, s.asked
}

// ForAll asks a few models at a time, whatever the number listed, in the
// order given, and asks no more once its caller gives up: neither when
// nothing is known of the models nor when all of it is stale.
func TestForAllIsBounded(t *testing.T) {
	t.Parallel()
	ids := make([]string, 300)
	for i := range ids {
		ids[i] = fmt.Sprintf("model-%03d", i)
	}
	for _, stale := range []bool{false, true} {
		t.Run(fmt.Sprint("stale ", stale), func(t *testing.T) {
			t.Parallel()
			srv := newOllamaServer(t)
			cfg := llm.Config{Provider: "ollama", BaseURL: srv.URL + "/v1"}
			var clock atomic.Int64
			clock.Store(time.Now().UnixNano())
			c := NewCatalog("", nil)
			c.now = func() time.Time { return time.Unix(0, clock.Load()) }
			c.wait = time.Hour // the test's cancel ends the listing
			if stale {
				for _, id := range ids {
					c.entries[key(cfg, id)] = entry{Reported: llm.Reported{Window: 2048}, At: c.now()}
				}
				clock.Add(int64(LocalMaxAge + time.Second))
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan []Facts)
			go func() { done <- c.ForAll(ctx, cfg, nil, ids) }()
			for {
				if now, _, _ := srv.counts(); now >= askAtOnce {
					break
				}
				time.Sleep(time.Millisecond) // a condition: the first asks are held by the server
			}
			cancel()
			got := <-done
			close(srv.release)
			c.Wait()
			if _, most, asked := srv.counts(); most > askAtOnce || asked > askAtOnce {
				t.Errorf("%d asks ran at once and %d were made, want at most %d of each", most, asked, askAtOnce)
			}
			for i, f := range got {
				if f.Model != ids[i] {
					t.Fatalf("facts %d are of %q, want %q", i, f.Model, ids[i])
				}
				if want := map[bool]wire.FactSource{false: wire.FactGuess, true: wire.FactServer}[stale]; f.Window.From != want {
					t.Fatalf("facts of %s: %+v, want from %s", f.Model, f.Window, want)
				}
			}
		})
	}
}
