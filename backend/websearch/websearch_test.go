package websearch

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// service serves fixture with status, after check has looked at the
// request.
func service(t *testing.T, status int, fixture string, check func(*http.Request, []byte)) string {
	t.Helper()
	var body []byte
	if fixture != "" {
		var err error
		if body, err = os.ReadFile(filepath.Join("testdata", fixture)); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, _ := io.ReadAll(r.Body)
		if check != nil {
			check(r, in)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestSearchReadsEachServicesAnswer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		backend, path, fixture string
		check                  func(t *testing.T, r *http.Request, body []byte)
		want                   []Result
	}{
		{backend: Brave, path: "/res/v1/web/search", fixture: "brave_web_search.json",
			check: func(t *testing.T, r *http.Request, _ []byte) {
				q := r.URL.Query()
				if r.Method != http.MethodGet || r.Header.Get("X-Subscription-Token") != "brave-key-123" || q.Get("q") != "brave search site:brave.com" || q.Get("count") != "2" {
					t.Errorf("request %s %s token %q", r.Method, r.URL, r.Header.Get("X-Subscription-Token"))
				}
			},
			want: []Result{
				{Title: "Private Search Engine - Brave Search", URL: "https://search.brave.com/", Snippet: "Search the web privately & independently with Brave Search.", Date: "2024-05-01T13:05:02"},
				{Title: "Brave Search API", URL: "https://brave.com/search/api/", Snippet: "Power your search and AI apps with the fastest growing independent search engine.", Date: "3 days ago"},
			}},
		{backend: Tavily, path: "/search", fixture: "tavily_search.json",
			check: func(t *testing.T, r *http.Request, body []byte) {
				var in struct {
					Query   string   `json:"query"`
					Max     int      `json:"max_results"`
					Domains []string `json:"include_domains"`
				}
				if r.Method != http.MethodPost || r.Header.Get("Authorization") != "Bearer tavily-key-123" || json.Unmarshal(body, &in) != nil ||
					in.Query != "brave search" || in.Max != 2 || !reflect.DeepEqual(in.Domains, []string{"brave.com"}) {
					t.Errorf("request %s %s %s", r.Method, r.Header.Get("Authorization"), body)
				}
			},
			want: []Result{
				{Title: "Lionel Messi Facts | Britannica", URL: "https://www.britannica.com/facts/Lionel-Messi", Snippet: "Lionel Messi, an Argentine footballer, is widely regarded as one of the greatest football players of his generation. Born in 1987, Messi spent the majority of his career playing for Barcelona, where he won numerous domestic league titles and UEFA Champions League titles."},
				{Title: "Lionel Messi - Wikipedia", URL: "https://en.wikipedia.org/wiki/Lionel_Messi", Snippet: `Lionel Andrés "Leo" Messi is an Argentine professional footballer who plays as a forward for and captains both Major League Soccer club Inter Miami and the Argentina national team.`, Date: "Tue, 04 Jun 2024 08:00:00 GMT"},
			}},
		{backend: SearXNG, path: "/searx/search", fixture: "searxng_search.json",
			check: func(t *testing.T, r *http.Request, _ []byte) {
				q := r.URL.Query()
				if r.Method != http.MethodGet || q.Get("format") != "json" || q.Get("q") != "brave search site:brave.com" {
					t.Errorf("request %s %s", r.Method, r.URL)
				}
			},
			want: []Result{
				{Title: "searxng/searxng: SearXNG is a free internet metasearch engine", URL: "https://github.com/searxng/searxng", Snippet: "SearXNG is a free internet metasearch engine which aggregates results from more than 70 search services. Users are neither tracked nor profiled."},
				{Title: "Search API — SearXNG Documentation", URL: "https://docs.searxng.org/dev/search_api.html", Snippet: "The search supports both GET and POST. Parameters: q, categories, engines, language, pageno, time_range, format (json, csv, rss).", Date: "2024-11-02T00:00:00"},
			}},
	}
	for _, tc := range tests {
		t.Run(tc.backend, func(t *testing.T) {
			t.Parallel()
			base := service(t, http.StatusOK, tc.fixture, func(r *http.Request, body []byte) {
				if r.URL.Path != tc.path {
					t.Errorf("path %s, want %s", r.URL.Path, tc.path)
				}
				tc.check(t, r, body)
			})
			u := base + tc.path
			if tc.backend == SearXNG {
				u = base + "/searx" // the instance's address; /search is added
			}
			s, err := New(Config{Backend: tc.backend, URL: u, Key: tc.backend + "-key-123"})
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Search(context.Background(), Query{Text: "brave search", Count: 2, Domains: []string{"brave.com"}})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("results\n got %+v\nwant %+v", got, tc.want)
			}
			if s.Host() != "127.0.0.1" {
				t.Errorf("host %q", s.Host())
			}
		})
	}
}

func TestSearchFailuresAreSentences(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, backend string
		status        int
		fixture       string
		want          string
	}{
		{"bad key", Brave, http.StatusUnauthorized, "", "Brave Search refused the API key (401): check the key in Settings › Web"},
		{"json off", SearXNG, http.StatusForbidden, "", "allows the JSON format"},
		{"limit", Tavily, http.StatusTooManyRequests, "", "too many searches"},
		{"not a search", SearXNG, http.StatusOK, "brave_web_search.json", "not a search result (no results list)"},
		{"html", Tavily, http.StatusOK, "README.md", "not a search result (not JSON)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := New(Config{Backend: tc.backend, URL: service(t, tc.status, tc.fixture, nil), Key: "secret-key-" + tc.name})
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.Search(context.Background(), Query{Text: "q"})
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("err %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("err %v, want %q", err, tc.want)
			case err != nil && strings.Contains(err.Error(), "secret-key"):
				t.Fatalf("the key is in the error: %v", err)
			}
		})
	}
}

func TestNewSaysWhatToSet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{}, "no search backend is set up"},
		{Config{Backend: "google"}, `"google" is not a search backend`},
		{Config{Backend: Brave}, "Brave Search needs an API key"},
		{Config{Backend: SearXNG}, "SearXNG needs its instance's address"},
		{Config{Backend: SearXNG, URL: "ftp://x"}, "is not an http or https address"},
	}
	for _, tc := range tests {
		if _, err := New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want %q", tc.cfg, err, tc.want)
		}
	}
	s, err := New(Config{Backend: " Brave ", Key: "k"})
	if err != nil || s.Host() != "api.search.brave.com" {
		t.Fatalf("brave's default: %v %v", s, err)
	}
}

func TestText(t *testing.T) {
	t.Parallel()
	got := Text(Brave, "go generics", []Result{{Title: "Tutorial", URL: "https://go.dev/doc/tutorial/generics", Snippet: "Get started.", Date: "2022-03-15"}, {URL: "https://x.example"}})
	want := "Brave Search results for \"go generics\" (2). Read a page with web_fetch.\n\n1. Tutorial\n   https://go.dev/doc/tutorial/generics\n   Date: 2022-03-15\n   Get started.\n\n2. (no title)\n   https://x.example"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := Text(SearXNG, "zz", nil); !strings.Contains(got, "SearXNG found nothing") {
		t.Errorf("empty: %s", got)
	}
}
