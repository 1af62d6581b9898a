package service

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/config"
	"pilot/backend/wire"
)

// Settings › Web: the backend and its address go to settings.json, the
// key to keys.json (mode 0600) and nowhere else; the agent's searcher is
// what is saved; Test searches with the form's backend and says what is
// wrong in a sentence without the key.
func TestWebSearchSettings(t *testing.T) {
	t.Parallel()
	fixture, err := os.ReadFile("../websearch/testdata/brave_web_search.json")
	if err != nil {
		t.Fatal(err)
	}
	const key = "BSAsaved0123456789abcdef"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Subscription-Token") != key {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = w.Write(fixture)
	}))
	defer srv.Close()
	w := newWorkspace(t, nil)
	home := w.core.home

	if s, _, err := w.Web.searcher(); s != nil || err == nil || !strings.Contains(err.Error(), "no search backend is set up") {
		t.Fatalf("before: %v %v", s, err)
	}
	if _, err := w.Web.Save(wire.WebSearchInput{Backend: "brave", URL: srv.URL}); err == nil || !strings.Contains(err.Error(), "needs an API key") {
		t.Fatalf("saved without a key: %v", err)
	}
	bad := w.Web.Test(context.Background(), wire.WebSearchInput{Backend: "brave", URL: srv.URL, APIKey: "BSAwrong0123456789abcdef"})
	if !strings.HasPrefix(bad.Error, "Brave Search refused the API key (401)") || strings.Contains(bad.Error, "BSAwrong") || len(bad.Results) != 0 {
		t.Fatalf("test with a wrong key: %+v", bad)
	}
	if w.Web.providerSearch() {
		t.Fatal("the provider may search before the user said so")
	}
	v, err := w.Web.Save(wire.WebSearchInput{Backend: "brave", URL: srv.URL, APIKey: key, PerSession: 7, ProviderSearch: true})
	if err != nil {
		t.Fatal(err)
	}
	if !v.ProviderSearch || !w.Web.providerSearch() {
		t.Fatalf("the provider's search not let: %+v", v)
	}
	if v.Backend != "brave" || v.PerSession != 7 || len(v.Backends) != 3 || !v.Backends[0].HasKey || v.Backends[0].KeyHint != "BSA…cdef" || v.Backends[1].HasKey || !v.Backends[2].NeedsURL {
		t.Fatalf("view %+v", v)
	}
	ok := w.Web.Test(context.Background(), wire.WebSearchInput{Backend: "brave", URL: srv.URL}) // the saved key
	if ok.Error != "" || len(ok.Results) != 2 || ok.Results[0].Title != "Private Search Engine - Brave Search" {
		t.Fatalf("test: %+v", ok)
	}
	s, n, err := w.Web.searcher()
	if err != nil || n != 7 || s.Host() != "127.0.0.1" {
		t.Fatalf("searcher %v %d %v", s, n, err)
	}
	settings, _ := os.ReadFile(filepath.Join(home, config.SettingsFile))
	keys, _ := os.ReadFile(filepath.Join(home, config.KeysFile))
	if strings.Contains(string(settings), key) || !strings.Contains(string(settings), `"webSearch"`) || !strings.Contains(string(keys), `"search:brave": "`+key) {
		t.Fatalf("settings.json %s\nkeys.json %s", settings, keys)
	}
	if info, err := os.Stat(filepath.Join(home, config.KeysFile)); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("keys.json mode %v %v", info, err)
	}
	// Turning search off keeps the key for later.
	if v, err := w.Web.Save(wire.WebSearchInput{}); err != nil || v.Backend != "" || !v.Backends[0].HasKey || v.ProviderSearch || w.Web.providerSearch() {
		t.Fatalf("off: %+v %v", v, err)
	}
	if _, _, err := w.Web.searcher(); err == nil {
		t.Fatal("a searcher after turning search off")
	}
}
