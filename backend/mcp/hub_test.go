package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pilot/backend/internal/mcptest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// selfServer configures the test binary as a stdio server.
func selfServer(t *testing.T, env map[string]string) Server {
	t.Helper()
	exe, args, err := mcptest.Command()
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]string{"PILOT_MCP_TEST_SERVER": "1"}
	for k, v := range env {
		e[k] = v
	}
	return Server{Command: exe, Args: args, Env: e}
}

func writeUser(t *testing.T, home string, servers map[string]Server) {
	t.Helper()
	if err := WriteFile(UserPath(home), File{Servers: servers}); err != nil {
		t.Fatal(err)
	}
}

func testOptions(home string) Options {
	return Options{Home: home, CallTimeout: 5 * time.Second, StartTimeout: 10 * time.Second, Backoff: 100 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, Grace: 500 * time.Millisecond}
}

// waitState waits until the server reaches state.
func waitState(t *testing.T, h *Hub, name string, want State) Status {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var last Status
	for time.Now().Before(deadline) {
		for _, st := range h.Status() {
			if st.Name == name {
				last = st
				if st.State == want {
					return st
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("server %s never became %s; last %+v", name, want, last)
	return last
}

func noChildren(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c := children(t)
		if len(c) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left behind: %v", c)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestStdioServerToolsCallsAndReaping(t *testing.T) {
	home := t.TempDir()
	writeUser(t, home, map[string]Server{"t": selfServer(t, nil)})
	h, err := Open("", testOptions(home))
	if err != nil {
		t.Fatal(err)
	}
	st := waitState(t, h, "t", Ready)
	names := map[string]bool{}
	for _, tl := range st.Tools {
		names[tl.Name] = true
	}
	if !names["mcp__t__echo"] || !names["mcp__t__image"] || len(h.Tools()) != len(st.Tools) {
		t.Fatalf("tools %v", names)
	}
	var schema map[string]any
	for _, tl := range st.Tools {
		if tl.Tool == "echo" {
			_ = json.Unmarshal(tl.Schema, &schema)
		}
	}
	if props, _ := schema["properties"].(map[string]any); props["text"] == nil {
		t.Fatalf("echo schema %v", schema)
	}
	if !strings.Contains(strings.Join(st.Stderr, "\n"), "test server up") {
		t.Errorf("stderr %q", st.Stderr)
	}
	ctx := context.Background()
	res, err := h.Call(ctx, "mcp__t__echo", json.RawMessage(`{"text":"hi"}`))
	if err != nil || res.Text != "echo: hi" || res.IsError {
		t.Fatalf("echo: %+v %v", res, err)
	}
	res, err = h.Call(ctx, "mcp__t__image", nil)
	if err != nil || len(res.Images) != 1 || res.Images[0].MediaType != "image/png" || !strings.Contains(res.Text, "a dot") {
		t.Fatalf("image: %+v %v", res, err)
	}
	res, err = h.Call(ctx, "mcp__t__fail", nil)
	if err != nil || !res.IsError || res.Text != "no such record" {
		t.Fatalf("fail: %+v %v", res, err)
	}
	if len(children(t)) != 1 {
		t.Fatalf("children %v", children(t))
	}
	h.Close()
	noChildren(t)
}

func TestCrashMidCallRestartsAndLeavesNothing(t *testing.T) {
	home := t.TempDir()
	writeUser(t, home, map[string]Server{"t": selfServer(t, nil)})
	h, _ := Open("", testOptions(home))
	waitState(t, h, "t", Ready)
	_, err := h.Call(context.Background(), "mcp__t__crash", nil)
	if err == nil {
		t.Fatal("a crash mid-call returned no error")
	}
	st := waitState(t, h, "t", Failed)
	if len(h.Tools()) != 0 || !strings.Contains(st.Error, "exit") {
		t.Fatalf("after the crash: tools %d, %q", len(h.Tools()), st.Error)
	}
	st = waitState(t, h, "t", Ready)
	if st.Restarts < 1 {
		t.Fatalf("restarts %d", st.Restarts)
	}
	if res, err := h.Call(context.Background(), "mcp__t__echo", json.RawMessage(`{"text":"back"}`)); err != nil || res.Text != "echo: back" {
		t.Fatalf("after restart: %+v %v", res, err)
	}
	h.Close()
	noChildren(t)
}

func TestHangTimesOutAndCancelReachesTheServer(t *testing.T) {
	home := t.TempDir()
	flag := filepath.Join(t.TempDir(), "cancelled")
	writeUser(t, home, map[string]Server{"t": selfServer(t, map[string]string{"PILOT_MCP_TEST_CANCELLED": flag})})
	o := testOptions(home)
	o.CallTimeout = 300 * time.Millisecond
	h, _ := Open("", o)
	defer h.Close()
	waitState(t, h, "t", Ready)
	began := time.Now()
	_, err := h.Call(context.Background(), "mcp__t__hang", nil)
	if !errors.Is(err, ErrTimeout) || time.Since(began) > 3*time.Second {
		t.Fatalf("hang: %v after %s", err, time.Since(began))
	}
	waitFile(t, flag)
	os.Remove(flag)
	// A cancelled turn cancels its call too.
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	o.CallTimeout = time.Minute
	if _, err := h.Call(ctx, "mcp__t__hang", nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
	waitFile(t, flag)
	if st := waitState(t, h, "t", Ready); st.Restarts != 0 {
		t.Fatalf("a timed-out call restarted the server")
	}
}

func waitFile(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the server never saw the cancellation (%s)", path)
}

func TestHungStartFailsWithoutBlocking(t *testing.T) {
	home := t.TempDir()
	writeUser(t, home, map[string]Server{"t": selfServer(t, map[string]string{"PILOT_MCP_TEST_HANG_START": "1"})})
	o := testOptions(home)
	o.StartTimeout = 300 * time.Millisecond
	began := time.Now()
	h, _ := Open("", o)
	if time.Since(began) > time.Second {
		t.Fatal("Open waited for the server")
	}
	st := waitState(t, h, "t", Failed)
	if !strings.Contains(st.Error, "initialize") {
		t.Fatalf("error %q", st.Error)
	}
	if _, err := h.Call(context.Background(), "mcp__t__echo", nil); !errors.Is(err, ErrNotReady) {
		t.Fatalf("call to a failed server: %v", err)
	}
	h.Close()
	noChildren(t)
}

func TestMissingCommandFails(t *testing.T) {
	home := t.TempDir()
	writeUser(t, home, map[string]Server{"nope": {Command: "/nonexistent/server"}})
	h, _ := Open("", testOptions(home))
	defer h.Close()
	st := waitState(t, h, "nope", Failed)
	if !strings.Contains(st.Error, "could not start") {
		t.Fatalf("error %q", st.Error)
	}
}

func TestToolListChanged(t *testing.T) {
	home := t.TempDir()
	writeUser(t, home, map[string]Server{"t": selfServer(t, nil)})
	h, _ := Open("", testOptions(home))
	defer h.Close()
	waitState(t, h, "t", Ready)
	if _, err := h.Call(context.Background(), "mcp__t__grow", nil); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, tl := range h.Tools() {
			if tl.Name == "mcp__t__extra" {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the tool added by the server never appeared")
}

func TestStreamableHTTPAndSSEFallback(t *testing.T) {
	srv := mcptest.New()
	var gotHeader string
	streamable := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	sse := sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotHeader = r.Header.Get("Authorization")
		streamable.ServeHTTP(w, r)
	}))
	mux.Handle("/sse", sse)
	ts := httptest.NewServer(mux)
	defer ts.Close()
	t.Setenv("PILOT_TEST_TOKEN", "abc")
	home := t.TempDir()
	writeUser(t, home, map[string]Server{
		"web": {Type: "http", URL: ts.URL + "/mcp", Headers: map[string]string{"Authorization": "Bearer ${PILOT_TEST_TOKEN}"}},
		"old": {Type: "http", URL: ts.URL + "/sse"},
	})
	h, _ := Open("", testOptions(home))
	defer h.Close()
	waitState(t, h, "web", Ready)
	waitState(t, h, "old", Ready)
	for _, name := range []string{"mcp__web__echo", "mcp__old__echo"} {
		res, err := h.Call(context.Background(), name, json.RawMessage(`{"text":"net"}`))
		if err != nil || res.Text != "echo: net" {
			t.Fatalf("%s: %+v %v", name, res, err)
		}
	}
	if gotHeader != "Bearer abc" {
		t.Fatalf("header %q", gotHeader)
	}
	res, err := h.Call(context.Background(), "mcp__web__image", nil)
	if err != nil || len(res.Images) != 1 {
		t.Fatalf("image over http: %+v %v", res, err)
	}
}

func TestPrompts(t *testing.T) {
	home := t.TempDir()
	writeUser(t, home, map[string]Server{"t": selfServer(t, nil)})
	h, _ := Open("", testOptions(home))
	defer h.Close()
	waitState(t, h, "t", Ready)
	ps := h.Prompts()
	if len(ps) != 1 || ps[0].Name != "mcp__t__review" || strings.Join(ps[0].Args, ",") != "file,focus" {
		t.Fatalf("prompts %+v", ps)
	}
	text, err := h.GetPrompt(context.Background(), "mcp__t__review", []string{"main.go", "data", "races"})
	if err != nil || text != "Review main.go for data races." {
		t.Fatalf("prompt: %q %v", text, err)
	}
}

func TestResources(t *testing.T) {
	home := t.TempDir()
	writeUser(t, home, map[string]Server{"t": selfServer(t, nil)})
	h, _ := Open("", testOptions(home))
	defer h.Close()
	waitState(t, h, "t", Ready)
	rs := h.FindResources("todo", 10)
	if len(rs) != 1 || rs[0].URI != "test://notes/todo" || rs[0].Server != "t" {
		t.Fatalf("resources %+v", rs)
	}
	if len(h.FindResources("nothing-like-it", 10)) != 0 {
		t.Fatal("query ignored")
	}
	text, err := h.ReadResource(context.Background(), "t", "test://notes/todo")
	if err != nil || text != "- write the docs" {
		t.Fatalf("read: %q %v", text, err)
	}
}

func TestHTTPServerGoneRestarts(t *testing.T) {
	srv := mcptest.New()
	h0 := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	ts := httptest.NewServer(h0)
	home := t.TempDir()
	writeUser(t, home, map[string]Server{"web": {Type: "http", URL: ts.URL}})
	h, _ := Open("", testOptions(home))
	defer h.Close()
	waitState(t, h, "web", Ready)
	ts.CloseClientConnections()
	ts.Close()
	_, err := h.Call(context.Background(), "mcp__web__echo", json.RawMessage(`{"text":"x"}`))
	if err == nil {
		t.Fatal("a call to a server that is gone succeeded")
	}
	st := waitState(t, h, "web", Failed)
	if len(h.Tools()) != 0 {
		t.Fatalf("a gone server keeps its tools: %+v", st)
	}
}

func TestSetCallTimeout(t *testing.T) {
	home := t.TempDir()
	writeUser(t, home, map[string]Server{"t": selfServer(t, nil)})
	p := NewPool(testOptions(home))
	defer p.Close()
	h := p.For(t.TempDir())
	waitState(t, h, "t", Ready)
	p.SetCallTimeout(200 * time.Millisecond)
	began := time.Now()
	if _, err := h.Call(context.Background(), "mcp__t__hang", nil); !errors.Is(err, ErrTimeout) || time.Since(began) > 3*time.Second {
		t.Fatalf("the new timeout did not apply: %v after %s", err, time.Since(began))
	}
}
