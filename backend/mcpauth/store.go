// Package mcpauth signs Pilot in to MCP servers that need OAuth (the
// authorization flow of the MCP specification, 2025-11-25, through the
// official SDK's auth package), keeps their tokens as secrets beside the
// API keys (config.MCPTokensFile), refreshes them, and tells a server that
// needs a new sign-in in one sentence naming the command to run.
//
// Nothing is fetched from a server's OAuth metadata until the user asks
// to sign in (Login); a running server only uses, refreshes and reports
// the tokens kept (Handler).
package mcpauth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"pilot/backend/config"
)

// Key is the key of a server's sign-in in the token store: the server's
// URL, and for a project's server (scope "project", from its .mcp.json)
// the project folder too. So a project whose .mcp.json names the URL of a
// server the user signed in to never uses that sign-in: it needs its own.
// A user's server (PILOT_HOME's mcp.json) is the user's in every project,
// and so is its sign-in.
func Key(scope, project, serverURL string) string {
	if scope == "project" {
		return "project " + project + " " + serverURL
	}
	return "user " + serverURL
}

// State is a server's sign-in as `pilot mcp list` and Settings show it.
type State struct {
	SignedIn bool      `json:"signedIn"`
	Expiry   time.Time `json:"expiry,omitzero"`   // of the access token; zero: none given
	Refresh  bool      `json:"refresh,omitempty"` // a refresh token is kept
}

// NeedsSignIn is a server's sign-in state when it has none it accepts.
const NeedsSignIn = "needs sign-in"

// Describe says the state in words: NeedsSignIn, "signed in (expires
// 2026-11-30 10:00 UTC)" or "signed in".
func (s State) Describe() string {
	switch {
	case !s.SignedIn:
		return NeedsSignIn
	case s.Expiry.IsZero():
		return "signed in"
	case s.Refresh:
		return "signed in (renews " + s.Expiry.UTC().Format("2006-01-02 15:04 UTC") + ")"
	}
	return "signed in (expires " + s.Expiry.UTC().Format("2006-01-02 15:04 UTC") + ")"
}

// Lookup returns the sign-in state kept under key in home.
func Lookup(home, key string) State {
	all, err := config.LoadMCPTokens(home)
	t, ok := all[key]
	if err != nil || !ok || t.AccessToken == "" {
		return State{}
	}
	return State{SignedIn: true, Expiry: t.Expiry, Refresh: t.RefreshToken != ""}
}

// Logout forgets the sign-in kept under key; it reports whether there was one.
func Logout(home, key string) (bool, error) {
	all, err := config.LoadMCPTokens(home)
	if _, ok := all[key]; !ok || err != nil {
		return false, err
	}
	return true, config.SaveMCPToken(home, key, nil)
}

// tokenAnswer is a token endpoint's answer (RFC 6749 §5.1).
type tokenAnswer struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	RefreshToken string `json:"refresh_token"`
	ExpiresIn    int64  `json:"expires_in"`
	Scope        string `json:"scope"`
	Error        string `json:"error"`
}

// refresh trades t's refresh token for new tokens at its token endpoint,
// with the resource indicator (RFC 8707) the tokens are for, as the MCP
// specification asks of every token request. A refresh token the answer
// leaves out is kept (RFC 6749 §6).
func refresh(hc *http.Client, t config.MCPToken) (config.MCPToken, error) {
	v := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {t.RefreshToken}}
	if t.Resource != "" {
		v.Set("resource", t.Resource)
	}
	basic := t.ClientSecret != "" && oauth2.AuthStyle(t.AuthStyle) != oauth2.AuthStyleInParams
	if !basic {
		v.Set("client_id", t.ClientID)
		if t.ClientSecret != "" {
			v.Set("client_secret", t.ClientSecret)
		}
	}
	req, err := http.NewRequest(http.MethodPost, t.TokenURL, strings.NewReader(v.Encode()))
	if err != nil {
		return t, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if basic {
		req.SetBasicAuth(url.QueryEscape(t.ClientID), url.QueryEscape(t.ClientSecret))
	}
	resp, err := hc.Do(req)
	if err != nil {
		return t, err
	}
	defer resp.Body.Close()
	var a tokenAnswer
	if err := json.NewDecoder(http.MaxBytesReader(nil, resp.Body, 1<<20)).Decode(&a); err != nil || resp.StatusCode != http.StatusOK || a.AccessToken == "" {
		if a.Error != "" {
			return t, fmt.Errorf("the authorization server refused to renew the sign-in (%s)", visibleWord(a.Error))
		}
		return t, fmt.Errorf("the authorization server did not renew the sign-in (HTTP %d)", resp.StatusCode)
	}
	t.AccessToken, t.TokenType = a.AccessToken, a.TokenType
	if a.RefreshToken != "" {
		t.RefreshToken = a.RefreshToken
	}
	t.Expiry = time.Time{}
	if a.ExpiresIn > 0 {
		t.Expiry = time.Now().Add(time.Duration(a.ExpiresIn) * time.Second)
	}
	if a.Scope != "" {
		t.Scopes = strings.Fields(a.Scope)
	}
	return t, nil
}

// visibleWord keeps an OAuth error code as the spec allows it (printable
// ASCII without quote or backslash), at most 64 characters; anything
// else is not the server's to print.
func visibleWord(s string) string {
	if len(s) > 64 || strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r > 0x7e || r == '"' || r == '\\' }) >= 0 {
		return "an error code that is not printed"
	}
	return s
}
