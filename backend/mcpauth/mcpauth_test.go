package mcpauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pilot/backend/config"
	"pilot/backend/internal/mcptest"
)

// loopbackRule is a network rule naming the test servers' host.
func loopbackRule(host string) bool { return host == "127.0.0.1" }

// browse is a browser that signs in: it follows the authorization page's
// redirect back to the loopback listener.
func browse(t *testing.T) func(string) {
	return func(u string) {
		go func() {
			resp, err := http.Get(u)
			if err != nil {
				t.Errorf("browser: %v", err)
				return
			}
			resp.Body.Close()
		}()
	}
}

func TestLogin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		private func(string) bool
		paste   bool
		open    bool   // the server asks for a token only after initialize
		want    string // in the error; "" for a sign-in
	}{
		{name: "browser", private: loopbackRule},
		{name: "a server that lets initialize through", private: loopbackRule, open: true},
		{name: "pasted", private: loopbackRule, paste: true},
		{name: "no network rule for a loopback authorization server", want: "allow network 127.0.0.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := mcptest.NewOAuth()
			defer o.Close()
			if tc.open {
				o.OpenInitialize()
			}
			home := t.TempDir()
			key := Key("project", "/p", o.MCPURL())
			var shown []string
			var mu sync.Mutex
			pr, pw := io.Pipe()
			l := Login{Home: home, Key: key, Name: "svc", URL: o.MCPURL(), Private: tc.private, Show: func(u string) {
				mu.Lock()
				shown = append(shown, u)
				mu.Unlock()
				if tc.paste {
					go func() {
						back, err := mcptest.SentBack(u)
						if err != nil {
							t.Error(err)
						}
						_, _ = io.WriteString(pw, back+"\n")
					}()
				}
			}}
			if tc.paste {
				l.Paste = pr
			} else {
				l.Open = browse(t)
			}
			st, err := l.Run(context.Background())
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				if logins, _ := o.Counts(); logins != 0 || len(shown) != 0 || Lookup(home, key).SignedIn {
					t.Errorf("refused, yet signed in (%d) or shown %v", logins, shown)
				}
				return
			}
			if err != nil || !st.SignedIn || !st.Refresh {
				t.Fatalf("state %+v, err %v", st, err)
			}
			all, _ := config.LoadMCPTokens(home)
			tok := all[key]
			if tok.Resource != o.MCPURL() || tok.RefreshToken == "" || tok.ClientID == "" || len(shown) != 1 {
				t.Errorf("kept %+v, shown %v", tok, shown)
			}
			if Lookup(home, Key("project", "/other", o.MCPURL())).SignedIn || Lookup(home, Key("user", "", o.MCPURL())).SignedIn {
				t.Error("another project's (or the user's) server at the URL shares the sign-in")
			}
		})
	}
}

// freePort is a port of 127.0.0.1 free a moment ago: a pre-registered
// client's callbackPort.
func freePort(t *testing.T) int {
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer free.Close()
	return free.Addr().(*net.TCPAddr).Port
}

// TestLoginPreregistered: a client registered ahead (the server entry's
// "oauth": clientId and callbackPort, as Claude Code writes it, and the
// secret of a confidential client) is used before dynamic registration,
// with its redirect at localhost:PORT.
func TestLoginPreregistered(t *testing.T) {
	t.Parallel()
	for _, confidential := range []bool{false, true} {
		t.Run(fmt.Sprint("confidential ", confidential), func(t *testing.T) {
			t.Parallel()
			o := mcptest.NewOAuth()
			defer o.Close()
			port := freePort(t)
			redirect := "http://localhost:" + strconv.Itoa(port) + "/callback"
			var id, clientSecret string
			if confidential {
				id, clientSecret = o.RegisterConfidential(redirect)
			} else {
				id = o.Register(redirect)
			}
			home := t.TempDir()
			l := Login{Home: home, Key: "k", Name: "svc", URL: o.MCPURL(), ClientID: id, ClientSecret: clientSecret, CallbackPort: port, Private: loopbackRule, Show: func(string) {}, Open: browse(t)}
			if _, err := l.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			all, _ := config.LoadMCPTokens(home)
			if all["k"].ClientID != id || all["k"].ClientSecret != clientSecret || o.Clients() != 1 {
				t.Errorf("client %q (want %q), %d clients registered", all["k"].ClientID, id, o.Clients())
			}
		})
	}
}

