package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// probeReply is a fake server's answer to one route: a fixture of testdata, or
// a status with a body.
type probeReply struct {
	file   string
	status int
	body   string
}

// probeServer answers "METHOD /path" with routes and anything else with
// Ollama's 404; it returns the routes asked, in order.
func probeServer(t *testing.T, routes map[string]probeReply) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route := r.Method + " " + r.URL.Path
		mu.Lock()
		asked = append(asked, route)
		mu.Unlock()
		if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
			t.Errorf("%s: Authorization %q", route, got)
		}
		w.Header().Set("Content-Type", "application/json")
		rep, ok := routes[route]
		switch {
		case !ok:
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":"404 page not found"}`))
		case rep.file != "":
			_, _ = w.Write(readFixture(t, rep.file))
		default:
			w.WriteHeader(rep.status)
			_, _ = w.Write([]byte(rep.body))
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), asked...) }
}

// probeConfig is preset id's configuration for a server at srv, with the
// preset's path ("/api/v1" for OpenRouter) and no retries.
func probeConfig(id, srv string) Config {
	p, _ := LookupPreset(id)
	u, _ := url.Parse(p.BaseURL)
	return Config{Provider: id, BaseURL: srv + u.Path, APIKey: testKey, Retry: RetryPolicy{MaxRetries: -1}}
}

// only is a server with one route, answered with a fixture.
func only(route, file string) map[string]probeReply {
	return map[string]probeReply{route: {file: file}}
}

var (
	ollamaShow = "POST /api/show"
	ollamaPS   = "GET /api/ps"
	notFound   = probeReply{status: 404, body: `{"error":"model 'nope' not found"}`}
)

// probeServers are the fake servers of TestReport, by name: routes
// answered with fixtures of the servers' real answers.
var probeServers = map[string]map[string]probeReply{
	"openrouter spec":  only("GET /api/v1/models", "openrouter_models_openapi.json"),
	"openrouter pilot": only("GET /api/v1/models", "openrouter_models_pilot.json"),
	"ollama":           {ollamaShow: {file: "ollama_show_openapi.json"}, ollamaPS: {file: "ollama_ps_openapi.json"}},
	"ollama api.md":    {ollamaShow: {file: "ollama_show_apimd.json"}, ollamaPS: {file: "ollama_ps_apimd.json"}},
	"ollama no ps":     {ollamaShow: {file: "ollama_show_openapi.json"}},
	"ollama 404":       {ollamaShow: notFound},
	"lmstudio v1":      only("GET /api/v1/models", "lmstudio_v1_models_docs.json"),
	"lmstudio v0":      only("GET /api/v0/models", "lmstudio_v0_models_docs.json"),
	"lmstudio v0 load": only("GET /api/v0/models", "lmstudio_v0_models_loaded.json"),
	"vllm":             only("GET /v1/models", "vllm_models_recorded.json"),
	"llamacpp":         only("GET /props", "llamacpp_props_readme.json"),
	"none":             nil,
}

