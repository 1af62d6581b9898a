package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pilot/backend/childenv"
	"pilot/backend/mcpauth"
)

// State is where a server is.
type State string

const (
	Starting State = "starting"
	Ready    State = "ready"
	Failed   State = "failed"
	Disabled State = "disabled"
)

// ToolInfo is one tool of a server as the model sees it.
type ToolInfo struct {
	Name        string          `json:"name"` // mcp__<server>__<tool>
	Server      string          `json:"server"`
	Tool        string          `json:"tool"` // the server's own name
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
}

// Status is what Settings and `pilot mcp list` show of a server.
type Status struct {
	Name      string       `json:"name"`
	Scope     string       `json:"scope"`
	Transport string       `json:"transport"`
	Display   string       `json:"display"` // the command it runs or the URL
	State     State        `json:"state"`
	Error     string       `json:"error,omitempty"`
	Tools     []ToolInfo   `json:"tools"`
	Prompts   []PromptInfo `json:"prompts"`
	Stderr    []string     `json:"stderr"`
	Restarts  int          `json:"restarts"`
	Server    Server       `json:"server"`
	SignIn    string       `json:"signIn,omitempty"` // wire.MCPStatus.SignIn
	// SignInWhy says why the server wants a sign-in, as its SignInError
	// does ("needs a sign-in", "no longer accepts its sign-in (expired or
	// revoked)", ...); "" when it wants none. For the window's row
	// (wire.MCPServer); `pilot mcp list` prints Error, which says it.
	SignInWhy string `json:"-"`
}

// server supervises one configured server.
type server struct {
	entry  Entry
	h      *Hub
	stderr ring

	mu        sync.Mutex
	state     State
	err       string
	tools     []ToolInfo
	prompts   []PromptInfo
	resources []ResourceInfo
	sess      *sdk.ClientSession
	restarts  int
	signIn    *mcpauth.SignInError // the server asked for a sign-in (at start, or answering a call); nil: it did not
	auth      *watchedAuth         // the OAuth handler of an HTTP server's session
	calls     []*running           // its tool calls under way, oldest first (elicit)

	cancel context.CancelFunc
	done   chan struct{}
}

func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Status{
		Name: s.entry.Name, Scope: s.entry.Scope, Transport: s.entry.Server.Transport(),
		Display: Display(s.entry.Server, EnvLookup), State: s.state, Error: s.err,
		Tools: append([]ToolInfo{}, s.tools...), Prompts: append([]PromptInfo{}, s.prompts...), Stderr: s.stderr.last(), Restarts: s.restarts, Server: s.entry.Server,
		SignIn: s.signInState(), SignInWhy: s.signInWhy(),
	}
}

func (s *server) set(state State, err string, sess *sdk.ClientSession, tools []ToolInfo) {
	s.mu.Lock()
	s.state, s.err, s.sess, s.tools = state, err, sess, tools
	s.mu.Unlock()
	s.h.changed(s)
}

// start runs the supervisor until stop.
func (s *server) start(parent context.Context) {
	ctx, cancel := context.WithCancel(parent)
	s.cancel, s.done = cancel, make(chan struct{})
	go s.run(ctx)
}

// stop ends the supervisor and the server, and waits for both.
func (s *server) stop() {
	if s.cancel == nil {
		return
	}
	s.cancel()
	<-s.done
}

// run starts the server, and again with backoff whenever it fails, until
// ctx ends.
func (s *server) run(ctx context.Context) {
	defer close(s.done)
	o := s.h.opt
	backoff := o.Backoff
	for {
		s.set(Starting, "", nil, nil)
		began := time.Now()
		err := s.session(ctx)
		if ctx.Err() != nil {
			s.set(Disabled, "stopped", nil, nil)
			return
		}
		msg := err.Error()
		s.h.log.Warn("mcp server failed", "server", s.entry.Name, "err", msg)
		signIn := (*mcpauth.SignInError)(nil)
		errors.As(err, &signIn)
		s.mu.Lock()
		s.signIn = signIn
		s.mu.Unlock()
		if refused := (*RefusedError)(nil); errors.As(err, &refused) || signIn != nil {
			s.set(Failed, msg, nil, nil) // starting again would not change it
			<-ctx.Done()
			s.set(Disabled, "stopped", nil, nil)
			return
		}
		if time.Since(began) > 2*time.Minute {
			backoff = o.Backoff
		}
		s.set(Failed, fmt.Sprintf("%s; retrying in %s", msg, backoff.Round(time.Second)), nil, nil)
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			s.set(Disabled, "stopped", nil, nil)
			return
		case <-t.C:
		}
		backoff = min(backoff*2, o.MaxBackoff)
		s.mu.Lock()
		s.restarts++
		s.mu.Unlock()
	}
}

