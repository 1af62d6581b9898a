package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestFixtures(t *testing.T) {
	t.Parallel()
	weather := func(id string, frags ...string) []string {
		out := []string{}
		for _, f := range frags {
			out = append(out, "tool_delta "+id+" "+f)
		}
		return out
	}
	tests := []struct {
		file     string
		provider string
		want     []string
	}{
		{"anthropic_tool_use.sse", ProviderAnthropic, concat(
			[]string{"text Okay", "text ,", "text  let", "text 's", "text  check", "text  the", "text  weather", "text  for", "text  San", "text  Francisco", "text ,", "text  CA", "text :",
				"tool_start toolu_01T1x1fJ34qAmk2tNTrN7Up6 get_weather"},
			weather("toolu_01T1x1fJ34qAmk2tNTrN7Up6", `{"location":`, ` "San`, ` Francisc`, `o,`, ` CA"`, `,`, ` "unit": "fah`, `renheit"}`),
			[]string{`tool_done toolu_01T1x1fJ34qAmk2tNTrN7Up6 get_weather {"location": "San Francisco, CA", "unit": "fahrenheit"}`,
				"usage in=472 out=89 cr=0 cw=0", "stop tool_use"})},
		{"openai_tool_call.sse", ProviderOpenAI, concat(
			[]string{"tool_start call_DdmO9pD3xa9XTPNJ32zg2hcA get_weather"},
			weather("call_DdmO9pD3xa9XTPNJ32zg2hcA", `{"`, `location`, `":"`, `Paris`, `,`, ` France`, `"}`),
			[]string{`tool_done call_DdmO9pD3xa9XTPNJ32zg2hcA get_weather {"location":"Paris, France"}`, "stop tool_use"})},
		{"anthropic_thinking.sse", ProviderAnthropic, []string{
			"thinking The user wants 27 * 453.", "thinking  That is 12231.",
			"signature EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds",
			"text 27 * 453 = 12231", "usage in=12 out=58 cr=4096 cw=2048", "stop end_turn"}},
		{"anthropic_redacted_thinking.sse", ProviderAnthropic, []string{
			"thinking I should read go.mod first.", "signature EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds",
			"redacted " + redactedData,
			"tool_start toolu_01Redact read_file", `tool_delta toolu_01Redact {"path": "go.mod"}`,
			`tool_done toolu_01Redact read_file {"path": "go.mod"}`,
			"usage in=310 out=96 cr=0 cw=0", "stop tool_use"}},
		{"anthropic_two_tools.sse", ProviderAnthropic, []string{
			"tool_start toolu_A read_file", `tool_delta toolu_A {"path": "ma`, `tool_delta toolu_A in.go"}`,
			`tool_done toolu_A read_file {"path": "main.go"}`,
			"tool_start toolu_B list_files", "tool_done toolu_B list_files {}",
			"usage in=900 out=71 cr=0 cw=0", "stop tool_use"}},
		{"anthropic_error_midstream.sse", ProviderAnthropic, []string{
			"text Here is the", "text  beginning", "error overloaded partial=true"}},
		{"anthropic_cut.sse", ProviderAnthropic, []string{
			"text Partial answer", "tool_start toolu_C write_file",
			"error stream_cut partial=true"}},
		{"anthropic_invalid_tool_json.sse", ProviderAnthropic, []string{
			"tool_start toolu_D run_bash", `tool_delta toolu_D {"command": "ls -la"`, `tool_delta toolu_D , "timeout_seconds": }`,
			`tool_done toolu_D run_bash {"command": "ls -la", "timeout_seconds": } (invalid)`,
			"usage in=40 out=12 cr=0 cw=0", "stop tool_use"}},
		{"anthropic_refusal.sse", ProviderAnthropic, []string{"usage in=24 out=1 cr=0 cw=0", "stop refusal"}},
		{"anthropic_comments_crlf.sse", ProviderAnthropic, []string{"text Hi", "usage in=5 out=2 cr=0 cw=0", "stop end_turn"}},
		{"openai_ollama_one_chunk.sse", ProviderOpenAI, []string{
			"tool_start call_x8m2kq1v read_file", `tool_delta call_x8m2kq1v {"path":"go.mod"}`,
			`tool_done call_x8m2kq1v read_file {"path":"go.mod"}`, "stop tool_use"}},
		{"openai_comments_crlf.sse", ProviderOpenAI, []string{"text Hello", "text , world", "usage in=12 out=3 cr=8 cw=0", "stop end_turn"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			srv := replayServer(t, readFixture(t, tt.file))
			diffLines(t, drain(t, newProvider(t, tt.provider, srv.URL, RetryPolicy{}), simpleRequest), tt.want)
		})
	}
}

func concat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestInvalidToolInputError checks what the agent gets to tell the model.
func TestInvalidToolInputError(t *testing.T) {
	t.Parallel()
	srv := replayServer(t, readFixture(t, "anthropic_invalid_tool_json.sse"))
	ch, err := newProvider(t, ProviderAnthropic, srv.URL, RetryPolicy{}).Stream(context.Background(), simpleRequest)
	if err != nil {
		t.Fatal(err)
	}
	for ev := range ch {
		if ev.Type == EventToolDone {
			if !errors.Is(ev.Err, ErrInvalidToolInput) || !strings.Contains(ev.Err.Error(), "not a valid JSON object") {
				t.Errorf("tool done error = %v", ev.Err)
			}
		}
	}
}

// bigStream is the 1 MB answer, built once.
var bigStream = sync.OnceValues(func() ([]byte, string) { return bigAnthropicStream(1 << 20) })

// bigAnthropicStream is an answer of n bytes of text: one huge delta then
// many small ones.
func bigAnthropicStream(n int) ([]byte, string) {
	var b bytes.Buffer
	var text strings.Builder
	b.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n")
	b.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
	huge := strings.Repeat("0123456789abcdef", n/2/16)
	text.WriteString(huge)
	fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":%q}}\n\n", huge)
	for text.Len() < n {
		chunk := fmt.Sprintf("word %d ", text.Len())
		text.WriteString(chunk)
		fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":%q}}\n\n", chunk)
	}
	b.WriteString("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n")
	b.WriteString("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"},\"usage\":{\"output_tokens\":250000}}\n\n")
	b.WriteString("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	return b.Bytes(), text.String()
}

func TestOneMegabyteAnswer(t *testing.T) {
	t.Parallel()
	body, want := bigStream()
	srv := replayServer(t, body)
	text, usage, err := newProvider(t, ProviderAnthropic, srv.URL, RetryPolicy{}).Complete(context.Background(), simpleRequest)
	if err != nil {
		t.Fatal(err)
	}
	if text != want {
		t.Errorf("text: got %d bytes, want %d", len(text), len(want))
	}
	if usage.OutputTokens != 250000 {
		t.Errorf("usage = %+v", usage)
	}
}
