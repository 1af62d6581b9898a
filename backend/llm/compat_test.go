package llm

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// Tests of OpenAI-compatible servers' own shapes (issue 12). Each replays
// recorded traffic, or the documented shape, named at its case; the
// recordings are in testdata (see its README).

// thinkingEvents runs a call and returns its events with the field and the
// origin of thinking deltas.
func thinkingEvents(t *testing.T, p Provider, req Request) (got []string, last Event) {
	t.Helper()
	for ev := range streamOf(t, p, req) {
		s := describe(ev)
		if ev.Type == EventThinkingDelta && ev.Field != "" {
			s += " [" + ev.Field + " from " + ev.Origin + "]"
		}
		got = append(got, s)
		last = ev
	}
	return got, last
}

func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// TestMistralContentParts: Magistral streams delta.content as an array of
// typed parts (thinking, then text), then a plain string. Recorded by the
// Vercel AI SDK: vercel/ai packages/mistral/src/__fixtures__/mistral-reasoning.chunks.txt.
func TestMistralContentParts(t *testing.T) {
	t.Parallel()
	srv := replayServer(t, readFixture(t, "openai_mistral_magistral.sse"))
	got, _ := thinkingEvents(t, newProvider(t, ProviderOpenAI, srv.URL, RetryPolicy{}), simpleRequest)
	diffLines(t, got, []string{
		"thinking The user is asking",
		"thinking  for 2+2. This is basic arithmetic. 2+2=4.",
		"text 2 + 2 = 4",
		"usage in=10 out=46 cr=0 cw=0",
		"stop end_turn",
	})
}

// TestContentParts covers the shapes of content one by one.
func TestContentParts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw  string
		want []contentPart
		bad  bool
	}{
		{`null`, nil, false},
		{``, nil, false},
		{`"plain"`, []contentPart{{text: "plain"}}, false},
		{`[{"type":"thinking","thinking":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},{"type":"text","text":"c"}]`,
			[]contentPart{{text: "a", thinking: true}, {text: "b", thinking: true}, {text: "c"}}, false},
		{`[{"type":"thinking","thinking":"as a string"}]`, []contentPart{{text: "as a string", thinking: true}}, false},
		{`[{"type":"reference","reference_ids":[1]}]`, nil, false},
		{`{"type":"text"}`, nil, true},
		{`42`, nil, true},
	}
	for _, tt := range tests {
		got, err := contentParts(json.RawMessage(tt.raw))
		if (err != nil) != tt.bad || jsonOf(got) != jsonOf(tt.want) || len(got) != len(tt.want) {
			t.Errorf("contentParts(%s) = %+v, %v", tt.raw, got, err)
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("contentParts(%s)[%d] = %+v, want %+v", tt.raw, i, got[i], tt.want[i])
			}
		}
	}
}

// TestDeepSeekReasoningStream: DeepSeek's thinking mode streams
// reasoning_content before a tool call; each thinking delta says the field
// and the host it came from. An excerpt (the first reasoning chunks, the
// whole tool call, the last chunk; lines unchanged) of the recording in
// vercel/ai packages/deepseek/src/chat/__fixtures__/deepseek-tool-call.chunks.txt.
func TestDeepSeekReasoningStream(t *testing.T) {
	t.Parallel()
	srv := replayServer(t, readFixture(t, "openai_deepseek_thinking_tool.sse"))
	host := hostOf(t, srv.URL)
	got, _ := thinkingEvents(t, newProvider(t, ProviderOpenAI, srv.URL, RetryPolicy{}), simpleRequest)
	id := "call_00_IhCAliIHtM9gKpgfqbBV9873"
	want := []string{
		"thinking The [reasoning_content from " + host + "]",
		"thinking  user [reasoning_content from " + host + "]",
		"thinking  asks [reasoning_content from " + host + "]",
		"tool_start " + id + " weather",
	}
	for _, a := range []string{`{`, `"`, `location`, `"`, `: `, `"`, `San`, ` Francisco`, `"`, `}`} {
		want = append(want, "tool_delta "+id+" "+a)
	}
	want = append(want, `tool_done `+id+` weather {"location": "San Francisco"}`,
		"usage in=118 out=61 cr=256 cw=0", "stop tool_use")
	diffLines(t, got, want)
}

