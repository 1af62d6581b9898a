package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// OpenAI is a client of the chat completions API of OpenAI and of any
// OpenAI-compatible server (Ollama, LM Studio, llama.cpp, OpenRouter...).
type OpenAI struct {
	ep        endpoint
	model     string
	maxTokens int
	quirks    Quirks
	generic   bool   // the "openai" choice: any server, maybe Ollama
	preset    string // the preset id it was built for
}

const openaiKeyHint = "the OPENAI_API_KEY environment variable or Settings"

// NewOpenAI returns a client for cfg.BaseURL (with /v1, e.g.
// http://localhost:11434/v1). An empty key sends no Authorization header,
// as local servers expect. Use New to build one from a Config.
func NewOpenAI(cfg Config) *OpenAI {
	key := cfg.APIKey
	q := quirksFor(cfg.Provider, cfg.BaseURL)
	ep := newEndpoint("openai", KeyHint(cfg.Provider), cfg, DefaultOpenAIIdle, func(h http.Header) {
		if key != "" {
			h.Set("Authorization", "Bearer "+key)
		}
		for k, v := range q.Headers {
			h.Set(k, v)
		}
	})
	return &OpenAI{ep: ep, model: cfg.Model, maxTokens: cfg.MaxTokens, quirks: q, preset: cfg.Provider,
		generic: strings.EqualFold(cfg.Provider, ProviderOpenAI)}
}

// Name returns "openai".
func (o *OpenAI) Name() string { return "openai" }

// Stream starts a streamed call. Failures of the call arrive as EventError;
// the error result is only for a request that cannot be encoded.
func (o *OpenAI) Stream(ctx context.Context, req Request) (<-chan Event, error) {
	body, err := o.body(req)
	if err != nil {
		return nil, err
	}
	host := o.ep.host
	ep := o.ep
	if withImages(req.Messages) {
		ep.explain = imageRefusal(firstNonEmpty(req.Model, o.model))
	}
	return ep.stream(ctx, "/chat/completions", body, func(r io.Reader, emit func(Event) bool) error {
		return parseOpenAIFrom(host, r, emit)
	}), nil
}

// Complete makes a short call and returns the answer's text. It streams
// under the hood so it shares the parser and the retries of Stream.
func (o *OpenAI) Complete(ctx context.Context, req Request) (string, Usage, error) {
	return collect(o.Stream(ctx, req))
}

// Models lists the server's models (GET {base}/models). Where that is
// absent (404) and the server may be Ollama (its preset, or the generic
// choice), the list is Ollama's own GET /api/tags at the server's root.
func (o *OpenAI) Models(ctx context.Context) ([]ModelInfo, error) {
	data, err := dataList[struct {
		ID string `json:"id"`
	}](ctx, &o.ep, "/models")
	var e *Error
	if errors.As(err, &e) && e.Kind == KindNotFound && (o.quirks.OllamaTags || o.generic) {
		return o.ollamaTags(ctx, err)
	}
	if err != nil {
		return nil, err
	}
	out := make([]ModelInfo, 0, len(data))
	for _, m := range data {
		out = append(out, modelInfo(m.ID, ""))
	}
	return out, nil
}