// TestLoginMetadataDocument: with a client ID metadata document
// (PILOT_MCP_CLIENT_METADATA_URL) and an authorization server that
// supports them, its address is the client ID: no registration.
func TestLoginMetadataDocument(t *testing.T) {
	t.Parallel()
	o := mcptest.NewOAuth()
	defer o.Close()
	port := freePort(t)
	const doc = "https://pilot.example/oauth/client.json"
	o.AcceptMetadataDocument(doc, "http://localhost:"+strconv.Itoa(port)+"/callback")
	home := t.TempDir()
	l := Login{Home: home, Key: "k", Name: "svc", URL: o.MCPURL(), ClientMetadataURL: doc, CallbackPort: port, Private: loopbackRule, Show: func(string) {}, Open: browse(t)}
	if _, err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if all, _ := config.LoadMCPTokens(home); all["k"].ClientID != doc || o.Clients() != 1 {
		t.Errorf("client %q, %d clients known (the document's alone: no registration)", all["k"].ClientID, o.Clients())
	}
}

// TestHandlerUsesAndRenews: a running session sends the kept token, and
// when the server stops accepting it renews it with the refresh token
// (with the resource indicator) and keeps the new one; without a sign-in
// it says which command to run.
func TestHandlerUsesAndRenews(t *testing.T) {
	t.Parallel()
	o := mcptest.NewOAuth()
	defer o.Close()
	home := t.TempDir()
	key := Key("user", "", o.MCPURL())
	connect := func() (*sdk.ClientSession, error) {
		h := NewHandler(home, key, "svc", "", Client(o.MCPURL(), loopbackRule))
		c := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil)
		return c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: o.MCPURL(), OAuthHandler: h, MaxRetries: -1}, nil)
	}
	_, err := connect()
	if se := (*SignInError)(nil); !errors.As(err, &se) || !strings.Contains(err.Error(), "run `pilot mcp login svc`") {
		t.Fatalf("before a sign-in: %v", err)
	}
	if _, err := (Login{Home: home, Key: key, Name: "svc", URL: o.MCPURL(), Private: loopbackRule, Show: func(string) {}, Open: browse(t)}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	before, _ := config.LoadMCPTokens(home)
	s, err := connect()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	call := func() string {
		r, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
		if err != nil {
			t.Fatal(err)
		}
		return r.Content[0].(*sdk.TextContent).Text
	}
	if got := call(); got != "echo: hi" {
		t.Errorf("call = %q", got)
	}
	o.Expire()
	if got := call(); got != "echo: hi" {
		t.Errorf("call after expiry = %q", got)
	}
	after, _ := config.LoadMCPTokens(home)
	if _, refreshes := o.Counts(); refreshes != 1 || after[key].AccessToken == before[key].AccessToken || after[key].RefreshToken == before[key].RefreshToken {
		t.Errorf("%d refreshes; kept %+v, was %+v", refreshes, after[key], before[key])
	}
}

// TestStepUp: a server's 403 insufficient_scope asks for a new sign-in,
// and that sign-in asks for the scope the server named as well as those
// granted before.
func TestStepUp(t *testing.T) {
	t.Parallel()
	o := mcptest.NewOAuth()
	defer o.Close()
	home := t.TempDir()
	l := Login{Home: home, Key: "k", Name: "svc", URL: o.MCPURL(), Private: loopbackRule, Show: func(string) {}, Open: browse(t)}
	if _, err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	resp := &http.Response{StatusCode: 403, Header: http.Header{"Www-Authenticate": {`Bearer error="insufficient_scope", scope="admin"`}}, Body: io.NopCloser(strings.NewReader(""))}
	if err := NewHandler(home, "k", "svc", "", nil).Authorize(context.Background(), nil, resp); !strings.Contains(fmt.Sprint(err), "pilot mcp login svc") {
		t.Fatalf("insufficient_scope: %v", err)
	}
	if _, err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	all, _ := config.LoadMCPTokens(home)
	if got := strings.Join(all["k"].Scopes, " "); !strings.Contains(got, "tools") || !strings.Contains(got, "admin") || len(all["k"].Wanted) != 0 {
		t.Errorf("scopes after the step-up sign-in: %q, still wanted %v", got, all["k"].Wanted)
	}
}

