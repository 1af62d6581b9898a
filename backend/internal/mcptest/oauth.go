package mcptest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// OAuth is an MCP server that needs a sign-in, and its authorization
// server, on one loopback httptest server: the test server (New) at /mcp
// (Streamable HTTP) and at /sse (HTTP+SSE), each behind the SDK's auth.RequireBearerToken, which answers 401 with a
// WWW-Authenticate naming its protected resource metadata (RFC 9728) at
// /.well-known/oauth-protected-resource/mcp; the authorization server's
// metadata (RFC 8414) at /.well-known/oauth-authorization-server; dynamic
// client registration (RFC 7591) at /register; /authorize, which signs in
// at once and sends the browser back with a code; and /token (the code
// with its PKCE verifier and resource indicator, and refresh tokens). The
// metadata documents follow the examples of RFC 9728 §3.2 and RFC 8414
// §3.2 with the fields MCP servers publish.
type OAuth struct {
	*httptest.Server
	mu       sync.Mutex
	codes    map[string]grant     // code → what it was issued for
	access   map[string]time.Time // access token → expiry
	refresh  map[string]grant     // refresh token → grant
	clients  map[string]string    // client id → redirect uri
	secrets  map[string]string    // client id → secret, for a confidential client
	logins   int                  // codes exchanged
	refreshs int                  // refresh grants answered
	open     bool                 // OpenInitialize
	cimd     string               // AcceptMetadataDocument
}

type grant struct {
	client, redirect, challenge, resource, scope string
}

// NewOAuth starts the servers; Close ends them.
func NewOAuth() *OAuth {
	o := &OAuth{codes: map[string]grant{}, access: map[string]time.Time{}, refresh: map[string]grant{}, clients: map[string]string{}, secrets: map[string]string{}}
	mux := http.NewServeMux()
	o.Server = httptest.NewServer(mux)
	for path, h := range map[string]http.Handler{
		"/mcp": sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return New() }, nil),
		"/sse": sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return New() }, nil),
	} {
		guarded := auth.RequireBearerToken(o.verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: o.URL + "/.well-known/oauth-protected-resource" + path})(h)
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			if o.opens(r) {
				h.ServeHTTP(w, r)
				return
			}
			guarded.ServeHTTP(w, r)
		})
		mux.HandleFunc("/.well-known/oauth-protected-resource"+path, func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, map[string]any{"resource": o.URL + path, "authorization_servers": []string{o.URL}, "scopes_supported": []string{"tools"}, "bearer_methods_supported": []string{"header"}})
		})
	}
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		cimd := o.cimd != ""
		o.mu.Unlock()
		writeJSON(w, 200, map[string]any{
			"issuer": o.URL, "authorization_endpoint": o.URL + "/authorize", "token_endpoint": o.URL + "/token", "registration_endpoint": o.URL + "/register",
			"response_types_supported": []string{"code"}, "grant_types_supported": []string{"authorization_code", "refresh_token"},
			"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"none", "client_secret_basic"},
			"scopes_supported": []string{"tools", "offline_access"}, "client_id_metadata_document_supported": cimd,
		})
	})
	mux.HandleFunc("/register", o.register)
	mux.HandleFunc("/authorize", o.authorize)
	mux.HandleFunc("/token", o.token)
	return o
}

// AcceptMetadataDocument makes the authorization server support client
// ID metadata documents (its metadata says so) and know the client whose
// document is at docURL, with the redirect redirect (the document is
// taken as read: the test has no https server to fetch it from).
func (o *OAuth) AcceptMetadataDocument(docURL, redirect string) {
	o.mu.Lock()
	o.cimd = docURL
	o.clients[docURL] = redirect
	o.mu.Unlock()
}

// OpenInitialize lets initialize and notifications through without a
// token, as some servers do (and the conformance suite's step-up
// scenario): the first request of the session asks for the sign-in.
func (o *OAuth) OpenInitialize() {
	o.mu.Lock()
	o.open = true
	o.mu.Unlock()
}

// opens reports whether r goes through without a token (OpenInitialize);
// it leaves r's body as it was.
func (o *OAuth) opens(r *http.Request) bool {
	o.mu.Lock()
	open := o.open
	o.mu.Unlock()
	if !open || r.Method != http.MethodPost {
		return false
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var m struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(body, &m)
	return m.Method == "initialize" || strings.HasPrefix(m.Method, "notifications/")
}

// MCPURL is the MCP server's address.
func (o *OAuth) MCPURL() string { return o.URL + "/mcp" }

// SSEURL is the address of the same server over HTTP+SSE (the 2024-11-05
// transport), behind the same sign-in.
func (o *OAuth) SSEURL() string { return o.URL + "/sse" }

// Expire makes every access token given so far expired: the MCP server
// answers them 401, and only a refresh brings a working one.
func (o *OAuth) Expire() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for t := range o.access {
		o.access[t] = time.Now().Add(-time.Hour)
	}
}

// Revoke withdraws every token given so far, access and refresh (as a
// user who revokes the app at the provider does): the MCP server answers
// 401 and no refresh cures it; only a new sign-in does.
func (o *OAuth) Revoke() {
	o.mu.Lock()
	defer o.mu.Unlock()
	clear(o.access)
	clear(o.refresh)
}