// TestReasoningSentBack: the thinking of an assistant message goes back to
// the host it came from, in the field it came in, and nowhere else (see
// reasoningBack). DeepSeek answers 400 "The reasoning_content in the
// thinking mode must be passed back to the API" without it after a tool
// call; Mistral answers 422 extra_forbidden, and OpenAI's own API never
// sent the field, so neither receives it.
func TestReasoningSentBack(t *testing.T) {
	t.Parallel()
	srv, last := captureServer(t, "openai_comments_crlf.sse")
	host := hostOf(t, srv.URL)
	conversation := func(blocks ...ContentBlock) Request {
		call := ContentBlock{Type: BlockToolUse, ID: "call_1", Name: "weather", Input: json.RawMessage(`{"location":"San Francisco"}`)}
		return Request{Messages: []Message{
			{Role: RoleUser, Content: []ContentBlock{TextBlock("Weather in SF?")}},
			{Role: RoleAssistant, Content: append(blocks, call)},
			{Role: RoleUser, Content: []ContentBlock{{Type: BlockToolResult, ToolUseID: "call_1", Content: "sunny"}}},
			{Role: RoleAssistant, Content: []ContentBlock{TextBlock("It is sunny.")}},
			{Role: RoleUser, Content: []ContentBlock{TextBlock("And tomorrow?")}},
		}}
	}
	thinking := func(text, field, origin string) ContentBlock {
		return ContentBlock{Type: BlockThinking, Thinking: text, Field: field, Origin: origin}
	}
	tests := []struct {
		name string
		req  Request
		// the reasoning fields of the two assistant messages, as JSON ("-": absent)
		want [2][2]string
	}{
		{"deepseek's reasoning_content goes back, empty on a turn without it",
			conversation(thinking("The user asks", FieldReasoningContent, host), thinking(" about the weather.", FieldReasoningContent, host)),
			[2][2]string{{`"The user asks about the weather."`, "-"}, {`""`, "-"}}},
		{"reasoning goes back as reasoning",
			conversation(thinking("We need", FieldReasoning, host)),
			[2][2]string{{"-", `"We need"`}, {"-", `""`}}},
		{"another host's thinking is not sent",
			conversation(thinking("The user asks", FieldReasoningContent, "api.deepseek.com")),
			[2][2]string{{"-", "-"}, {"-", "-"}}},
		{"Anthropic's signed thinking is not sent",
			conversation(ContentBlock{Type: BlockThinking, Thinking: "I should look.", Signature: "sig=="}),
			[2][2]string{{"-", "-"}, {"-", "-"}}},
		{"Magistral's thinking (no field) is not sent",
			conversation(ContentBlock{Type: BlockThinking, Thinking: "The user is asking"}),
			[2][2]string{{"-", "-"}, {"-", "-"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			drain(t, newProvider(t, ProviderOpenAI, srv.URL, RetryPolicy{}), tt.req)
			msgs, _ := last().body["messages"].([]any)
			var got [2][2]string
			n := 0
			for _, m := range msgs {
				mm := m.(map[string]any)
				if mm["role"] != "assistant" || n > 1 {
					continue
				}
				for i, f := range []string{FieldReasoningContent, FieldReasoning} {
					got[n][i] = "-"
					if v, ok := mm[f]; ok {
						got[n][i] = jsonOf(v)
					}
				}
				n++
			}
			if got != tt.want {
				t.Errorf("reasoning fields = %v, want %v\nmessages: %s", got, tt.want, jsonOf(msgs))
			}
		})
	}
}

// TestToolCallsWithoutIndex: Gemini's OpenAI-compatible endpoint streams
// whole tool calls without index (the chunk THU-MAIC/OpenMAIC measured,
// MEASURED_CHUNK in tests/ai/google-openai-compat.test.ts, as
// JSON.stringify writes it), and proxies in front of it send them with id
// "" (AstrBot issue #6661 logged a delta entry with id "", type "" and no index).
// Two calls in one delta stay two calls; a fragment continues the current
// call only with its index, or with no index and an empty or the same id.
func TestToolCallsWithoutIndex(t *testing.T) {
	t.Parallel()
	const measured = `{"choices":[{"delta":{"role":"assistant","tool_calls":[{"extra_content":{"google":{"thought_signature":"sig-297140"}},"function":{"arguments":"{\"offset\":1,\"limit\":100,\"path\":\"/app/skills/agent-runtime/stage-design/SKILL.md\"}","name":"read"},"id":"call_297140","type":"function"}]},"index":0}],"model":"gemini-3.8-flash","object":"chat.completion.chunk"}`
	// Gemini's compatibility layer ends a streamed tool call with "stop"
	// (googleapis/python-genai issue #2868).
	const stop = `{"choices":[{"delta":{"role":"assistant"},"finish_reason":"stop","index":0}],"model":"gemini-3.8-flash","object":"chat.completion.chunk"}`
	sse := func(chunks ...string) []byte {
		var b strings.Builder
		for _, c := range chunks {
			b.WriteString("data: " + c + "\n\n")
		}
		b.WriteString("data: [DONE]\n\n")
		return []byte(b.String())
	}
	call := func(id, name, args string) string {
		return `{"id":"` + id + `","function":{"arguments":` + jsonOf(args) + `,"name":"` + name + `"},"type":"function"}`
	}
	delta := func(calls ...string) string {
		return `{"choices":[{"delta":{"role":"assistant","tool_calls":[` + strings.Join(calls, ",") + `]},"index":0}],"model":"gemini-3.8-flash","object":"chat.completion.chunk"}`
	}
	tests := []struct {
		name string
		body []byte
		want []string
	}{
		{"the measured chunk", sse(measured, stop), []string{
			"tool_start call_297140 read",
			`tool_delta call_297140 {"offset":1,"limit":100,"path":"/app/skills/agent-runtime/stage-design/SKILL.md"}`,
			`tool_done call_297140 read {"offset":1,"limit":100,"path":"/app/skills/agent-runtime/stage-design/SKILL.md"}`,
			"stop tool_use"}},
		{"two calls with id \"\" in one delta", sse(delta(call("", "read", `{"path":"a.md"}`), call("", "read", `{"path":"b.md"}`)), stop), []string{
			"tool_start call_0 read", `tool_delta call_0 {"path":"a.md"}`,
			"tool_start call_1 read", `tool_delta call_1 {"path":"b.md"}`,
			`tool_done call_0 read {"path":"a.md"}`, `tool_done call_1 read {"path":"b.md"}`,
			"stop tool_use"}},
		{"two calls with ids in one delta, then a third in the next", sse(delta(call("call_a", "read", `{"path":"a.md"}`), call("call_b", "list", `{}`)), delta(call("call_c", "read", `{"path":"c.md"}`)), stop), []string{
			"tool_start call_a read", `tool_delta call_a {"path":"a.md"}`,
			"tool_start call_b list", `tool_delta call_b {}`,
			"tool_start call_c read", `tool_delta call_c {"path":"c.md"}`,
			`tool_done call_a read {"path":"a.md"}`, `tool_done call_b list {}`, `tool_done call_c read {"path":"c.md"}`,
			"stop tool_use"}},
		{"fragments without index, the id empty or repeated, continue the call", sse(delta(call("call_a", "read", `{"pa`)), delta(call("", "", `th":`)), delta(call("call_a", "", `"a.md"}`)), stop), []string{
			"tool_start call_a read", `tool_delta call_a {"pa`, `tool_delta call_a th":`, `tool_delta call_a "a.md"}`,
			`tool_done call_a read {"path":"a.md"}`, "stop tool_use"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := replayServer(t, tt.body)
			diffLines(t, drain(t, newProvider(t, ProviderOpenAI, srv.URL, RetryPolicy{}), simpleRequest), tt.want)
		})
	}
}

// TestCachedTokensAbovePrompt: some proxies in front of Anthropic report
// prompt_tokens without the cache reads and cached_tokens above it
// (LiteLLM, BerriAI/litellm PR #23342: prompt_tokens 12, cached_tokens
// 2495). Both numbers are kept; OpenAI's own (cached within prompt) are
// split as before.
func TestCachedTokensAbovePrompt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		usage string
		want  string
	}{
		{`{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17,"prompt_tokens_details":{"cached_tokens":2495}}`, "usage in=12 out=5 cr=2495 cw=0"},
		{`{"prompt_tokens":374,"completion_tokens":61,"total_tokens":435,"prompt_tokens_details":{"cached_tokens":256}}`, "usage in=118 out=61 cr=256 cw=0"},
		{`{"prompt_tokens":256,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":256}}`, "usage in=0 out=1 cr=256 cw=0"},
		{`{"prompt_tokens":-3,"completion_tokens":-1}`, "usage in=0 out=0 cr=0 cw=0"},
	}
	for _, tt := range tests {
		body := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: {\"choices\":[],\"usage\":" + tt.usage + "}\n\ndata: [DONE]\n\n"
		srv := replayServer(t, []byte(body))
		diffLines(t, drain(t, newProvider(t, ProviderOpenAI, srv.URL, RetryPolicy{}), simpleRequest), []string{"text Hi", tt.want, "stop end_turn"})
	}
}

