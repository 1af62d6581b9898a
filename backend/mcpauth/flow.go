package mcpauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"pilot/backend/config"
)

// LoginTimeout bounds a sign-in: the user has this long to finish it.
const LoginTimeout = 10 * time.Minute

// ClientMetadataEnv names the environment variable with the address of a
// client ID metadata document (draft-ietf-oauth-client-id-metadata-document)
// for Pilot: Pilot has no web site of its own to publish one, so it uses
// one only when the user or their organisation hosts it (docs/CLI.md).
const ClientMetadataEnv = "PILOT_MCP_CLIENT_METADATA_URL"

// Login are the inputs of a sign-in.
type Login struct {
	Home, Key string            // where the tokens are kept (Key)
	Name, URL string            // the server's name and its URL
	Headers   map[string]string // its configured headers, sent with the first request
	SSE       bool              // an HTTP+SSE server (the 2024-11-05 transport): the first request opens its stream
	// ClientID (and CallbackPort, the port of the redirect it was
	// registered with) is the client registered ahead with the
	// authorization server, from the server's "oauth" entry; otherwise
	// Pilot registers itself (dynamic client registration).
	ClientID     string
	ClientSecret string // a confidential client's; "" for a public one
	CallbackPort int
	// ClientMetadataURL is the https address of a client ID metadata
	// document describing Pilot (ClientMetadataEnv), used as the client
	// ID by an authorization server that supports such documents, before
	// a pre-registered client and dynamic registration; "" for none.
	ClientMetadataURL string
	Private           func(host string) bool // a network rule names host: see Client
	// Show is told the address to open and what to do; it prints it
	// (the address is the server's: printed made visible).
	Show func(authURL string)
	// Open opens the address in a browser, and says so itself when it
	// cannot (nil: no browser).
	Open func(authURL string)
	// Paste, when set, is read for the address the browser was sent back
	// to, pasted by the user (a machine without a browser).
	Paste io.Reader
}

// Run signs in: it asks the server (one request, as the MCP client would
// send it), and on its 401 runs the SDK's authorization code flow:
// protected resource and authorization server metadata, the client
// (pre-registered, else dynamic registration), PKCE with the resource
// indicator, the browser sent to the authorization page, and the answer
// taken at a one-time loopback address (or pasted). The tokens are kept
// under Key. Every request but the first goes through Client.
func (l Login) Run(ctx context.Context) (State, error) {
	ctx, cancel := context.WithTimeout(ctx, LoginTimeout)
	defer cancel()
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", l.CallbackPort))
	if err != nil {
		return State{}, fmt.Errorf("could not listen on this machine for the sign-in's answer: %v; free the port or change the server's oauth callbackPort", err)
	}
	defer ln.Close()
	redirect := fmt.Sprintf("http://127.0.0.1:%d/callback", ln.Addr().(*net.TCPAddr).Port)
	if l.CallbackPort != 0 {
		redirect = fmt.Sprintf("http://localhost:%d/callback", l.CallbackPort) // as Claude Code registers it
	}
	hc := Client(l.URL, l.Private)
	var kept *config.MCPToken
	var resource string
	before, _ := config.LoadMCPTokens(l.Home)
	had := before[l.Key]
	cfg := &auth.AuthorizationCodeHandlerConfig{
		// Ask again for what was granted, and for what the server said
		// it lacked (insufficient_scope), beside what it advertises.
		ScopeFilter:         func(found []string) []string { return union(union(found, had.Scopes), had.Wanted) },
		RedirectURL:         redirect,
		RequestRefreshToken: true,
		Client:              hc,
		AuthorizationCodeFetcher: func(ctx context.Context, a *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			u, err := url.Parse(a.URL)
			if err != nil {
				return nil, fmt.Errorf("the server's authorization address is not a URL: %v", err)
			}
			if err := schemeAllowed(u, localHTTP(l.URL)); err != nil {
				return nil, err
			}
			resource = u.Query().Get("resource")
			return l.await(ctx, ln, a.URL)
		},
		NewTokenSource: func(_ context.Context, c *oauth2.Config, t *oauth2.Token) (oauth2.TokenSource, error) {
			kept = &config.MCPToken{
				URL: l.URL, AccessToken: t.AccessToken, TokenType: t.TokenType, RefreshToken: t.RefreshToken, Expiry: t.Expiry,
				Scopes: c.Scopes, ClientID: c.ClientID, ClientSecret: c.ClientSecret, TokenURL: c.Endpoint.TokenURL, AuthStyle: int(c.Endpoint.AuthStyle),
			}
			return oauth2.StaticTokenSource(t), nil
		},
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "Pilot", RedirectURIs: []string{redirect}, TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		}},
	}
	if l.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: l.ClientMetadataURL}
	}
	if l.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: l.ClientID}
		if l.ClientSecret != "" { // sent as the authorization server's metadata says (basic or post)
			cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: l.ClientSecret}
		}
	}
	h, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		return State{}, fmt.Errorf("the sign-in could not be set up: %v; check the server's oauth entry and %s (an https address with a path)", err, ClientMetadataEnv)
	}
	req, resp, err := l.ask(ctx)
	if err != nil {
		return State{}, err
	}
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		resp.Body.Close()
		return State{}, fmt.Errorf("%s answered without asking for a sign-in (HTTP %d): it needs none", l.Name, resp.StatusCode)
	}
	if err := h.Authorize(ctx, req, resp); err != nil {
		if ctx.Err() != nil {
			return State{}, fmt.Errorf("the sign-in to %s was not finished within %s; run the command again", l.Name, LoginTimeout)
		}
		return State{}, fmt.Errorf("the sign-in to %s failed: %v", l.Name, err)
	}
	if kept == nil {
		return State{}, fmt.Errorf("the sign-in to %s gave no token; run the command again", l.Name)
	}
	kept.Resource = resource
	if err := config.SaveMCPToken(l.Home, l.Key, kept); err != nil {
		return State{}, fmt.Errorf("the sign-in to %s worked but could not be kept: %v; check that PILOT_HOME is writable", l.Name, err)
	}
	return State{SignedIn: true, Expiry: kept.Expiry, Refresh: kept.RefreshToken != ""}, nil
}