// session runs the server once: connect, list tools, serve until the
// connection ends or ctx does; it always leaves no process behind.
func (s *server) session(ctx context.Context) error {
	o := s.h.opt
	began := time.Now()
	if err := Check(s.entry.Server, s.entry.Scope, EnvLookup, o.Env); err != nil {
		return err
	}
	x, missing := expandAll(s.entry.Server, EnvLookup)
	if len(missing) > 0 {
		s.h.log.Warn("mcp: unset variables expanded to empty", "server", s.entry.Name, "vars", missing)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "pilot", Version: o.Version}, &sdk.ClientOptions{
		ToolListChangedHandler:   func(_ context.Context, req *sdk.ToolListChangedRequest) { go s.refresh(ctx, req.Session) },
		PromptListChangedHandler: func(_ context.Context, req *sdk.PromptListChangedRequest) { go s.refreshPrompts(ctx, req.Session) },
		ResourceListChangedHandler: func(_ context.Context, req *sdk.ResourceListChangedRequest) {
			go s.refreshResources(ctx, req.Session)
		},
		ElicitationHandler: s.elicit, // declares form elicitation (the SDK adds the capability)
	})
	sctx, cancel := context.WithTimeout(ctx, o.StartTimeout)
	defer cancel()
	var (
		sess *sdk.ClientSession
		p    *proc
		err  error
	)
	switch x.Transport() {
	case TypeStdio:
		dir := s.dir(x.Cwd)
		p, err = startProc(x, childenv.Env(o.Env, dir, x.Env), dir, &s.stderr)
		if err != nil {
			return fmt.Errorf("could not start %q: %v; check the command and that it is installed", x.Command, err)
		}
		defer p.stop(o.Grace)
		sess, err = client.Connect(sctx, &sdk.IOTransport{Reader: p.reader(), Writer: p.writer()}, nil)
		if err != nil && p.exitErr() != nil {
			err = p.exitErr()
		}
	case TypeHTTP:
		oauth := s.oauth(x.URL)
		hc := &http.Client{Transport: headerTransport{x.Headers}}
		sess, err = client.Connect(sctx, &sdk.StreamableClientTransport{Endpoint: x.URL, HTTPClient: hc, MaxRetries: 2, OAuthHandler: oauth}, nil)
		if signIn := (*mcpauth.SignInError)(nil); err != nil && ctx.Err() == nil && !errors.As(err, &signIn) {
			// Servers older than the 2025-03-26 spec speak HTTP+SSE.
			sse := &http.Client{Transport: oauthTransport{base: headerTransport{x.Headers}, h: oauth}}
			if old, err2 := client.Connect(sctx, &sdk.SSEClientTransport{Endpoint: x.URL, HTTPClient: sse}, nil); err2 == nil {
				sess, err = old, nil
			}
		}
	case TypeSSE:
		hc := &http.Client{Transport: oauthTransport{base: headerTransport{x.Headers}, h: s.oauth(x.URL)}}
		sess, err = client.Connect(sctx, &sdk.SSEClientTransport{Endpoint: x.URL, HTTPClient: hc}, nil)
	}
	if signIn := (*mcpauth.SignInError)(nil); errors.As(err, &signIn) {
		return signIn
	}
	if err != nil {
		if sctx.Err() != nil && ctx.Err() == nil {
			return fmt.Errorf("no answer to initialize within %s", o.StartTimeout)
		}
		return fmt.Errorf("could not connect: %v", err)
	}
	defer sess.Close()
	tools, err := listTools(sctx, s.entry.Name, sess)
	if err != nil {
		return fmt.Errorf("listing tools: %v", err)
	}
	prompts, err := listPrompts(sctx, s.entry.Name, sess)
	if err != nil {
		s.h.log.Warn("mcp: listing prompts", "server", s.entry.Name, "err", err)
	}
	resources, err := listResources(sctx, s.entry.Name, sess)
	if err != nil {
		s.h.log.Warn("mcp: listing resources", "server", s.entry.Name, "err", err)
	}
	s.mu.Lock()
	s.prompts, s.resources = prompts, resources
	s.mu.Unlock()
	s.set(Ready, "", sess, tools)
	s.h.log.Info("mcp server ready", "server", s.entry.Name, "tools", len(tools), "ms", time.Since(began).Milliseconds())
	ended := make(chan error, 1)
	go func() { ended <- sess.Wait() }()
	var exited <-chan struct{}
	if p != nil {
		exited = p.exited
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-ended:
		if p != nil {
			p.waitCtx(timeoutCtx(ctx, o.Grace))
			if e := p.exitErr(); e != nil {
				return e
			}
		}
		if err == nil {
			err = errors.New("the connection closed")
		}
		return fmt.Errorf("the connection ended: %v", err)
	case <-exited:
		return p.exitErr()
	}
}

