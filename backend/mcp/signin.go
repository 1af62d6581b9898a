package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	"golang.org/x/oauth2"

	"pilot/backend/mcpauth"
)

// SignInKey is the key of the sign-in of the server entry in the token
// store (mcpauth.Key): its URL, and its project for a project's server.
func SignInKey(project string, e Entry) string {
	return mcpauth.Key(e.Scope, project, e.Server.URL)
}

// oauth is the OAuth handler of an HTTP server's session: it sends the
// kept token, renews it, and turns a 401 into an *mcpauth.SignInError,
// which it remembers for server.call (watchedAuth). Its refreshes reach
// a private address only when a network rule of the project names the
// host (Options.Private).
func (s *server) oauth(url string) *watchedAuth {
	var private func(string) bool
	if p := s.h.opt.Private; p != nil {
		private = func(host string) bool { return p(s.h.project, host) }
	}
	a := &watchedAuth{Handler: mcpauth.NewHandler(s.h.opt.Home, SignInKey(s.h.project, s.entry), s.entry.Name, s.h.project, mcpauth.Client(url, private))}
	s.mu.Lock()
	s.auth = a
	s.mu.Unlock()
	return a
}

// watchedAuth is a session's OAuth handler that remembers the sign-in it
// last asked for: the SDK words a failed call's error as text, so
// server.call learns from here that the call failed for want of one.
type watchedAuth struct {
	*mcpauth.Handler
	wants atomic.Pointer[mcpauth.SignInError]
}

// Authorize is the handler's, remembering a sign-in it asks for.
func (a *watchedAuth) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	return a.watch(a.Handler.Authorize(ctx, req, resp))
}

// TokenSource is the handler's, remembering a sign-in its token asks for.
func (a *watchedAuth) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	ts, err := a.Handler.TokenSource(ctx)
	if ts == nil || err != nil {
		return ts, a.watch(err)
	}
	return watchedToken{a}, nil
}

// watch remembers err when it is a *mcpauth.SignInError, and returns it.
func (a *watchedAuth) watch(err error) error {
	if signIn := (*mcpauth.SignInError)(nil); errors.As(err, &signIn) {
		a.wants.Store(signIn)
	}
	return err
}

// taken is the sign-in asked for since the last call, forgotten now.
func (a *watchedAuth) taken() *mcpauth.SignInError {
	if a == nil {
		return nil
	}
	return a.wants.Swap(nil)
}

// watchedToken is the handler as its session's token source.
type watchedToken struct{ a *watchedAuth }

func (t watchedToken) Token() (*oauth2.Token, error) {
	tok, err := t.a.Handler.Token()
	return tok, t.a.watch(err)
}

// signInState is Status.SignIn: mcpauth.NeedsSignIn when the server
// asked for a sign-in (again), else the kept sign-in in words, else "".
// Under s.mu.
func (s *server) signInState() string {
	switch {
	case !signsIn(s.entry.Server.Transport()):
		return ""
	case s.signIn != nil:
		return mcpauth.NeedsSignIn
	}
	if st := mcpauth.Lookup(s.h.opt.Home, SignInKey(s.h.project, s.entry)); st.SignedIn {
		return st.Describe()
	}
	return ""
}

// signInWhy is Status.SignInWhy. Under s.mu.
func (s *server) signInWhy() string {
	if s.signIn == nil {
		return ""
	}
	return s.signIn.Why
}