// ollamaTags lists the models of an Ollama server (GET /api/tags); first
// is the error of /models, returned when this fails too.
func (o *OpenAI) ollamaTags(ctx context.Context, first error) ([]ModelInfo, error) {
	var tags struct {
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	ep := o.ep
	ep.base = strings.TrimSuffix(ep.base, "/v1")
	if err := ep.getJSON(ctx, "/api/tags", &tags); err != nil {
		return nil, first
	}
	out := make([]ModelInfo, 0, len(tags.Models))
	for _, m := range tags.Models {
		out = append(out, modelInfo(firstNonEmpty(m.Model, m.Name), ""))
	}
	return out, nil
}

type openaiRequest struct {
	Model               string          `json:"model"`
	Messages            []openaiMessage `json:"messages"`
	Tools               []openaiTool    `json:"tools,omitempty"`
	MaxTokens           int             `json:"max_tokens,omitempty"`
	MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
	Temperature         *float64        `json:"temperature,omitempty"`
	Stream              bool            `json:"stream"`
	StreamOptions       *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options,omitempty"`
}

type openaiMessage struct {
	Role string `json:"role"`
	// Content is *string (nil: null), or []openaiPart for a user message
	// with images.
	Content any `json:"content"`
	// The assistant's thinking, sent back to the server it came from in the
	// field it came in; see reasoningBack.
	ReasoningContent *string          `json:"reasoning_content,omitempty"`
	Reasoning        *string          `json:"reasoning,omitempty"`
	ToolCalls        []openaiToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string           `json:"tool_call_id,omitempty"`
}

// openaiPart is a part of a user message's content: text, or an image as
// a data URL (https://platform.openai.com/docs/guides/images-vision).
type openaiPart struct {
	Type     string `json:"type"` // "text" or "image_url"
	Text     string `json:"text,omitempty"`
	ImageURL *struct {
		URL string `json:"url"`
	} `json:"image_url,omitempty"`
}

func imagePart(b ContentBlock) openaiPart {
	return openaiPart{Type: "image_url", ImageURL: &struct {
		URL string `json:"url"`
	}{dataURL(b)}}
}

type openaiToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type openaiTool struct {
	Type     string          `json:"type"`
	Function *openaiFunction `json:"function,omitempty"`
	// Parameters configure a server tool (openrouterSearch).
	Parameters any `json:"parameters,omitempty"`
}

type openaiFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// openrouterSearch is OpenRouter's web search server tool
// (https://openrouter.ai/docs/guides/features/server-tools/web-search): the
// model searches when it chooses, up to max_uses times. (Its older web
// plugin searches on every request, so a tool loop would search again at
// each step; OpenRouter marks the plugin deprecated.)
const openrouterSearch = "openrouter:web_search"

// openrouterHost is OpenRouter's API host.
const openrouterHost = "openrouter.ai"

// NativeSearch is "openrouter.ai" when the server is OpenRouter, whose
// search any model may use; "" for every other server.
func (o *OpenAI) NativeSearch(string) string {
	if o.ep.host != openrouterHost {
		return ""
	}
	return openrouterHost
}

func (o *OpenAI) body(req Request) ([]byte, error) {
	model := firstNonEmpty(req.Model, o.model)
	if model == "" {
		name := presetName(o.preset)
		if o.generic || name == "" {
			name = "the OpenAI-compatible server"
		}
		return nil, fmt.Errorf("llm: no model set for %s; choose one of the server's models in Settings, or pass --model (PILOT_MODEL)", name)
	}
	out := openaiRequest{Model: model, Temperature: req.Temperature, Stream: true}
	if !o.quirks.NoStreamOptions {
		out.StreamOptions = &struct {
			IncludeUsage bool `json:"include_usage"`
		}{true}
	}
	n := maxTokens(req.MaxTokens, o.maxTokens, model)
	if reasoningModel(model) {
		out.Temperature = nil
	}
	switch field := o.quirks.MaxTokensField; {
	case field == "max_completion_tokens", field == "" && reasoningModel(model):
		out.MaxCompletionTokens = n
	default:
		out.MaxTokens = n
	}
	if req.System != "" {
		out.Messages = append(out.Messages, openaiMessage{Role: "system", Content: &req.System})
	}
	msgs, err := prepareImages(o.preset, model, req.Messages)
	if err != nil {
		return nil, err
	}
	back := o.reasoningBack(msgs)
	for _, m := range msgs {
		out.Messages = append(out.Messages, openaiMessages(m, o.ep.host, back)...)
	}
	if len(out.Messages) == 0 {
		return nil, errors.New("llm: a request needs at least one message")
	}
	defs := req.Tools
	if req.WebSearch > 0 {
		defs = withoutTool(defs, webSearchName)
	}
	for _, t := range defs {
		out.Tools = append(out.Tools, openaiTool{Type: "function", Function: &openaiFunction{Name: t.Name, Description: t.Description, Parameters: schemaOrEmpty(t.InputSchema)}})
	}
	if req.WebSearch > 0 {
		out.Tools = append(out.Tools, openaiTool{Type: openrouterSearch, Parameters: map[string]int{"max_uses": req.WebSearch}})
	}
	return json.Marshal(out)
}

// reasoningBack returns the fields (FieldReasoningContent, FieldReasoning)
// the client's server streamed thinking in, in this conversation.
//
// Sending thinking back is a rule of some servers and an error for others:
// DeepSeek's thinking mode answers 400 "The reasoning_content in the
// thinking mode must be passed back to the API" (or "Missing
// reasoning_content field in the assistant message") when an assistant
// message with tool_calls comes back without it, and Xiaomi's MiMo does the
// same; but strict servers refuse fields they do not know (Mistral answers
// 422 extra_forbidden for any extra field of a message, StepFun
// "Unrecognized chat message"), and DeepSeek's older deepseek-reasoner
// answered 400 to any reasoning_content in the input. So Pilot sends a
// thinking back only to the host it came from (ContentBlock.Origin) and
// only in the field it came in (ContentBlock.Field): a server that never
// sent the field never receives it, OpenAI's own API included. To a host
// that did, every assistant message carries the field, empty where no
// thinking arrived (DeepSeek sometimes skips it in a tool-call turn, and
// then wants the field anyway); DeepSeek ignores it on turns without tool
// calls.
//
// A strict server (the client's quirks) gets none; one whose quirks say it
// wants its field back gets it on every assistant message.
func (o *OpenAI) reasoningBack(msgs []Message) map[string]bool {
	return reasoningBackWith(o.quirks, msgs, o.ep.host)
}

func reasoningBackWith(q Quirks, msgs []Message, host string) map[string]bool {
	if q.StrictMessages {
		return nil
	}
	var back map[string]bool
	if q.ReasoningBack && q.ReasoningField != "" {
		back = map[string]bool{q.ReasoningField: true}
	}
	for _, m := range msgs {
		for _, b := range m.Content {
			if b.Type == BlockThinking && b.Field != "" && b.Origin == host {
				if back == nil {
					back = map[string]bool{}
				}
				back[b.Field] = true
			}
		}
	}
	return back
}

// openaiMessages converts one message. An assistant message becomes one
// message with its text and tool_calls, and its thinking in the fields of
// back (see reasoningBack); other thinking and redacted thinking are
// dropped: chat completions has no way to send them back. A user message
// becomes one "tool" message per tool_result, first, as the API requires
// them right after the assistant's tool_calls, then one user message with
// the text.
func openaiMessages(m Message, host string, back map[string]bool) []openaiMessage {
	var text []string
	if m.Role == RoleAssistant {
		msg := openaiMessage{Role: "assistant"}
		thinking := map[string]*strings.Builder{}
		for f := range back {
			thinking[f] = &strings.Builder{}
		}
		for _, b := range m.Content {
			switch b.Type {
			case BlockThinking:
				if w := thinking[b.Field]; w != nil && b.Origin == host {
					w.WriteString(b.Thinking)
				}
			case BlockText:
				text = append(text, b.Text)
			case BlockToolUse:
				var tc openaiToolCall
				tc.ID, tc.Type = b.ID, "function"
				tc.Function.Name = b.Name
				tc.Function.Arguments = string(b.Input)
				if len(b.Input) == 0 {
					tc.Function.Arguments = "{}"
				}
				msg.ToolCalls = append(msg.ToolCalls, tc)
			}
		}
		if s := strings.Join(text, "\n\n"); s != "" || len(msg.ToolCalls) == 0 {
			msg.Content = &s
		}
		if w := thinking[FieldReasoningContent]; w != nil {
			s := w.String()
			msg.ReasoningContent = &s
		}
		if w := thinking[FieldReasoning]; w != nil {
			s := w.String()
			msg.Reasoning = &s
		}
		return []openaiMessage{msg}
	}
	var out []openaiMessage
	var parts []openaiPart // images: from tool results first, then the user's
	for _, b := range m.Content {
		switch b.Type {
		case BlockText:
			text = append(text, b.Text)
		case BlockImage:
			parts = append(parts, imagePart(b))
		case BlockToolResult:
			content := b.Content
			if b.IsError && !strings.HasPrefix(strings.ToLower(content), "error") {
				content = "Error: " + content
			}
			if len(b.Images) > 0 {
				// A tool message carries text only: the images follow in
				// the user message, named.
				content += fmt.Sprintf("\n[%d image(s) follow in the next user message]", len(b.Images))
				parts = append(parts, openaiPart{Type: "text", Text: fmt.Sprintf("The image(s) returned by tool call %s:", b.ToolUseID)})
				for _, img := range b.Images {
					parts = append(parts, imagePart(img))
				}
			}
			out = append(out, openaiMessage{Role: "tool", ToolCallID: b.ToolUseID, Content: &content})
		}
	}
	switch {
	case len(parts) > 0:
		if len(text) > 0 {
			parts = append([]openaiPart{{Type: "text", Text: strings.Join(text, "\n\n")}}, parts...)
		}
		out = append(out, openaiMessage{Role: "user", Content: parts})
	case len(text) > 0:
		s := strings.Join(text, "\n\n")
		out = append(out, openaiMessage{Role: "user", Content: &s})
	}
	return out
}

// reasoningModel reports whether an OpenAI model takes
// max_completion_tokens and rejects temperature (o1, o3, o4, gpt-5...).
func reasoningModel(model string) bool {
	m := normalizeModel(model)
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if m == p || strings.HasPrefix(m, p+"-") {
			return true
		}
	}
	return false
}