// dir is the working directory of a stdio server: its cwd (relative to
// the project), else the project.
func (s *server) dir(cwd string) string {
	switch {
	case cwd == "":
		return s.h.project
	case strings.HasPrefix(cwd, "/") || s.h.project == "":
		return cwd
	}
	return s.h.project + "/" + cwd
}

// refresh lists the tools again after notifications/tools/list_changed.
func (s *server) refresh(ctx context.Context, sess *sdk.ClientSession) {
	if relist(ctx, s, sess, listTools, "mcp: listing tools after list_changed", false, func(t []ToolInfo) { s.tools = t }) {
		s.h.changed(s)
	}
}

// relist lists a server's tools, prompts or resources again (list) after
// a list_changed notification and gives them to keep, under the server's
// lock, unless the server has had another session since; it reports
// whether keep was called. A listing that fails is logged (failed: the
// log's message) and kept only when partial (what it got before failing).
func relist[T any](ctx context.Context, s *server, sess *sdk.ClientSession, list func(context.Context, string, *sdk.ClientSession) ([]T, error), failed string, partial bool, keep func([]T)) bool {
	lctx, cancel := context.WithTimeout(ctx, s.h.opt.StartTimeout)
	defer cancel()
	got, err := list(lctx, s.entry.Name, sess)
	if err != nil {
		s.h.log.Warn(failed, "server", s.entry.Name, "err", err)
		if !partial {
			return false
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != sess {
		return false
	}
	keep(got)
	return true
}

func listTools(ctx context.Context, server string, sess *sdk.ClientSession) ([]ToolInfo, error) {
	return collect(sess.Tools(ctx, nil), 0, func(t *sdk.Tool) ToolInfo {
		schema, err := json.Marshal(t.InputSchema)
		if err != nil || string(schema) == "null" {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		return ToolInfo{Name: ToolName(server, t.Name), Server: server, Tool: t.Name, Description: t.Description, Schema: schema}
	})
}

// collect gathers a server's listing (tools, prompts, resources: the SDK
// pages it), each item made into a T by f, up to limit items (0: all). On
// an error it returns the items it got before the error, with the error.
func collect[X, T any](items iter.Seq2[X, error], limit int, f func(X) T) ([]T, error) {
	var out []T
	for x, err := range items {
		if err != nil {
			return out, err
		}
		out = append(out, f(x))
		if limit > 0 && len(out) >= limit {
			break
		}
	}
	return out, nil
}

// offers reports whether the server's initialize result declares the
// capability that has looks for.
func offers(sess *sdk.ClientSession, has func(*sdk.ServerCapabilities) bool) bool {
	r := sess.InitializeResult()
	return r != nil && r.Capabilities != nil && has(r.Capabilities)
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// ToolName is the name the model sees: mcp__<server>__<tool>, with
// characters the providers refuse replaced by '_', at most 64 long.
func ToolName(server, tool string) string {
	n := "mcp__" + server + "__" + unsafeChars.ReplaceAllString(tool, "_")
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}

// headerTransport adds the configured headers to every request.
type headerTransport struct{ h map[string]string }

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.h) > 0 {
		r = r.Clone(r.Context())
		for k, v := range t.h {
			r.Header.Set(k, v)
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

func timeoutCtx(parent context.Context, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(parent, d)
	go func() { <-ctx.Done(); cancel() }()
	return ctx
}