// TestHandlerAnswers: what each of a server's refusals becomes.
func TestHandlerAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		status int
		header string
		kept   *config.MCPToken
		want   string // in the SignInError; "" for nil
	}{
		{"403 insufficient_scope", 403, `Bearer error="insufficient_scope", scope="repo"`, &config.MCPToken{AccessToken: "a-123456789"}, "asks for more access"},
		{"403 other", 403, `Bearer error="invalid_request"`, &config.MCPToken{AccessToken: "a-123456789"}, ""},
		{"401 without a sign-in", 401, `Bearer resource_metadata="https://x/.well-known/oauth-protected-resource"`, nil, "needs a sign-in"},
		{"401, no refresh token", 401, `Bearer`, &config.MCPToken{AccessToken: "a-123456789"}, "expired or revoked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			if tc.kept != nil {
				if err := config.SaveMCPToken(home, "k", tc.kept); err != nil {
					t.Fatal(err)
				}
			}
			resp := &http.Response{StatusCode: tc.status, Header: http.Header{"Www-Authenticate": {tc.header}}, Body: io.NopCloser(strings.NewReader(""))}
			err := NewHandler(home, "k", "gh", "", nil).Authorize(context.Background(), nil, resp)
			if tc.want == "" {
				if err != nil {
					t.Errorf("err = %v, want nil", err)
				}
				return
			}
			if se := (*SignInError)(nil); !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "pilot mcp login gh") {
				t.Errorf("err = %v, want a SignInError with %q", err, tc.want)
			}
		})
	}
}

func TestClientRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ server, target, want string }{
		{"https://mcp.example/mcp", "http://as.example/.well-known/x", "must use https"},
		{"http://127.0.0.1:9/mcp", "http://as.example/token", "must use https"},
		{"https://mcp.example/mcp", "https://127.0.0.1:9/token", "allow network 127.0.0.1"},
		{"https://mcp.example/mcp", "https://[::1]:9/token", "allow network ::1"},
		{"https://mcp.example/mcp", "https://169.254.169.254/latest", "allow network 169.254.169.254"},
		{"https://mcp.example/mcp", "https://localhost:9/token", "allow network localhost"},
	} {
		_, err := Client(tc.server, nil).Get(tc.target)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s from %s: err = %v, want %q", tc.target, tc.server, err, tc.want)
		}
	}
}

func TestBrowser(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ browser, want string }{
		{"firefox --new-tab", "firefox --new-tab https://as/a?b=c"},
		{"open-it %s --now:other", "open-it https://as/a?b=c --now"},
		{":w3m", "w3m https://as/a?b=c"},
	} {
		cmd, err := Browser("https://as/a?b=c", func(string) string { return tc.browser })
		if err != nil || strings.Join(cmd.Args, " ") != tc.want {
			t.Errorf("$BROWSER=%q: %v, %v; want %q", tc.browser, cmd, err, tc.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	for st, want := range map[State]string{
		{}:                           "needs sign-in",
		{SignedIn: true}:             "signed in",
		{SignedIn: true, Expiry: at}: "signed in (expires 2026-11-30 10:00 UTC)",
		{SignedIn: true, Expiry: at, Refresh: true}: "signed in (renews 2026-11-30 10:00 UTC)",
	} {
		if got := st.Describe(); got != want {
			t.Errorf("%+v: %q, want %q", st, got, want)
		}
	}
}

// TestRenewAdoptsAnotherPilotsTokens: when another Pilot renewed the
// tokens meanwhile, a renewal takes those instead of spending the old
// (rotated, so refused) refresh token.
func TestRenewAdoptsAnotherPilotsTokens(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	old := &config.MCPToken{AccessToken: "at-old-123456", RefreshToken: "rt-old-123456", Expiry: time.Now().Add(-time.Minute), TokenURL: "https://127.0.0.1:1/token"} // refused unasked: a refresh would fail
	if err := config.SaveMCPToken(home, "k", old); err != nil {
		t.Fatal(err)
	}
	h := NewHandler(home, "k", "svc", "", Client("https://mcp.invalid/mcp", nil))
	if ts, _ := h.TokenSource(context.Background()); ts == nil {
		t.Fatal("no token source with a sign-in kept")
	}
	renewed := &config.MCPToken{AccessToken: "at-new-123456", RefreshToken: "rt-new-123456", Expiry: time.Now().Add(time.Hour), TokenURL: old.TokenURL}
	if err := config.SaveMCPToken(home, "k", renewed); err != nil {
		t.Fatal(err)
	}
	tok, err := h.Token()
	if err != nil || tok.AccessToken != renewed.AccessToken {
		t.Fatalf("token %v, err %v", tok, err)
	}
}
