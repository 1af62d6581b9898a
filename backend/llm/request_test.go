package llm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// captured is one request a capture server received.
type captured struct {
	path   string
	header http.Header
	body   map[string]any
	raw    []byte // the body as it came
}

// captureServer records requests and answers with fixture.
func captureServer(t *testing.T, fixture string) (*httptest.Server, func() captured) {
	t.Helper()
	var mu sync.Mutex
	var last captured
	body := readFixture(t, fixture)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		c := captured{path: r.URL.Path, header: r.Header.Clone(), raw: raw}
		_ = json.Unmarshal(raw, &c.body)
		mu.Lock()
		last = c
		mu.Unlock()
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, func() captured { mu.Lock(); defer mu.Unlock(); return last }
}

// toolLoop is a conversation in the middle of a tool loop.
var toolLoop = Request{
	System:    "You are Pilot.",
	MaxTokens: 1000,
	Tools: []ToolDef{
		{Name: "read_file", Description: "Read a file", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
		{Name: "list_files", Description: "List files"},
	},
	Messages: []Message{
		{Role: RoleUser, Content: []ContentBlock{TextBlock("Read go.mod")}},
		{Role: RoleAssistant, Content: []ContentBlock{
			{Type: BlockThinking, Thinking: "I should read it.", Signature: "sig=="},
			TextBlock("Reading."),
			{Type: BlockToolUse, ID: "toolu_1", Name: "read_file", Input: json.RawMessage(`{"path":"go.mod"}`)},
			{Type: BlockToolUse, ID: "toolu_2", Name: "list_files", Input: json.RawMessage(`{"path": `)},
		}},
		{Role: RoleUser, Content: []ContentBlock{
			{Type: BlockToolResult, ToolUseID: "toolu_1", Content: "module pilot"},
			{Type: BlockToolResult, ToolUseID: "toolu_2", Content: "the tool input is not valid JSON", IsError: true},
			TextBlock("Also, be brief."),
		}},
	},
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestAnthropicRequest(t *testing.T) {
	t.Parallel()
	srv, last := captureServer(t, "anthropic_comments_crlf.sse")
	drain(t, newProvider(t, ProviderAnthropic, srv.URL, RetryPolicy{}), toolLoop)
	c := last()
	if c.path != "/v1/messages" || c.header.Get("x-api-key") != testKey || c.header.Get("anthropic-version") != "2023-06-01" {
		t.Errorf("path %s, headers %v", c.path, c.header)
	}
	checks := map[string]string{
		"model":      `"test-model"`,
		"max_tokens": `1000`,
		"stream":     `true`,
		"system":     `[{"cache_control":{"type":"ephemeral"},"text":"You are Pilot.","type":"text"}]`,
		"tools": `[{"description":"Read a file","input_schema":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"},"name":"read_file"},` +
			`{"cache_control":{"type":"ephemeral"},"description":"List files","input_schema":{"properties":{},"type":"object"},"name":"list_files"}]`,
		"messages": `[{"content":[{"text":"Read go.mod","type":"text"}],"role":"user"},` +
			`{"content":[{"signature":"sig==","thinking":"I should read it.","type":"thinking"},{"text":"Reading.","type":"text"},` +
			`{"id":"toolu_1","input":{"path":"go.mod"},"name":"read_file","type":"tool_use"},{"id":"toolu_2","input":{},"name":"list_files","type":"tool_use"}],"role":"assistant"},` +
			`{"content":[{"content":"module pilot","tool_use_id":"toolu_1","type":"tool_result"},` +
			`{"content":"the tool input is not valid JSON","is_error":true,"tool_use_id":"toolu_2","type":"tool_result"},` +
			`{"cache_control":{"type":"ephemeral"},"text":"Also, be brief.","type":"text"}],"role":"user"}]`,
	}
	for k, want := range checks {
		if got := jsonOf(c.body[k]); got != want {
			t.Errorf("%s:\ngot  %s\nwant %s", k, got, want)
		}
	}
}

// TestAnthropicThinkingRequest: a request that thinks sends the budget,
// no temperature, no tool_choice (auto), the interleaved-thinking beta, and
// max_tokens with the answer's limit on top of the budget, within the
// model's output limit; one that does not think sends none of it.
func TestAnthropicThinkingRequest(t *testing.T) {
	t.Parallel()
	temp := 0.2
	tests := []struct {
		name              string
		model             string
		budget, maxTokens int
		wantMax           float64
	}{
		{"off", "", 0, 1024, 1024},
		{"unknown model", "", 2048, 1024, 3072},
		{"within the model's limit", "claude-sonnet-4-5", 16384, 8192, 24576},
		{"capped at the model's limit", "claude-opus-4-1", 31999, 8192, 32000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, last := captureServer(t, "anthropic_thinking.sse")
			req := toolLoop
			req.Model, req.ThinkingBudget, req.MaxTokens, req.Temperature = tt.model, tt.budget, tt.maxTokens, &temp
			drain(t, newProvider(t, ProviderAnthropic, srv.URL, RetryPolicy{}), req)
			c := last()
			if got := c.body["max_tokens"].(float64); got != tt.wantMax {
				t.Errorf("max_tokens %v, want %v", got, tt.wantMax)
			}
			if _, ok := c.body["tool_choice"]; ok {
				t.Errorf("tool_choice sent: %v", c.body["tool_choice"])
			}
			beta, thinking := c.header.Get("anthropic-beta"), jsonOf(c.body["thinking"])
			if tt.budget == 0 {
				if beta != "" || c.body["thinking"] != nil || c.body["temperature"] != 0.2 {
					t.Errorf("without thinking: beta %q, thinking %s, temperature %v", beta, thinking, c.body["temperature"])
				}
				return
			}
			if want := `{"budget_tokens":` + strconv.Itoa(tt.budget) + `,"type":"enabled"}`; thinking != want {
				t.Errorf("thinking %s, want %s", thinking, want)
			}
			if beta != InterleavedThinkingBeta || c.body["temperature"] != nil {
				t.Errorf("anthropic-beta %q, temperature %v", beta, c.body["temperature"])
			}
		})
	}
}

func TestOpenAIRequest(t *testing.T) {
	t.Parallel()
	srv, last := captureServer(t, "openai_comments_crlf.sse")
	drain(t, newProvider(t, ProviderOpenAI, srv.URL, RetryPolicy{}), toolLoop)
	c := last()
	if c.path != "/v1/chat/completions" || c.header.Get("Authorization") != "Bearer "+testKey {
		t.Errorf("path %s, headers %v", c.path, c.header)
	}
	checks := map[string]string{
		"model":          `"test-model"`,
		"max_tokens":     `1000`,
		"stream":         `true`,
		"stream_options": `{"include_usage":true}`,
		"tools": `[{"function":{"description":"Read a file","name":"read_file","parameters":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}},"type":"function"},` +
			`{"function":{"description":"List files","name":"list_files","parameters":{"properties":{},"type":"object"}},"type":"function"}]`,
		"messages": `[{"content":"You are Pilot.","role":"system"},{"content":"Read go.mod","role":"user"},` +
			`{"content":"Reading.","role":"assistant","tool_calls":[{"function":{"arguments":"{\"path\":\"go.mod\"}","name":"read_file"},"id":"toolu_1","type":"function"},` +
			`{"function":{"arguments":"{\"path\": ","name":"list_files"},"id":"toolu_2","type":"function"}]},` +
			`{"content":"module pilot","role":"tool","tool_call_id":"toolu_1"},` +
			`{"content":"Error: the tool input is not valid JSON","role":"tool","tool_call_id":"toolu_2"},` +
			`{"content":"Also, be brief.","role":"user"}]`,
	}
	for k, want := range checks {
		if got := jsonOf(c.body[k]); got != want {
			t.Errorf("%s:\ngot  %s\nwant %s", k, got, want)
		}
	}
}

func TestOpenAIRequestVariants(t *testing.T) {
	t.Parallel()
	srv, last := captureServer(t, "openai_comments_crlf.sse")
	// A reasoning model gets max_completion_tokens; no key sends no header;
	// an assistant message with only tool calls has "content": null.
	p, err := New(Config{Provider: ProviderOpenAI, BaseURL: srv.URL + "/v1/", Model: "o3"})
	if err != nil {
		t.Fatal(err)
	}
	temp := 1.0
	req := Request{Temperature: &temp, Messages: []Message{
		{Role: RoleUser, Content: []ContentBlock{TextBlock("hi")}},
		{Role: RoleAssistant, Content: []ContentBlock{{Type: BlockToolUse, ID: "c1", Name: "glob"}}},
		{Role: RoleUser, Content: []ContentBlock{{Type: BlockToolResult, ToolUseID: "c1", Content: ""}}},
	}}
	drain(t, p, req)
	c := last()
	if c.header.Get("Authorization") != "" || c.body["max_completion_tokens"] == nil || c.body["max_tokens"] != nil || c.body["temperature"] != nil {
		t.Errorf("headers %v body %v", c.header, c.body)
	}
	msgs := jsonOf(c.body["messages"])
	if !strings.Contains(msgs, `{"content":null,"role":"assistant","tool_calls":[{"function":{"arguments":"{}","name":"glob"}`) {
		t.Errorf("messages %s", msgs)
	}
}

func TestNewValidates(t *testing.T) {
	t.Parallel()
	for _, cfg := range []Config{
		{Provider: "cohere", APIKey: "k"},
		{Provider: ProviderOpenAI, BaseURL: "localhost:11434/v1"},
		{Provider: ProviderAnthropic},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
	p, err := New(Config{Provider: ProviderOpenAI, BaseURL: "http://localhost:11434/v1"})
	if err != nil || p.Name() != "openai" {
		t.Fatalf("ollama config: %v", err)
	}
	if _, err := p.Stream(context.Background(), simpleRequest); err == nil || !strings.Contains(err.Error(), "no model") {
		t.Errorf("a local server without a model: %v", err)
	}
}

func TestListModels(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/models":
			_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"claude-sonnet-4-5-20250929","display_name":"Claude Sonnet 4.5"},{"id":"qwen2.5-coder:7b"}],"has_more":false}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	for _, cfg := range []Config{
		{Provider: ProviderAnthropic, BaseURL: srv.URL, APIKey: testKey},
		{Provider: ProviderOpenAI, BaseURL: srv.URL + "/v1"},
	} {
		got, err := ListModels(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].ID != "claude-sonnet-4-5-20250929" || !got[0].Known || got[1].Known {
			t.Errorf("%s: %+v", cfg.Provider, got)
		}
	}
	_, err := ListModels(context.Background(), Config{Provider: ProviderOpenAI, BaseURL: srv.URL + "/nope"})
	if err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("missing list: %v", err)
	}
}
