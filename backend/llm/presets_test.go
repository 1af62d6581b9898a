package llm

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// presetRequest is a tool loop whose assistant turn has no thinking: what
// a server that wants its reasoning field back (DeepSeek) must still get
// it on, and a strict one (Mistral) must not.
var presetRequest = Request{
	MaxTokens: 500,
	Messages: []Message{
		{Role: RoleUser, Content: []ContentBlock{TextBlock("list")}},
		{Role: RoleAssistant, Content: []ContentBlock{
			{Type: BlockThinking, Thinking: "hm", Field: FieldReasoning, Origin: "PLACEHOLDER"},
			{Type: BlockToolUse, ID: "c1", Name: "list_files", Input: []byte(`{}`)},
		}},
		{Role: RoleUser, Content: []ContentBlock{{Type: BlockToolResult, ToolUseID: "c1", Content: "a.go"}}},
	},
}

// TestPresetRequests sends one request per preset to a fake server at the
// preset's path: the path, the auth header and the body's quirks are the
// preset's.
func TestPresetRequests(t *testing.T) {
	t.Parallel()
	type want struct {
		path, auth    string
		maxField      string // the limit's field; the other must be absent
		streamOptions bool
		reasoningBack string // JSON of the assistant message's reasoning fields
		header        [2]string
	}
	wants := map[string]want{
		"anthropic":  {"/v1/messages", "x-api-key", "max_tokens", false, "", [2]string{"Anthropic-Version", AnthropicVersion}},
		"openai":     {"/v1/chat/completions", "Bearer", "max_tokens", true, `reasoning="hm"`, [2]string{}},
		"openrouter": {"/api/v1/chat/completions", "Bearer", "max_tokens", true, `reasoning="hm"`, [2]string{"X-Title", "Pilot"}},
		"deepseek":   {"/chat/completions", "Bearer", "max_tokens", true, `reasoning="hm" reasoning_content=""`, [2]string{}},
		"mistral":    {"/v1/chat/completions", "Bearer", "max_tokens", false, "", [2]string{}},
		"groq":       {"/openai/v1/chat/completions", "Bearer", "max_completion_tokens", true, `reasoning="hm"`, [2]string{}},
		"gemini":     {"/v1beta/openai/chat/completions", "Bearer", "max_tokens", true, `reasoning="hm"`, [2]string{}},
		"xai":        {"/v1/chat/completions", "Bearer", "max_tokens", true, `reasoning="hm"`, [2]string{}},
		"ollama":     {"/v1/chat/completions", "Bearer", "max_tokens", true, `reasoning="hm"`, [2]string{}},
		"lmstudio":   {"/v1/chat/completions", "Bearer", "max_tokens", true, `reasoning="hm"`, [2]string{}},
		"llamacpp":   {"/v1/chat/completions", "Bearer", "max_tokens", true, `reasoning="hm"`, [2]string{}},
		"vllm":       {"/v1/chat/completions", "Bearer", "max_tokens", true, `reasoning="hm"`, [2]string{}},
	}
	for _, p := range Presets() {
		w, ok := wants[p.ID]
		if !ok {
			t.Errorf("preset %s has no expectations here", p.ID)
			continue
		}
		t.Run(p.ID, func(t *testing.T) {
			t.Parallel()
			fixture := "openai_comments_crlf.sse"
			if p.Provider == ProviderAnthropic {
				fixture = "anthropic_comments_crlf.sse"
			}
			srv, last := captureServer(t, fixture)
			u, _ := url.Parse(p.BaseURL)
			key := "key-for-" + p.ID + "-0123456789"
			prov, err := New(Config{Provider: p.ID, BaseURL: srv.URL + u.Path, APIKey: key, Model: "some-model"})
			if err != nil {
				t.Fatal(err)
			}
			req := presetRequest
			req.Messages = append([]Message(nil), presetRequest.Messages...)
			a := req.Messages[1]
			a.Content = append([]ContentBlock(nil), a.Content...)
			a.Content[0].Origin = urlHost(srv.URL)
			req.Messages[1] = a
			drain(t, prov, req)
			c := last()
			if c.path != w.path {
				t.Errorf("path %s, want %s", c.path, w.path)
			}
			switch w.auth {
			case "Bearer":
				if got := c.header.Get("Authorization"); got != "Bearer "+key {
					t.Errorf("Authorization = %q", got)
				}
			case "x-api-key":
				if got := c.header.Get("x-api-key"); got != key || c.header.Get("Authorization") != "" {
					t.Errorf("x-api-key = %q, Authorization %q", got, c.header.Get("Authorization"))
				}
			}
			if w.header[0] != "" && c.header.Get(w.header[0]) != w.header[1] {
				t.Errorf("header %s = %q, want %q", w.header[0], c.header.Get(w.header[0]), w.header[1])
			}
			other := map[string]string{"max_tokens": "max_completion_tokens", "max_completion_tokens": "max_tokens"}[w.maxField]
			if jsonOf(c.body[w.maxField]) != "500" || c.body[other] != nil {
				t.Errorf("limit: %s=%s, %s=%s; want %s=500 alone", w.maxField, jsonOf(c.body[w.maxField]), other, jsonOf(c.body[other]), w.maxField)
			}
			if _, has := c.body["stream_options"]; has != w.streamOptions {
				t.Errorf("stream_options sent: %v, want %v", has, w.streamOptions)
			}
			if p.Provider == ProviderOpenAI {
				msgs, _ := c.body["messages"].([]any)
				var got string
				for _, m := range msgs {
					mm, _ := m.(map[string]any)
					if mm["role"] != "assistant" {
						continue
					}
					for _, f := range []string{FieldReasoning, FieldReasoningContent} {
						if v, ok := mm[f]; ok {
							if got != "" {
								got += " "
							}
							got += f + "=" + jsonOf(v)
						}
					}
				}
				if got != w.reasoningBack {
					t.Errorf("reasoning sent back: %q, want %q", got, w.reasoningBack)
				}
			}
		})
	}
}

