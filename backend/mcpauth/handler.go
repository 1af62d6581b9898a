package mcpauth

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"pilot/backend/config"
)

// SignInError says a server needs the user to sign in (again).
type SignInError struct {
	Server  string // the server's name
	Why     string // "needs a sign-in", "its sign-in has expired", ...
	Project string // the project folder whose server it is; "" for none
}

func (e *SignInError) Error() string {
	cmd := "pilot mcp login " + e.Server
	if e.Project != "" {
		cmd += " --project " + e.Project
	}
	return fmt.Sprintf("the MCP server %s %s: run `%s`", e.Server, e.Why, cmd)
}

// Handler is the SDK's auth.OAuthHandler of a running server: it sends the
// kept access token, renews it with the refresh token when it expires (and
// keeps the new one), and answers a 401 or an insufficient_scope 403 with
// a *SignInError: a sign-in happens only when the user asks (Login).
type Handler struct {
	home, key, name, project string
	client                   *http.Client

	mu  sync.Mutex
	tok *config.MCPToken // nil until loaded; AccessToken "" when none
}

var _ auth.OAuthHandler = (*Handler)(nil)

// NewHandler is the handler of the server name of project ("" for none)
// whose sign-in is kept under key in home; client makes the refresh
// requests (Client).
func NewHandler(home, key, name, project string, client *http.Client) *Handler {
	return &Handler{home: home, key: key, name: name, project: project, client: client}
}

// needs is the SignInError saying why.
func (h *Handler) needs(why string) *SignInError {
	return &SignInError{Server: h.name, Why: why, Project: h.project}
}

// TokenSource is the handler itself once a sign-in is kept, else nil (the
// requests go without a token, and the server's 401 says what it wants).
func (h *Handler) TokenSource(context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.load() == nil {
		return nil, nil
	}
	return h, nil
}

// Token is the kept access token, renewed first when it expires within a
// minute.
func (h *Handler) Token() (*oauth2.Token, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.load()
	if t == nil {
		return nil, h.needs("needs a sign-in")
	}
	if !t.Expiry.IsZero() && time.Until(t.Expiry) < time.Minute {
		if err := h.renew(); err != nil {
			return nil, err
		}
		t = h.tok
	}
	return &oauth2.Token{AccessToken: t.AccessToken, TokenType: "Bearer", Expiry: t.Expiry}, nil
}

// Authorize answers the server's 401 or 403. A 401 with a kept refresh
// token renews the tokens once (the access token may have been revoked
// early) and has the request sent again; otherwise, and for a 403 whose
// error is insufficient_scope, the user must sign in. Another 403 is
// the server's refusal, left to the request to report.
func (h *Handler) Authorize(_ context.Context, _ *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	challenges, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if resp.StatusCode == http.StatusForbidden {
		if bearerError(challenges) != "insufficient_scope" {
			return nil
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if t := h.load(); t != nil {
			t.Wanted = union(t.Wanted, strings.Fields(bearerParam(challenges, "scope")))
			_ = config.SaveMCPToken(h.home, h.key, t) // the next sign-in asks for them; without, it asks for what the server advertises
		}
		return h.needs("asks for more access than its sign-in gave (insufficient_scope)")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.load()
	switch {
	case t == nil:
		return h.needs("needs a sign-in")
	case t.RefreshToken == "":
		return h.needs("no longer accepts its sign-in (expired or revoked)")
	}
	return h.renew()
}

// load reads the kept token once; nil when there is none. Under mu.
func (h *Handler) load() *config.MCPToken {
	if h.tok == nil {
		all, _ := config.LoadMCPTokens(h.home)
		t := all[h.key]
		h.tok = &t
	}
	if h.tok.AccessToken == "" {
		return nil
	}
	return h.tok
}

// renew refreshes the kept tokens and keeps the new ones. Under mu.
func (h *Handler) renew() error {
	if h.tok.RefreshToken == "" {
		return h.needs("has a sign-in that expired")
	}
	var refused error
	t, err := config.UpdateMCPToken(h.home, h.key, func(kept config.MCPToken) (*config.MCPToken, bool, error) {
		if kept.AccessToken != h.tok.AccessToken && kept.AccessToken != "" && time.Until(kept.Expiry) > time.Minute {
			return nil, false, nil // another Pilot (the window, a pilot -p) renewed it already: adopt it
		}
		t, err := refresh(h.client, *h.tok)
		if err != nil {
			refused = err
			return nil, false, err
		}
		return &t, true, nil
	})
	switch {
	case refused != nil:
		return h.needs("could not renew its sign-in (" + refused.Error() + ")")
	case err != nil:
		return fmt.Errorf("the renewed sign-in of %s could not be kept: %v; check that PILOT_HOME is writable", h.name, err)
	}
	h.tok = &t
	return nil
}

// bearerError is the error parameter of the Bearer challenge.
func bearerError(cs []oauthex.Challenge) string { return bearerParam(cs, "error") }

// bearerParam is a parameter of the Bearer challenge.
func bearerParam(cs []oauthex.Challenge, name string) string {
	for _, c := range cs {
		if c.Scheme == "bearer" {
			return c.Params[name]
		}
	}
	return ""
}

// union is a with the scopes of b it lacks, in order.
func union(a, b []string) []string {
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}