// SignIn is the sign-in of the server name of project (mcpauth.Login.Run
// runs it): its URL and headers expanded as a session sends them, its
// pre-registered client, and where its tokens are kept. Only an HTTP or SSE
// server can sign in, and a project's server only once its .mcp.json is
// trusted: nothing is fetched for a file the user has not looked at.
// Nothing is started.
func (p *Pool) SignIn(project, name string) (mcpauth.Login, error) {
	project = cleanProject(project)
	e, err := httpEntry(p.opt.Home, project, name)
	if err != nil {
		return mcpauth.Login{}, err
	}
	if err := Check(e.Server, e.Scope, EnvLookup, p.opt.Env); err != nil {
		return mcpauth.Login{}, err
	}
	x, _ := expandAll(e.Server, EnvLookup)
	l := mcpauth.Login{Home: p.opt.Home, Key: SignInKey(project, e), Name: name, URL: x.URL, Headers: x.Headers, SSE: e.Server.Transport() == TypeSSE}
	l.ClientMetadataURL, _ = EnvLookup(mcpauth.ClientMetadataEnv)
	if o := e.Server.OAuth; o != nil {
		var missing []string
		l.ClientID, l.CallbackPort = o.ClientID, o.CallbackPort
		l.ClientSecret = ExpandString(o.ClientSecret, EnvLookup, &missing)
		if len(missing) > 0 {
			return mcpauth.Login{}, fmt.Errorf("the oauth clientSecret of %s names %s, which is not set: set it in the environment and run the command again", name, strings.Join(missing, ", "))
		}
	}
	if private := p.opt.Private; private != nil {
		l.Private = func(host string) bool { return private(project, host) }
	}
	return l, nil
}

// SignOut forgets the sign-in of the server name of project; it reports
// whether there was one.
func (p *Pool) SignOut(project, name string) (bool, error) {
	project = cleanProject(project)
	e, err := httpEntry(p.opt.Home, project, name)
	if err != nil {
		return false, err
	}
	return mcpauth.Logout(p.opt.Home, SignInKey(project, e))
}

// signsIn reports whether a server of transport t may sign in (OAuth
// is HTTP's: a stdio server has its credentials in its environment).
func signsIn(t string) bool { return t == TypeHTTP || t == TypeSSE }

// httpEntry is the configured HTTP server name of project, refused with
// a sentence when it is not one that may sign in.
func httpEntry(home, project, name string) (Entry, error) {
	set, err := Load(home, project)
	if err != nil {
		return Entry{}, err
	}
	for _, e := range set.Entries {
		if e.Name != name {
			continue
		}
		if t := e.Server.Transport(); !signsIn(t) {
			return e, fmt.Errorf("%s uses the %s transport; only an HTTP or SSE server signs in with OAuth", name, t)
		}
		if trusted, _ := Trusted(home, project, set.ProjectHash); e.Scope == ScopeProject && !trusted {
			return e, fmt.Errorf("%s comes from the project's %s, which you have not trusted yet: review it with `pilot mcp trust` first", name, ProjectFile)
		}
		return e, nil
	}
	return Entry{}, fmt.Errorf("no MCP server called %q (pilot mcp list shows them)", name)
}

// Restart starts the server name again (after a sign-in or a sign-out,
// so it uses what is kept now); a server not running is left as it is.
func (h *Hub) Restart(name string) {
	h.mu.Lock()
	old := h.servers[name]
	if h.closed || old == nil || old.cancel == nil {
		h.mu.Unlock()
		return
	}
	s := &server{entry: old.entry, h: h, state: Starting}
	h.servers[name] = s
	h.mu.Unlock()
	old.stop()
	s.start(h.ctx)
}

// SignInFailed shows why the sign-in of the server name failed as its
// error, while it waits for one.
func (h *Hub) SignInFailed(name string, err error) {
	h.mu.Lock()
	s := h.servers[name]
	h.mu.Unlock()
	if s == nil {
		return
	}
	s.mu.Lock()
	waiting := s.state == Failed && s.signIn != nil
	if waiting {
		s.err = err.Error()
	}
	s.mu.Unlock()
	if waiting {
		h.changed(s)
	}
}

// waitsForSignIn is the *mcpauth.SignInError of the server whose tool
// name is (mcp__<server>__<tool>) when that server waits for a sign-in,
// else nil: a call of a tool the model saw before the server stopped
// accepting its sign-in says what would cure it.
func (h *Hub) waitsForSignIn(name string) error {
	var found *mcpauth.SignInError
	h.eachServer(func(s *server) {
		if s.signIn != nil && strings.HasPrefix(name, ToolName(s.entry.Name, "")) {
			found = s.signIn
		}
	})
	if found == nil {
		return nil
	}
	return found
}