// TestCostNeverNegative: a usage with negative counts (none comes from the
// parsers, but the store's totals are sums) costs nothing rather than less
// than nothing.
func TestCostNeverNegative(t *testing.T) {
	t.Parallel()
	cost, known := Cost(DefaultModel(ProviderAnthropic), Usage{InputTokens: -2400, OutputTokens: 10, CacheReadTokens: -5})
	if !known || cost < 0 {
		t.Errorf("Cost = %v, %v", cost, known)
	}
}

// TestErrorAfterReasoning: OpenRouter reports an error in a data line after
// only reasoning has arrived: {"error":{"code":400,"message":"Token limit
// reached"}}. The sentence says the server's code and message, and speaks
// of no partial answer. Recorded by pydantic-ai:
// pydantic/pydantic-ai tests/models/cassettes/test_openrouter/test_openrouter_stream_error.yaml.
func TestErrorAfterReasoning(t *testing.T) {
	t.Parallel()
	srv, n := scriptedServer(t, reply{200, map[string]string{"Content-Type": "text/event-stream"}, string(readFixture(t, "openai_openrouter_error_after_reasoning.sse"))})
	host := hostOf(t, srv.URL)
	got, last := thinkingEvents(t, newProvider(t, ProviderOpenAI, srv.URL, (&noSleep{}).policy()), simpleRequest)
	diffLines(t, got, []string{
		"thinking We need [reasoning from " + host + "]",
		"thinking  to respond to a greeting. The user [reasoning from " + host + "]",
		"error bad_request partial=true",
	})
	want := "The model server at " + host + " rejected the request (400): Token limit reached."
	if last.Err == nil || last.Err.Error() != want {
		t.Errorf("error = %q, want %q", last.Err, want)
	}
	if n.Load() != 1 {
		t.Errorf("requests = %d, want 1 (a 400 is not retried)", n.Load())
	}
}

