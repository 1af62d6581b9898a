package service

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"pilot/backend/internal/mcptest"
	"pilot/backend/mcp"
	"pilot/backend/permission"
	"pilot/backend/wire"
)

// TestMCPSignInFromTheWindow: the window's methods. A server that needs a
// sign-in says so on its row (NeedsSignIn); MCPSignIn opens the browser
// on the authorization page and, once the browser comes back, the server
// restarts signed in; MCPSignOut forgets the sign-in and the row says so
// again. The window is told how each sign-in ended (mcp:updated's
// signIn): refused, cancelled (MCPCancelSignIn), signed in. The
// authorization server is on loopback, reached because an allow network
// rule of the project names 127.0.0.1.
func TestMCPSignInFromTheWindow(t *testing.T) {
	t.Parallel()
	o := mcptest.NewOAuth()
	defer o.Close()
	home, dir := t.TempDir(), t.TempDir()
	if err := mcp.WriteScope(home, "", mcp.ScopeUser, mcp.File{Servers: map[string]mcp.Server{"hosted": {Type: "http", URL: o.MCPURL()}}}); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PILOT_PROJECT": dir, "BROWSER": "true"} // a browser that opens nothing: the test follows the page itself
	w, err := Open(context.Background(), Options{Home: home, Log: discardLog(), Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ends := signInEnds{c: make(chan wire.MCPSignInEnded, 8)}
	w.SetEmitter(ends)
	if _, err := w.Rules.Add(context.Background(), mustProject(t, w, dir), permission.NetworkTool, "127.0.0.1", "allow"); err != nil {
		t.Fatal(err)
	}
	w.MCP.WindowReady()
	if s := waitServer(t, w, "hosted", "failed"); !s.NeedsSignIn || s.SignIn != "needs sign-in" {
		t.Fatalf("before the sign-in: %+v", s)
	}
	// Refused at the authorization page: the row says so.
	started, err := w.MCP.SignIn("hosted")
	if err != nil {
		t.Fatal(err)
	}
	back, err := mcptest.SentBack(started.Address)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(back)
	u.RawQuery = url.Values{"error": {"access_denied"}, "state": {u.Query().Get("state")}}.Encode()
	if resp, err := http.Get(u.String()); err == nil {
		resp.Body.Close()
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		s := waitServer(t, w, "hosted", "failed")
		if strings.Contains(s.Error, "refused the sign-in (access_denied)") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the refusal is not on the row: %+v", s)
		}
	}
	if end := ends.next(t); end.Server != "hosted" || end.Cancelled || !strings.Contains(end.Error, "access_denied") {
		t.Fatalf("the refusal told the window: %+v", end)
	}
	// Cancelled while it waits for the browser.
	if _, err := w.MCP.SignIn("hosted"); err != nil {
		t.Fatal(err)
	}
	if err := w.MCP.CancelSignIn("hosted"); err != nil {
		t.Fatal(err)
	}
	if end := ends.next(t); end.Server != "hosted" || !end.Cancelled || end.Error != "" {
		t.Fatalf("the cancel told the window: %+v", end)
	}

	started, err = w.MCP.SignIn("hosted")
	if err != nil || !strings.HasPrefix(started.Address, o.URL+"/authorize?") {
		t.Fatalf("sign-in: %+v, %v", started, err)
	}
	resp, err := http.Get(started.Address) // the browser: the page sends it back to Pilot
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if end := ends.next(t); end.Server != "hosted" || end.Cancelled || end.Error != "" {
		t.Fatalf("the sign-in told the window: %+v", end)
	}
	if s := waitServer(t, w, "hosted", "ready"); s.NeedsSignIn || !strings.HasPrefix(s.SignIn, "signed in") || len(s.Tools) == 0 {
		t.Fatalf("after the sign-in: %+v", s)
	}
	if err := w.MCP.SignOut("hosted"); err != nil {
		t.Fatal(err)
	}
	if s := waitServer(t, w, "hosted", "failed"); !s.NeedsSignIn {
		t.Fatalf("after the sign-out: %+v", s)
	}
}

// signInEnds is the window: it keeps how each sign-in ended.
type signInEnds struct{ c chan wire.MCPSignInEnded }

func (e signInEnds) Emit(name string, payload any) {
	if p, ok := payload.(wire.MCPUpdatedPayload); ok && name == wire.MCPUpdated && p.SignIn != nil {
		e.c <- *p.SignIn
	}
}

// next is how the next sign-in ended; the test fails when none is told.
func (e signInEnds) next(t *testing.T) wire.MCPSignInEnded {
	t.Helper()
	select {
	case end := <-e.c:
		return end
	case <-time.After(20 * time.Second):
		t.Fatal("the window was not told how the sign-in ended")
		return wire.MCPSignInEnded{}
	}
}
