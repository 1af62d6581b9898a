package llm

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
)

func fixtureNames(t testing.TB) []string {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sse") {
			out = append(out, e.Name())
		}
	}
	return out
}

// FuzzStreamParsers feeds arbitrary bodies to both stream parsers and checks
// the invariants the agent loop relies on: no panic; an answer ends with
// exactly one EventStop or an error; redacted thinking carries its data;
// tool calls are started before they finish; a finished tool's input is a
// JSON object unless Err says it is not.
func FuzzStreamParsers(f *testing.F) {
	for _, name := range fixtureNames(f) {
		f.Add(readFixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for name, parse := range map[string]streamParser{"anthropic": parseAnthropic, "openai": func(body io.Reader, emit func(Event) bool) error { return parseOpenAIFrom("", body, emit) }} {
			var events []Event
			err := parse(bytes.NewReader(body), func(ev Event) bool {
				events = append(events, ev)
				return true
			})
			stops := 0
			started := map[string]bool{}
			for i, ev := range events {
				switch ev.Type {
				case EventStop:
					stops++
					if i != len(events)-1 {
						t.Fatalf("%s: events after stop", name)
					}
				case EventRedactedThinking:
					if ev.Text == "" {
						t.Fatalf("%s: redacted thinking without data", name)
					}
				case EventToolStart:
					started[ev.ToolID] = true
				case EventToolDone:
					if !started[ev.ToolID] {
						t.Fatalf("%s: tool %q done before start", name, ev.ToolID)
					}
					var obj map[string]any
					if ev.Err == nil && (json.Unmarshal(ev.Input, &obj) != nil || obj == nil) {
						t.Fatalf("%s: tool input %q is not an object but has no error", name, ev.Input)
					}
				case EventError:
					t.Fatalf("%s: parsers return errors, they do not emit them", name)
				}
			}
			if (err == nil) != (stops == 1) {
				t.Fatalf("%s: err=%v with %d stops", name, err, stops)
			}
		}
	})
}