func TestReport(t *testing.T) {
	t.Parallel()
	sonnet := &Prices{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	gemma := Reported{Window: 131072, Configured: 2048, Loaded: 4096}
	tests := []struct {
		name, preset, model, server string
		want                        Reported
		err                         error
		asked                       string // the routes asked, joined by ", "; "-": not checked
	}{
		{"openrouter spec example", "openrouter", "openai/gpt-4", "openrouter spec", Reported{Window: 8192, MaxOutput: 4096, Prices: &Prices{Input: 30, Output: 60}}, nil, "GET /api/v1/models"},
		{"openrouter cache prices", "openrouter", "anthropic/claude-sonnet-4.5", "openrouter pilot", Reported{Window: 1_000_000, MaxOutput: 64_000, Prices: sonnet}, nil, "-"},
		{"openrouter canonical slug", "openrouter", "anthropic/claude-4.5-sonnet-20250929", "openrouter pilot", Reported{Window: 1_000_000, MaxOutput: 64_000, Prices: sonnet}, nil, "-"},
		{"openrouter auto router has no price", "openrouter", "openrouter/auto", "openrouter pilot", Reported{Window: 2_000_000}, nil, "-"},
		{"openrouter numbers out of bounds are ignored", "openrouter", "example/boastful", "openrouter pilot", Reported{Prices: &Prices{Input: 1, Output: 2}}, nil, "-"},
		{"openrouter unknown model", "openrouter", "nobody/nothing", "openrouter spec", Reported{}, ErrNotReported, "-"},
		{"openrouter entry of another shape is left out", "openrouter", "example/odd", "openrouter pilot", Reported{}, ErrNotReported, "-"},
		{"ollama loaded", "ollama", "gemma4", "ollama", gemma, nil, "POST /api/show, GET /api/ps"},
		{"ollama tag latest", "ollama", "gemma4:latest", "ollama", gemma, nil, "-"},
		{"ollama not loaded, no num_ctx, older /api/ps", "ollama", "llama3.2", "ollama api.md", Reported{Window: 8192}, nil, "-"},
		{"ollama without /api/ps", "ollama", "gemma4", "ollama no ps", Reported{Window: 131072, Configured: 2048}, nil, "-"},
		{"ollama unknown model", "ollama", "nope", "ollama 404", Reported{}, ErrNotReported, "POST /api/show"},
		{"generic server that is Ollama", "openai", "gemma4", "ollama", gemma, nil, "-"},
		{"generic server that is vLLM", "openai", "gpt-oss-120b", "vllm", Reported{Window: 65536}, nil, "POST /api/show, GET /v1/models"},
		{"generic server that says nothing", "openai", "gpt-oss-120b", "none", Reported{}, ErrNotReported, "POST /api/show, GET /v1/models"},
		{"lmstudio v1 loaded", "lmstudio", "gemma-3-270m-it-qat", "lmstudio v1", Reported{Window: 32768, Loaded: 4096}, nil, "GET /api/v1/models"},
		{"lmstudio v1 unknown model", "lmstudio", "nope", "lmstudio v1", Reported{}, ErrNotReported, "-"},
		{"lmstudio v0 not loaded", "lmstudio", "meta-llama-3.1-8b-instruct", "lmstudio v0", Reported{Window: 131072}, nil, "GET /api/v1/models, GET /api/v0/models"},
		{"lmstudio v0 loaded", "lmstudio", "meta-llama-3.1-8b-instruct", "lmstudio v0 load", Reported{Window: 131072, Loaded: 16384}, nil, "-"},
		{"lmstudio v0 unknown model", "lmstudio", "nope", "lmstudio v0", Reported{}, ErrNotReported, "-"},
		{"vllm", "vllm", "gpt-oss-120b", "vllm", Reported{Window: 65536}, nil, "GET /v1/models"},
		{"vllm unknown model", "vllm", "nope", "vllm", Reported{}, ErrNotReported, "-"},
		{"llama.cpp", "llamacpp", "whatever-it-runs", "llamacpp", Reported{Window: 1024}, nil, "GET /props"},
		{"a hosted server that reports nothing is not asked", "deepseek", "deepseek-v4-flash", "none", Reported{}, ErrNotReported, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, asked := probeServer(t, probeServers[tt.server])
			got, err := Report(context.Background(), probeConfig(tt.preset, srv.URL), tt.model)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
			} else if err != nil {
				t.Fatalf("err = %v", err)
			}
			if !sameReported(got, tt.want) {
				t.Errorf("got %s, want %s", describeReported(got), describeReported(tt.want))
			}
			if tt.asked != "-" {
				if a := strings.Join(asked(), ", "); a != tt.asked {
					t.Errorf("asked %q, want %q", a, tt.asked)
				}
			}
		})
	}
}

func sameReported(a, b Reported) bool {
	if (a.Prices == nil) != (b.Prices == nil) || a.Prices != nil && *a.Prices != *b.Prices {
		return false
	}
	a.Prices, b.Prices = nil, nil
	return a == b
}

func describeReported(r Reported) string {
	p := "none"
	if r.Prices != nil {
		p = fmt.Sprintf("%+v", *r.Prices)
	}
	return fmt.Sprintf("window %d loaded %d configured %d output %d prices %s", r.Window, r.Loaded, r.Configured, r.MaxOutput, p)
}

