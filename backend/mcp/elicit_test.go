package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pilot/backend/internal/mcptest"
	"pilot/backend/wire"
)

// A server's elicitation during one of its tool calls reaches the asker
// of that call (the session's turn); the answer goes back to the server,
// which echoes it as the tool's result. The server is the SDK's (the
// test binary, mcptest.New), the client Pilot's Hub; both ways a server
// asks: elicitation/create while the call runs (2025-11-25), and the
// call's inputRequests (2026-07-28, SEP-2322), where a stopped call is
// not asked again, so the server hears nothing.
func TestElicitationReachesTheCallsAsker(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{"2025-11-25", ""} {
		t.Run("protocol "+protocol, func(t *testing.T) {
			t.Parallel()
			elicitations(t, protocol)
		})
	}
}

// callTimeout is short, so that a form answered later than it shows the
// call's clock stopped while the user answers.
const callTimeout = 2 * time.Second

func elicitations(t *testing.T, protocol string) {
	home := t.TempDir()
	elicited := filepath.Join(t.TempDir(), "elicited")
	writeUser(t, home, map[string]Server{"t": selfServer(t, map[string]string{"PILOT_MCP_TEST_ELICITED": elicited, "PILOT_MCP_TEST_PROTOCOL": protocol})})
	o := testOptions(home)
	o.CallTimeout = callTimeout
	h, err := Open("", o)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	waitState(t, h, "t", Ready)

	cases := []struct {
		name   string
		tool   string
		answer func(e wire.Elicitation) (wire.ElicitationDecision, error)
		stop   bool   // the turn is stopped while the form is shown
		result string // the tool's result, or "" when the call ends cancelled
		action string // what the server was answered
	}{
		{name: "accept", tool: "ask", answer: func(wire.Elicitation) (wire.ElicitationDecision, error) {
			return wire.ElicitationDecision{Action: wire.ElicitAccept, Content: json.RawMessage(`{"name":"Ada","email":"ada@example.com","tags":["a","c"]}`)}, nil
		}, result: `elicited: accept {"age":30,"color":"blue","email":"ada@example.com","name":"Ada","subscribe":false,"tags":["a","c"]}`, action: "accept"},
		{name: "decline", tool: "ask", answer: func(wire.Elicitation) (wire.ElicitationDecision, error) {
			return wire.ElicitationDecision{Action: wire.ElicitDecline}, nil
		}, result: "elicited: decline null", action: "decline"},
		{name: "content that does not fit is not sent", tool: "ask", answer: func(wire.Elicitation) (wire.ElicitationDecision, error) {
			return wire.ElicitationDecision{Action: wire.ElicitAccept, Content: json.RawMessage(`{"name":"Ada","email":"not an address"}`)}, nil
		}, result: "elicited: decline null", action: "decline"},
		{name: "cancel when the turn is stopped", tool: "ask", stop: true, action: "cancel"},
		{name: "the user's time is not the call's", tool: "ask", answer: func(wire.Elicitation) (wire.ElicitationDecision, error) {
			<-time.After(2 * callTimeout) // the user takes longer than the call may
			return wire.ElicitationDecision{Action: wire.ElicitDecline}, nil
		}, result: "elicited: decline null", action: "decline"},
		{name: "the defaults of SEP-1034", tool: "ask_defaults", answer: func(e wire.Elicitation) (wire.ElicitationDecision, error) {
			content, missing := Defaults(e)
			if len(missing) > 0 {
				t.Errorf("missing %v", missing)
			}
			return wire.ElicitationDecision{Action: wire.ElicitAccept, Content: content}, nil
		}, result: `elicited: accept {"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true}`, action: "accept"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_ = os.Remove(elicited)
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			var asked []wire.Elicitation
			ctx = WithAsker(ctx, func(actx context.Context, e wire.Elicitation) (wire.ElicitationDecision, error) {
				asked = append(asked, e)
				if c.stop {
					stop()
					<-actx.Done()
					return wire.ElicitationDecision{}, actx.Err()
				}
				return c.answer(e)
			})
			res, err := h.Call(ctx, ToolName("t", c.tool), nil)
			if c.result == "" {
				if err == nil {
					t.Fatalf("a stopped call returned %+v", res)
				}
			} else if err != nil || res.Text != c.result {
				t.Fatalf("result %+v %v, want %q", res, err, c.result)
			}
			if len(asked) != 1 || asked[0].Server != "t" {
				t.Fatalf("asked %+v", asked)
			}
			if c.tool == "ask" && (asked[0].Message != mcptest.AskMessage || len(asked[0].Fields) != 6 || asked[0].Fields[0].Name != "name" || !asked[0].Fields[0].Required) {
				t.Fatalf("form %+v", asked[0])
			}
			if c.stop && protocol == "" {
				return
			}
			if got := waitContent(t, elicited); got != c.action {
				t.Fatalf("the server was answered %q, want %q", got, c.action)
			}
		})
	}
}

