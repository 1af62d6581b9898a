package agent

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// roundTrips is the number of tool round trips per benchmarked turn.
const roundTrips = 20

// BenchmarkToolRoundTrip measures the loop's own cost of one tool round
// trip: a model answer with a no-op read (list_files of an empty folder),
// the tool run, the results committed, the next request built and sent.
// The fake server answers at once, so this is Pilot's overhead: HTTP and
// SSE parsing, SQLite commits, events.
func BenchmarkToolRoundTrip(b *testing.B) {
	for _, format := range formats {
		b.Run(format, func(b *testing.B) {
			more := func(r fakellm.Request) bool {
				msgs, _ := r.Body["messages"].([]any)
				return len(msgs) < 2*roundTrips+1
			}
			h := newHarness(b, format, fakellm.Script{Turns: []fakellm.Turn{
				{Repeat: true, Match: more, ToolCalls: []fakellm.ToolCall{{Name: "list_files", Input: []byte(`{}`)}}},
				{Repeat: true, Text: "done"},
			}}, setup{opt: Options{LoopGuard: 1 << 20}})
			ctx := context.Background()
			b.ResetTimer()
			var inTurns time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				s, err := h.st.Sessions.Create(ctx, storeSession(h))
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				if err := h.m.Send(ctx, s.ID, "list the folder 20 times", nil); err != nil {
					b.Fatal(err)
				}
				if r := h.wait(); r != ReasonEndTurn {
					b.Fatalf("reason %s", r)
				}
				inTurns += time.Since(start)
			}
			b.ReportMetric(float64(inTurns.Microseconds())/float64(b.N*roundTrips), "µs/roundtrip")
		})
	}
}

// counter counts events by name.
type counter struct {
	stream, total atomic.Int64
	done          chan Reason
}

func (c *counter) Emit(name string, p any) {
	c.total.Add(1)
	if name == wire.AgentStream {
		c.stream.Add(1)
	}
	if d, ok := p.(wire.TurnDonePayload); ok {
		c.done <- Reason(d.Reason)
	}
}

// burst is a provider that streams words as fast as the loop takes them,
// to measure the loop without HTTP.
type burst struct{ words int }

func (burst) Name() string { return "anthropic" }

func (b burst) Stream(ctx context.Context, _ llm.Request) (<-chan llm.Event, error) {
	ch := make(chan llm.Event, 256)
	go func() {
		defer close(ch)
		for i := 0; i < b.words; i++ {
			select {
			case ch <- llm.Event{Type: llm.EventTextDelta, Text: "word "}:
			case <-ctx.Done():
				return
			}
		}
		ch <- llm.Event{Type: llm.EventUsage, Usage: llm.Usage{InputTokens: 10, OutputTokens: b.words}}
		ch <- llm.Event{Type: llm.EventStop, Stop: llm.StopEndTurn}
	}()
	return ch, nil
}

func (burst) Complete(context.Context, llm.Request) (string, llm.Usage, error) {
	return "", llm.Usage{}, errors.New("not used")
}

// BenchmarkStreamEvents measures how fast the loop takes a fast stream
// (one word per event) through to batched events, saving it as it goes:
// from the fake server over HTTP (its SSE writer costs most of the time),
// and from an in-process provider (the loop alone).
func BenchmarkStreamEvents(b *testing.B) {
	const words = 20000
	for _, src := range []string{"fakellm-http", "in-process"} {
		b.Run(src, func(b *testing.B) {
			h := newHarness(b, "anthropic", fakellm.Script{Turns: []fakellm.Turn{{Repeat: true, StreamTokens: words}}}, setup{opt: Options{BatchInterval: DefaultBatchInterval}})
			if src == "in-process" {
				h.m.provider = func(context.Context, store.Session) (Model, error) { return Model{Provider: burst{words}}, nil }
			}
			c := &counter{done: make(chan Reason, 1)}
			h.m.out.emit = c
			ctx := context.Background()
			var elapsed time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				s, err := h.st.Sessions.Create(ctx, storeSession(h))
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				if err := h.m.Send(ctx, s.ID, "stream", nil); err != nil {
					b.Fatal(err)
				}
				if r := <-c.done; r != ReasonEndTurn {
					b.Fatalf("reason %s", r)
				}
				elapsed += time.Since(start)
			}
			secs := elapsed.Seconds()
			b.ReportMetric(float64(b.N*words)/secs, "deltas/s")
			b.ReportMetric(float64(c.stream.Load())/secs, "stream-events/s")
			b.ReportMetric(float64(c.total.Load())/float64(b.N), "events/turn")
		})
	}
}