// TestGroqToolUseFailed: Groq reports a tool call the model wrote badly as
// an error with code tool_use_failed, in the stream as in a 400 answer. The
// same request usually works the second time: it is retried once. The
// error object is Groq's as LiteLLM relayed it in huggingface/smolagents
// issue #1119 (also groq/groq-typescript issue #28); the role chunk before
// it is a chat.completion.chunk as every server sends it first. The
// "event: error" form is the body of notnotnotnoone/flexrouter's test
// test_stream_chat_raises_on_inband_error_event ("Groq (live-verified)").
func TestGroqToolUseFailed(t *testing.T) {
	t.Parallel()
	const failed = `{"error":{"message":"Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.","type":"invalid_request_error","code":"tool_use_failed","failed_generation":"web_search{\"query\": \"SPFMV and SPCSV in the Pearl Of Africa 2016\", \"filter_year\": 2016}\u003c/function\u003e"}}`
	const role = `{"id":"chatcmpl-1","object":"chat.completion.chunk","model":"llama-3.3-70b-versatile","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`
	sse := map[string]string{"Content-Type": "text/event-stream"}
	midStream := reply{200, sse, "data: " + role + "\n\ndata: " + failed + "\n\n"}
	asStatus := reply{400, map[string]string{"Content-Type": "application/json"}, failed}
	asEvent := reply{200, sse, "event: error\n" + `data: {"error":{"message":"Failed to call a function.","type":"invalid_request_error","code":"tool_use_failed","status_code":400}}` + "\n\n"}
	ok := reply{200, sse, string(readFixture(t, "openai_comments_crlf.sse"))}
	answer := []string{"text Hello", "text , world", "usage in=12 out=3 cr=8 cw=0", "stop end_turn"}
	retry := "retry retrying in 750 ms (the model wrote a malformed tool call)"
	sentence := "wrote a tool call the server could not read (tool_use_failed): Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details and still failed after 1 retries; try again, or choose another model."
	tests := []struct {
		name     string
		replies  []reply
		attempts int
		want     []string
		msg      string
	}{
		{"in the stream, then an answer", []reply{midStream, ok}, 2, append([]string{retry}, answer...), ""},
		{"in the stream twice", []reply{midStream, midStream, ok}, 2, []string{retry, "error bad_request partial=false"}, sentence},
		{"as event: error, then an answer", []reply{asEvent, ok}, 2, append([]string{retry}, answer...), ""},
		{"as a 400, then an answer", []reply{asStatus, ok}, 2, append([]string{retry}, answer...), ""},
		{"as a 400 twice", []reply{asStatus, asStatus, ok}, 2, []string{retry, "error bad_request partial=false"}, sentence},
		{"after part of the answer: not retried", []reply{{200, sse, openaiHel + "data: " + failed + "\n\n"}, ok}, 1, []string{"text Hel", "error bad_request partial=true"}, "The partial answer was kept."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, n := scriptedServer(t, tt.replies...)
			ch, err := newProvider(t, ProviderOpenAI, srv.URL, (&noSleep{}).policy()).Stream(context.Background(), simpleRequest)
			if err != nil {
				t.Fatal(err)
			}
			got, last := events(ch)
			diffLines(t, got, tt.want)
			if int(n.Load()) != tt.attempts {
				t.Errorf("requests = %d, want %d", n.Load(), tt.attempts)
			}
			if tt.msg != "" && (last.Err == nil || !strings.Contains(last.Err.Error(), tt.msg)) {
				t.Errorf("error %q does not contain %q", last.Err, tt.msg)
			}
		})
	}
}