// Counts are the codes exchanged and the refreshes answered.
func (o *OAuth) Counts() (logins, refreshes int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.logins, o.refreshs
}

func (o *OAuth) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	exp, ok := o.access[token]
	if !ok || time.Now().After(exp) {
		return nil, fmt.Errorf("%w: unknown or expired token", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{Scopes: []string{"tools"}, Expiration: exp}, nil
}

// Register registers a client ahead, as a server's owner does for a
// client without dynamic registration, and returns its ID.
func (o *OAuth) Register(redirect string) string {
	id := secret("pre-")
	o.mu.Lock()
	o.clients[id] = redirect
	o.mu.Unlock()
	return id
}

// RegisterConfidential registers a confidential client ahead: the token
// endpoint wants its secret (client_secret_basic, RFC 6749 §2.3.1).
func (o *OAuth) RegisterConfidential(redirect string) (id, clientSecret string) {
	id, clientSecret = o.Register(redirect), secret("cs-")
	o.mu.Lock()
	o.secrets[id] = clientSecret
	o.mu.Unlock()
	return id, clientSecret
}

// SentBack is what a user without a browser at hand pastes: it asks for
// the authorization page authURL and returns the address the page sends
// the browser back to, unfollowed.
func SentBack(authURL string) (string, error) {
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(authURL)
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	return resp.Header.Get("Location"), nil
}

// MaybeBrowse is the browser of the tests: a test binary calls it first
// thing in TestMain, and when started with PILOT_MCP_TEST_BROWSER=1 (by a
// $BROWSER script) it opens the address it is given, follows the
// authorization page back to Pilot, and exits; otherwise it returns at
// once.
func MaybeBrowse() {
	if os.Getenv("PILOT_MCP_TEST_BROWSER") != "1" || len(os.Args) < 2 {
		return
	}
	resp, err := http.Get(os.Args[len(os.Args)-1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "test browser:", err)
		os.Exit(1)
	}
	resp.Body.Close()
	os.Exit(0)
}

// Clients is the number of clients registered, ahead or dynamically.
func (o *OAuth) Clients() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.clients)
}

func (o *OAuth) register(w http.ResponseWriter, r *http.Request) {
	var m struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	if json.NewDecoder(r.Body).Decode(&m) != nil || len(m.RedirectURIs) == 0 {
		writeJSON(w, 400, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	id := secret("client-")
	o.mu.Lock()
	o.clients[id] = m.RedirectURIs[0]
	o.mu.Unlock()
	writeJSON(w, 201, map[string]any{"client_id": id, "redirect_uris": m.RedirectURIs, "token_endpoint_auth_method": "none"})
}

// authorize signs in at once: it sends the browser back with a code, or
// with an error when the request is not one the client may make.
func (o *OAuth) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	o.mu.Lock()
	redirect, known := o.clients[q.Get("client_id")]
	o.mu.Unlock()
	if !known || redirect != q.Get("redirect_uri") {
		http.Error(w, "unknown client or redirect_uri", 400)
		return
	}
	back, _ := url.Parse(redirect)
	v := url.Values{"state": {q.Get("state")}}
	switch {
	case q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "":
		v.Set("error", "invalid_request")
	case q.Get("resource") != o.MCPURL() && q.Get("resource") != o.SSEURL():
		v.Set("error", "invalid_target")
	default:
		code := secret("code-")
		o.mu.Lock()
		o.codes[code] = grant{client: q.Get("client_id"), redirect: redirect, challenge: q.Get("code_challenge"), resource: q.Get("resource"), scope: q.Get("scope")}
		o.mu.Unlock()
		v.Set("code", code)
	}
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (o *OAuth) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, 400, map[string]string{"error": "invalid_request"})
		return
	}
	f := r.PostForm
	client, given := f.Get("client_id"), ""
	if u, p, ok := r.BasicAuth(); ok { // client_secret_basic, RFC 6749 §2.3.1
		client, _ = url.QueryUnescape(u)
		given, _ = url.QueryUnescape(p)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if want := o.secrets[client]; want != "" && given != want {
		writeJSON(w, 401, map[string]string{"error": "invalid_client"})
		return
	}
	var g grant
	switch f.Get("grant_type") {
	case "authorization_code":
		c, ok := o.codes[f.Get("code")]
		delete(o.codes, f.Get("code"))
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		if !ok || c.client != client || c.redirect != f.Get("redirect_uri") || base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge || f.Get("resource") != c.resource {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
		g = c
		o.logins++
	case "refresh_token":
		c, ok := o.refresh[f.Get("refresh_token")]
		if !ok || c.client != client || f.Get("resource") != c.resource {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
		delete(o.refresh, f.Get("refresh_token")) // rotated, as OAuth 2.1 asks of public clients
		g = c
		o.refreshs++
	default:
		writeJSON(w, 400, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	at, rt := secret("at-"), secret("rt-")
	o.access[at] = time.Now().Add(time.Hour)
	o.refresh[rt] = g
	writeJSON(w, 200, map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": 3600, "refresh_token": rt, "scope": g.scope})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// secret is a random token with a prefix.
func secret(prefix string) string { return prefix + rand.Text() }