// probes are the requests an MCP client starts a session with: a server
// may let initialize (and its notification) through without a token and
// ask for one only from the first request that uses the session.
var probes = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"pilot","version":"sign-in"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
}

// negotiated finds the protocol version in initialize's answer (JSON or
// an SSE event carrying it).
var negotiated = regexp.MustCompile(`"protocolVersion"\s*:\s*"([0-9a-zA-Z-]{1,20})"`)

// ask sends the server the requests an MCP client starts with, without a
// token, with the configured headers, until one is answered 401 or 403
// (its WWW-Authenticate names the metadata) or another error, or the
// last is answered: that answer is returned. An SSE server's first
// request opens its stream: that one alone is sent.
func (l Login) ask(ctx context.Context) (*http.Request, *http.Response, error) {
	// The server's own address, as its sessions reach it; a redirect is
	// its answer, not followed.
	probe := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var session, version string
	for i := 0; ; i++ {
		method, body, accept := http.MethodPost, probes[i], "application/json, text/event-stream"
		if l.SSE {
			method, body, accept = http.MethodGet, "", "text/event-stream"
		}
		req, err := http.NewRequestWithContext(ctx, method, l.URL, strings.NewReader(body))
		if err != nil {
			return nil, nil, fmt.Errorf("the server's URL %s is not usable: %v; fix it with pilot mcp add", l.URL, err)
		}
		for k, v := range l.Headers {
			req.Header.Set(k, v)
		}
		if !l.SSE {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Accept", accept)
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		if version != "" {
			req.Header.Set("Mcp-Protocol-Version", version)
		}
		resp, err := probe.Do(req)
		if err != nil {
			return nil, nil, fmt.Errorf("could not reach %s: %v; check its URL and your network", l.Name, err)
		}
		if resp.StatusCode >= 300 || l.SSE || i == len(probes)-1 {
			return req, resp, nil
		}
		answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
		if i == 0 {
			session = resp.Header.Get("Mcp-Session-Id")
			if m := negotiated.FindSubmatch(answer); m != nil {
				version = string(m[1])
			}
		}
	}
}

// await shows the authorization address, opens the browser, and returns
// the first answer: the browser's at the loopback listener, or the
// address the user pastes. The listener answers once and closes.
func (l Login) await(ctx context.Context, ln net.Listener, authURL string) (*auth.AuthorizationResult, error) {
	l.Show(authURL)
	if l.Open != nil {
		l.Open(authURL)
	}
	got := make(chan answer, 2)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		a := parseAnswer(r.URL.Query())
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if a.err != nil {
			fmt.Fprintln(w, "The sign-in did not work; see Pilot for why. You can close this tab.")
		} else {
			fmt.Fprintln(w, "Signed in; you can close this tab and go back to Pilot.")
		}
		got <- a
	})}
	go func() { _ = srv.Serve(ln) }()
	defer func() { // the browser gets its page before the listener goes
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}()
	if l.Paste != nil {
		go func() { got <- readPasted(l.Paste) }()
	}
	select {
	case a := <-got:
		return a.res, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type answer struct {
	res *auth.AuthorizationResult
	err error
}

// parseAnswer reads the authorization server's answer (RFC 6749 §4.1.2).
func parseAnswer(q url.Values) answer {
	if e := q.Get("error"); e != "" {
		return answer{err: fmt.Errorf("the authorization server refused the sign-in (%s)", visibleWord(e))}
	}
	if q.Get("code") == "" {
		return answer{err: errors.New("the answer has no authorization code; sign in again")}
	}
	return answer{res: &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}}
}

// readPasted reads one line: the address the browser was sent back to.
func readPasted(r io.Reader) answer {
	var b strings.Builder
	buf := make([]byte, 1)
	for b.Len() < 8192 {
		n, err := r.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				break
			}
			b.WriteByte(buf[0])
		}
		if err != nil {
			break
		}
	}
	u, err := url.Parse(strings.TrimSpace(b.String()))
	if err != nil || u.RawQuery == "" {
		return answer{err: errors.New("what was pasted is not the address the browser was sent back to (it starts with http://127.0.0.1 and has ?code=); run the command again")}
	}
	return parseAnswer(u.Query())
}
