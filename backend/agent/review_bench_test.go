package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pilot/backend/diff"
	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// bigEdit is the review benchmark's change (frontend/e2e/lib/scaleData.mjs
// makes the same one for the window): a 20,000-line Go file of which one
// line in every hundred is changed, 200 hunks.
func bigEdit() (original, proposed string) {
	const lines, hunks = 20000, 200
	const step = lines / hunks
	var o, p strings.Builder
	for i := 1; i <= lines; i++ {
		line := fmt.Sprintf("\tvalue%d := compute(%d, \"row %d of the table\") // keep %d\n", i, i, i, i%7)
		o.WriteString(line)
		if i%step == step/2 {
			line = fmt.Sprintf("\tvalue%d := computeChecked(%d, \"row %d of the table\") // changed\n", i, i, i)
		}
		p.WriteString(line)
	}
	return o.String(), p.String()
}

// eofStamp is an http.RoundTripper that notes when a response body was
// read to its end: the last byte of the answer as the client saw it.
type eofStamp struct {
	last atomic.Int64 // UnixNano
}

func (s *eofStamp) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = &stampedBody{ReadCloser: resp.Body, s: s}
	return resp, nil
}

type stampedBody struct {
	io.ReadCloser
	s *eofStamp
}

func (b *stampedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.s.last.Store(time.Now().UnixNano())
	}
	return n, err
}

// BenchmarkBigEdit is the Go side of the review benchmark (bench-scale's
// "review" figure): the model proposes, with write_file, a new text of a
// 20,000-line file that changes 200 hunks.
//
//   - path: the proposing answer's last byte read → the approval event
//     (parsing the 1.4 MB tool input, saving the message, the tool's
//     proposal, the diff, the hunks stored), against the fake server;
//   - diff: diff.Compute and the hunks alone;
//   - payload: GetChange's answer encoded as the bridge sends it (JSON),
//     with its size.
func BenchmarkBigEdit(b *testing.B) {
	original, proposed := bigEdit()
	b.Run("path", func(b *testing.B) { benchProposalPath(b, original, proposed) })
	b.Run("diff", func(b *testing.B) {
		for b.Loop() {
			d := diff.Compute(original, proposed)
			if len(d.Hunks()) != 200 {
				b.Fatalf("%d hunks", d.Len())
			}
		}
	})
	b.Run("payload", func(b *testing.B) {
		view := wire.ChangeView{ApprovalID: "a", Tool: "write_file", Files: []wire.FileChange{{Path: "table.go", NewText: proposed, Hunks: diff.Compute(original, proposed).Hunks()}}}
		var size int
		for b.Loop() {
			out, err := json.Marshal(view)
			if err != nil {
				b.Fatal(err)
			}
			size = len(out)
		}
		b.ReportMetric(float64(size)/1e3, "kB")
	})
}

func benchProposalPath(b *testing.B, original, proposed string) {
	input, err := json.Marshal(map[string]string{"path": "table.go", "content": proposed})
	if err != nil {
		b.Fatal(err)
	}
	h := newHarness(b, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{Repeat: true, Match: lastToolResult(""), ToolCalls: []fakellm.ToolCall{{Name: "read_file", Input: []byte(`{"path":"table.go"}`)}}},
		{Repeat: true, Match: lastToolResult("read_file"), ToolCalls: []fakellm.ToolCall{{Name: "write_file", Input: input}}},
		{Repeat: true, Text: "done"},
	}}, setup{mode: "ask", files: map[string]string{"table.go": original}})
	stamp := &eofStamp{}
	h.m.provider = func(_ context.Context, s store.Session) (Model, error) {
		p, err := llm.New(llm.Config{Provider: s.Provider, Model: s.Model, BaseURL: h.base, APIKey: "sk-test", HTTPClient: &http.Client{Transport: stamp}})
		return Model{Provider: p}, err
	}
	asked := make(chan time.Time, 1)
	h.rec.mu.Lock()
	h.rec.onEvent = func(name string, p any) {
		if name == wire.AgentApproval {
			asked <- time.Now()
		}
	}
	h.rec.mu.Unlock()
	h.approveWith(func(a wire.Approval) {
		v, err := h.m.Approvals().Change(a.ID)
		if err != nil {
			b.Error(err)
			return
		}
		if len(v.Files) != 1 || len(v.Files[0].Hunks) != 200 {
			b.Errorf("the change has %d files", len(v.Files))
		}
		h.m.Approvals().DecideChange(a.ID, allHunks(v, false))
	})
	ctx := context.Background()
	var total time.Duration
	for b.Loop() {
		s, err := h.st.Sessions.Create(ctx, storeSession(h))
		if err != nil {
			b.Fatal(err)
		}
		if err := h.m.Send(ctx, s.ID, "update the table", nil); err != nil {
			b.Fatal(err)
		}
		at := <-asked
		total += at.Sub(time.Unix(0, stamp.last.Load()))
		if r := h.wait(); r != ReasonEndTurn {
			b.Fatalf("reason %s", r)
		}
	}
	b.ReportMetric(float64(total.Microseconds())/1e3/float64(b.N), "ms-to-approval")
	b.ReportMetric(float64(len(input))/1e6, "input-MB")
}

// lastToolResult matches a request whose last message answers a call of
// the named tool ("": a request without tool results in its last message).
func lastToolResult(tool string) func(fakellm.Request) bool {
	return func(r fakellm.Request) bool {
		msgs, _ := r.Body["messages"].([]any)
		if len(msgs) < 3 {
			return tool == ""
		}
		// The assistant message before the last user message names the tool.
		prev, _ := msgs[len(msgs)-2].(map[string]any)
		blocks, _ := prev["content"].([]any)
		for _, bl := range blocks {
			if m, _ := bl.(map[string]any); m["type"] == "tool_use" {
				return m["name"] == tool
			}
		}
		return tool == ""
	}
}