// An elicitation with none of the server's calls running, in URL mode,
// or from a call no one can answer is declined without asking anyone.
func TestElicitationDeclinedWithoutACall(t *testing.T) {
	t.Parallel()
	asked := 0
	ask := Asker(func(context.Context, wire.Elicitation) (wire.ElicitationDecision, error) {
		asked++
		return wire.ElicitationDecision{Action: wire.ElicitAccept}, nil
	})
	cases := []struct {
		name  string
		calls []*running
		p     sdk.ElicitParams
	}{
		{name: "no call running", p: sdk.ElicitParams{Message: "hi"}},
		{name: "url mode", calls: []*running{{ctx: context.Background(), ask: ask}}, p: sdk.ElicitParams{Mode: "url", URL: "https://example.com/", ElicitationID: "1", Message: "go"}},
		{name: "no one to ask", calls: []*running{{ctx: context.Background()}}, p: sdk.ElicitParams{Message: "hi"}},
		{name: "a message too long", calls: []*running{{ctx: context.Background(), ask: ask}}, p: sdk.ElicitParams{Message: strings.Repeat("x", MaxElicitMessage+1)}},
	}
	for _, c := range cases {
		s := &server{entry: Entry{Name: "t"}, h: &Hub{log: slog.New(slog.DiscardHandler)}, calls: c.calls}
		res, err := s.elicit(context.Background(), &sdk.ElicitRequest{Params: &c.p})
		if err != nil || res.Action != "decline" {
			t.Errorf("%s: %+v %v", c.name, res, err)
		}
	}
	if asked != 0 {
		t.Errorf("asked %d times", asked)
	}
}

// The content of an accept is checked against the form in Go, whatever
// the window checked; every mistake is a sentence naming the field.
func TestCheckAnswer(t *testing.T) {
	t.Parallel()
	form, err := Form("t", "m", mcptest.AskSchema)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		content string
		want    string // a part of the error; "" for none
	}{
		{`{"name":"Ada","email":"ada@example.com"}`, ""},
		{`{"name":"Ada","email":"ada@example.com","age":40,"color":"red","tags":["b"],"subscribe":true}`, ""},
		{`{"email":"ada@example.com"}`, "«Your name» is required."},
		{`{"name":"","email":"ada@example.com"}`, "«Your name» must have at least 1 characters."},
		{`{"name":"Ada","email":"ada"}`, "«Email» must be an email address"},
		{`{"name":"Ada","email":"ada@example.com","age":1.5}`, "«Age» must be a whole number."},
		{`{"name":"Ada","email":"ada@example.com","age":200}`, "«Age» must be at most 150."},
		{`{"name":"Ada","email":"ada@example.com","color":"green"}`, "«Colour» must be one of the choices offered."},
		{`{"name":"Ada","email":"ada@example.com","tags":["a","a"]}`, "«Tags» must list choices offered, each once."},
		{`{"name":"Ada","email":"ada@example.com","subscribe":"yes"}`, "«Subscribe» must be yes or no."},
		{`{"name":"Ada","email":"ada@example.com","extra":1}`, `The form has no field "extra".`},
		{`[1]`, "must be a JSON object"},
	}
	for _, c := range cases {
		_, err := CheckAnswer(form, json.RawMessage(c.content))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.content, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.content, err, c.want)
		}
	}
}

// A form over the limits is refused with a sentence saying which.
func TestFormLimits(t *testing.T) {
	t.Parallel()
	props := map[string]any{}
	for i := range MaxElicitFields + 1 {
		props[strings.Repeat("f", i+1)] = map[string]any{"type": "string"}
	}
	if _, err := Form("t", "m", map[string]any{"type": "object", "properties": props}); err == nil || !strings.Contains(err.Error(), "fields") {
		t.Errorf("fields: %v", err)
	}
	long := map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string", "title": strings.Repeat("t", MaxElicitText+1)}}}
	if _, err := Form("t", "m", long); err == nil || !strings.Contains(err.Error(), "longer") {
		t.Errorf("title: %v", err)
	}
	if _, err := Form("t", strings.Repeat("m", MaxElicitMessage+1), nil); err == nil || !strings.Contains(err.Error(), "message") {
		t.Errorf("message: %v", err)
	}
}

// waitContent waits until the server has written the file (made and
// filled: os.WriteFile makes it empty first, and under Wine the test saw
// it so) and returns what it holds.
func waitContent(t *testing.T, path string) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return string(b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the server never wrote %s", path)
	return ""
}
