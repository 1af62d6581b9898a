package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"pilot/backend/internal/mcptest"
	"pilot/backend/mcpauth"
)

// TestServerNeedingSignIn: an HTTP server that answers 401 fails at once
// with the sentence naming `pilot mcp login`, without a restart loop and
// without fetching any OAuth metadata; once signed in, its tools work,
// and a token it stops accepting is renewed.
func TestServerNeedingSignIn(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{TypeHTTP, TypeSSE} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			o, opt := hosted(t, transport)
			h, _ := Open("", opt)
			st := waitState(t, h, "hosted", Failed)
			h.Close()
			if st.SignIn != mcpauth.NeedsSignIn || st.Error != "the MCP server hosted needs a sign-in: run `pilot mcp login hosted`" || st.Restarts != 0 {
				t.Fatalf("before a sign-in: %+v", st)
			}
			if logins, refreshes := o.Counts(); logins+refreshes != 0 {
				t.Fatal("the authorization server was used before the user asked to sign in")
			}
			signIn(t, opt)
			h, _ = Open("", opt)
			defer h.Close()
			st = waitState(t, h, "hosted", Ready)
			if !strings.HasPrefix(st.SignIn, "signed in (renews ") {
				t.Errorf("signed in: %q", st.SignIn)
			}
			o.Expire()
			r, err := h.Call(context.Background(), "mcp__hosted__echo", json.RawMessage(`{"text":"hi"}`))
			if err != nil || r.Text != "echo: hi" {
				t.Fatalf("call after expiry: %v %+v", err, r)
			}
			if _, refreshes := o.Counts(); refreshes != 1 {
				t.Errorf("%d refreshes, want 1", refreshes)
			}
		})
	}
}

// hosted is the user's server "hosted" (over transport) that needs a sign-in, and
// the options of a hub that may reach it on loopback.
func hosted(t *testing.T, transport string) (*mcptest.OAuth, Options) {
	o := mcptest.NewOAuth()
	t.Cleanup(o.Close)
	home := t.TempDir()
	addr := map[string]string{TypeHTTP: o.MCPURL(), TypeSSE: o.SSEURL()}[transport]
	writeUser(t, home, map[string]Server{"hosted": {Type: transport, URL: addr}})
	opt := testOptions(home)
	opt.Private = func(_, host string) bool { return host == "127.0.0.1" }
	return o, opt
}

// signIn signs in to "hosted" as `pilot mcp login hosted` does.
func signIn(t *testing.T, opt Options) {
	login, err := NewPool(opt).SignIn("", "hosted")
	if err != nil {
		t.Fatal(err)
	}
	login.Show, login.Open = func(string) {}, func(u string) { go get(t, u) }
	if _, err := login.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// get is the browser: it follows the authorization page back to Pilot.
func get(t *testing.T, u string) {
	resp, err := http.Get(u)
	if err != nil {
		t.Errorf("browser: %v", err)
		return
	}
	resp.Body.Close()
}

// TestCallNeedingSignIn: a call the server refuses for want of a sign-in
// fails with the *mcpauth.SignInError (what the window's card recognises),
// and the server's row says why until the user signs in again: a revoked
// sign-in, which no refresh cures, while the server runs; and a tool of a
// server that never signed in, called by a model that saw it before.
func TestCallNeedingSignIn(t *testing.T) {
	t.Parallel()
	o, opt := hosted(t, TypeHTTP)
	h, _ := Open("", opt)
	waitState(t, h, "hosted", Failed)
	refused := (*mcpauth.SignInError)(nil)
	if _, err := h.Call(context.Background(), "mcp__hosted__echo", json.RawMessage(`{}`)); !errors.As(err, &refused) || refused.Server != "hosted" {
		t.Fatalf("a call before the sign-in: %v", err)
	}
	h.Close()

	signIn(t, opt)
	h, _ = Open("", opt)
	defer h.Close()
	if st := waitState(t, h, "hosted", Ready); st.SignInWhy != "" {
		t.Fatalf("signed in: %+v", st)
	}
	o.Revoke()
	_, err := h.Call(context.Background(), "mcp__hosted__echo", json.RawMessage(`{"text":"hi"}`))
	if !errors.As(err, &refused) || refused.Server != "hosted" {
		t.Fatalf("a call after the revocation: %v", err)
	}
	st := waitState(t, h, "hosted", Ready)
	if st.SignIn != mcpauth.NeedsSignIn || !strings.Contains(st.SignInWhy, "could not renew its sign-in") {
		t.Fatalf("the row after the revocation: %+v", st)
	}
}