// TestRefusalExplained: Anthropic's refusal ends the stream normally, with
// stop_details on message_delta; EventStop carries the explanation, and
// the error the agent reports says it (see testdata/anthropic_refusal.sse).
func TestRefusalExplained(t *testing.T) {
	t.Parallel()
	srv := replayServer(t, readFixture(t, "anthropic_refusal.sse"))
	_, last := thinkingEvents(t, newProvider(t, ProviderAnthropic, srv.URL, RetryPolicy{}), simpleRequest)
	why := "This request was declined because it could enable cyber harm."
	if last.Type != EventStop || last.Stop != StopRefusal || last.Text != why {
		t.Fatalf("last event %+v", last)
	}
	want := "The model declined to answer this request: This request was declined because it could enable cyber harm. Asking again in this session will likely be declined too: rephrase the request in a new session."
	if got := Refusal(last.Text).Error(); got != want {
		t.Errorf("sentence %q\nwant     %q", got, want)
	}
	if got := RefusalNote(last.Text); got != "The model declined to answer this request (stop reason: refusal): "+why {
		t.Errorf("note %q", got)
	}
	if got := Refusal("").Error(); !strings.HasPrefix(got, "The model declined to answer this request. Asking again") {
		t.Errorf("sentence without explanation %q", got)
	}
}