// TestReportFailures: a server's failure comes back as a sentence without
// the key, and a server that does not answer gives way to the context.
func TestReportFailures(t *testing.T) {
	t.Parallel()
	t.Run("error with the key in it", func(t *testing.T) {
		t.Parallel()
		srv, _ := probeServer(t, map[string]probeReply{"GET /api/v1/models": {status: 401,
			body: `{"error":{"message":"No auth credentials found for key ` + testKey + `","code":401}}`}})
		_, err := Report(context.Background(), probeConfig("openrouter", srv.URL), "openai/gpt-4")
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindAuth {
			t.Fatalf("err = %v, want an authentication *Error", err)
		}
		if strings.Contains(err.Error(), testKey) || strings.Contains(e.Message, testKey) {
			t.Errorf("the key is in the error: %v", err)
		}
	})
	t.Run("server error", func(t *testing.T) {
		t.Parallel()
		srv, _ := probeServer(t, map[string]probeReply{ollamaShow: {status: 500, body: `{"error":"llama runner process has terminated"}`}})
		_, err := Report(context.Background(), probeConfig("ollama", srv.URL), "gemma4")
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindServer || errors.Is(err, ErrNotReported) {
			t.Fatalf("err = %v, want the server's error", err)
		}
	})
	t.Run("redirect to another host", func(t *testing.T) {
		t.Parallel()
		other, asked := probeServer(t, only("GET /api/v1/models", "openrouter_models_openapi.json"))
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
		}))
		t.Cleanup(srv.Close)
		_, err := Report(context.Background(), probeConfig("openrouter", srv.URL), "openai/gpt-4")
		if err == nil || errors.Is(err, ErrNotReported) || !strings.Contains(err.Error(), "another host") {
			t.Errorf("err = %v, want a refused redirect", err)
		}
		if a := asked(); len(a) != 0 {
			t.Errorf("the other host was asked %v", a)
		}
	})
	t.Run("slow server", func(t *testing.T) {
		t.Parallel()
		arrived := make(chan struct{}, 1)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			arrived <- struct{}{}
			<-r.Context().Done()
		}))
		t.Cleanup(srv.Close)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := Report(ctx, probeConfig("vllm", srv.URL), "gpt-oss-120b")
			done <- err
		}()
		select {
		case <-arrived:
		case err := <-done:
			t.Fatalf("Report returned %v before asking the server", err)
		}
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Report did not return after the context was cancelled")
		}
	})
}

// TestReportingServer: which server the generic choice is asked as, by
// the host of its base URL.
func TestReportingServer(t *testing.T) {
	t.Parallel()
	tests := []struct{ provider, base, want string }{
		{"openai", "https://openrouter.ai/api/v1", "openrouter"},
		{"openai", "https://api.openai.com/v1", "openai"},
		{"openai", "https://api.deepseek.com", "deepseek"},
		{"openai", "http://localhost:11434/v1", ""},
		{"openai", "http://gpu-box:8000/v1", ""},
		{"lmstudio", "http://gpu-box:9999/v1", "lmstudio"},
	}
	for _, tt := range tests {
		if got := reportingServer(Config{Provider: tt.provider, BaseURL: tt.base}); got != tt.want {
			t.Errorf("reportingServer(%s, %s) = %q, want %q", tt.provider, tt.base, got, tt.want)
		}
	}
}

// TestReportAsksNoOtherHost: OpenAI's own API and an Anthropic key report
// nothing, and nothing is fetched.
func TestReportAsksNoOtherHost(t *testing.T) {
	t.Parallel()
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		t.Errorf("fetched %s", r.URL)
		return nil, errors.New("no network in tests")
	})}
	for _, cfg := range []Config{
		{Provider: "openai", APIKey: testKey, HTTPClient: client},
		{Provider: "anthropic", APIKey: testKey, HTTPClient: client},
		{Provider: "gemini", APIKey: testKey, HTTPClient: client},
	} {
		if _, err := Report(context.Background(), cfg, "some-model"); !errors.Is(err, ErrNotReported) {
			t.Errorf("%s: err = %v, want ErrNotReported", cfg.Provider, err)
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestReportAll: OpenRouter's one list gives every model's facts in one
// request; other servers are asked model by model.
func TestReportAll(t *testing.T) {
	t.Parallel()
	srv, asked := probeServer(t, probeServers["openrouter pilot"])
	all, err := ReportAll(context.Background(), probeConfig("openrouter", srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	one, err := Report(context.Background(), probeConfig("openrouter", srv.URL), "anthropic/claude-sonnet-4.5")
	if err != nil || !reflect.DeepEqual(all["anthropic/claude-sonnet-4.5"], one) || one.Window != 1_000_000 {
		t.Errorf("the list's entry %+v, Report's %+v (%v)", all["anthropic/claude-sonnet-4.5"], one, err)
	}
	if r := all["example/boastful"]; r.Window != 0 {
		t.Errorf("a window of 500M tokens is believed: %+v", r)
	}
	if n := len(asked()); n != 2 {
		t.Errorf("%d requests for a list and a model, want 2", n)
	}
	if _, err := ReportAll(context.Background(), probeConfig("ollama", srv.URL)); !errors.Is(err, ErrNotReported) {
		t.Errorf("Ollama: %v, want ErrNotReported", err)
	}
}