// TestGenericOpenAIPicksQuirksByHost: the "openai" choice pointed at a
// known host gets that host's quirks; a local or unknown one gets none.
func TestGenericOpenAIPicksQuirksByHost(t *testing.T) {
	t.Parallel()
	for base, want := range map[string]bool{
		"https://api.mistral.ai/v1":  true,
		"http://localhost:11434/v1":  false,
		"https://llm.example.com/v1": false,
		"https://api.openai.com/v1":  false,
	} {
		if got := quirksFor(ProviderOpenAI, base).NoStreamOptions; got != want {
			t.Errorf("%s: NoStreamOptions %v, want %v", base, got, want)
		}
	}
}

func TestKeyHintNamesThePresetsVariable(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]string{
		"deepseek": "the DEEPSEEK_API_KEY environment variable or Settings",
		"openai":   openaiKeyHint,
		"ollama":   "Settings",
	} {
		if got := KeyHint(id); got != want {
			t.Errorf("KeyHint(%s) = %q, want %q", id, got, want)
		}
	}
}

// TestModelLists: /v1/models where the server has it; Ollama's /api/tags
// where it does not; a refused key and an unreachable server say so.
func TestModelLists(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/models", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer good-key-0123456789" {
			w.WriteHeader(401)
			_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`))
			return
		}
		_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"deepseek-v4-flash","object":"model"},{"id":"deepseek-v4-pro","object":"model"}]}`))
	})
	hosted := httptest.NewServer(mux)
	t.Cleanup(hosted.Close)
	// An older Ollama: no /v1/models, only its own API.
	ollama := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/tags" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"models":[{"name":"qwen2.5-coder:7b","model":"qwen2.5-coder:7b","size":4683087332},{"name":"llava:13b","model":"llava:13b"}]}`))
	}))
	t.Cleanup(ollama.Close)
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()

	ids := func(ms []ModelInfo) string {
		var s []string
		for _, m := range ms {
			s = append(s, m.ID)
		}
		return strings.Join(s, ",")
	}
	ctx := context.Background()
	got, err := ListModels(ctx, Config{Provider: "deepseek", BaseURL: hosted.URL + "/v1", APIKey: "good-key-0123456789"})
	if err != nil || ids(got) != "deepseek-v4-flash,deepseek-v4-pro" {
		t.Errorf("hosted: %s, %v", ids(got), err)
	}
	for _, id := range []string{"ollama", "openai"} {
		got, err = ListModels(ctx, Config{Provider: id, BaseURL: ollama.URL + "/v1"})
		if err != nil || ids(got) != "qwen2.5-coder:7b,llava:13b" {
			t.Errorf("%s via /api/tags: %s, %v", id, ids(got), err)
		}
	}
	_, err = ListModels(ctx, Config{Provider: "deepseek", BaseURL: hosted.URL + "/v1", APIKey: "wrong-key-0123456789"})
	if err == nil || !strings.Contains(err.Error(), "rejected the API key") || !strings.Contains(err.Error(), "DEEPSEEK_API_KEY") {
		t.Errorf("refused key: %v", err)
	}
	_, err = ListModels(ctx, Config{Provider: "lmstudio", BaseURL: deadURL + "/v1", Retry: RetryPolicy{MaxRetries: -1}})
	if err == nil || !strings.Contains(err.Error(), "Could not reach") || !strings.Contains(err.Error(), "base URL") {
		t.Errorf("unreachable: %v", err)
	}
}

func TestNoModelSaysWhatToDo(t *testing.T) {
	t.Parallel()
	o := NewOpenAI(Config{Provider: "ollama", BaseURL: "http://localhost:11434/v1"})
	_, err := o.body(simpleRequest)
	if err == nil || !strings.Contains(err.Error(), "no model set for Ollama") || !strings.Contains(err.Error(), "--model") {
		t.Errorf("err = %v", err)
	}
}
