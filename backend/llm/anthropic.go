package llm

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
)

// AnthropicVersion is the anthropic-version header sent with every request.
const AnthropicVersion = "2023-06-01"

// Extended thinking.
const (
	// MinThinkingBudget is the smallest budget_tokens Anthropic accepts.
	MinThinkingBudget = 1024
	// InterleavedThinkingBeta is the anthropic-beta header of a request
	// that thinks: Claude 4 models then think between tool calls too (the
	// Anthropic API ignores it for models without interleaved thinking).
	InterleavedThinkingBeta = "interleaved-thinking-2025-05-14"
)

// Anthropic is a client of the Anthropic Messages API.
type Anthropic struct {
	ep        endpoint
	preset    string
	model     string
	maxTokens int
}

// NewAnthropic returns a client for base (without /v1, e.g.
// https://api.anthropic.com). Use New to build one from a Config.
func NewAnthropic(cfg Config) *Anthropic {
	key := cfg.APIKey
	ep := newEndpoint("anthropic", anthropicKeyHint, cfg, DefaultAnthropicIdle, func(h http.Header) {
		h.Set("x-api-key", key)
		h.Set("anthropic-version", AnthropicVersion)
	})
	return &Anthropic{ep: ep, preset: cfg.Provider, model: cfg.Model, maxTokens: cfg.MaxTokens}
}

const anthropicKeyHint = "the ANTHROPIC_API_KEY environment variable, TS_AGENT_API_KEY in the project's .env, or Settings"

// NativeSearch is "api.anthropic.com" where Anthropic's own API answers
// (not a server speaking its protocol) with a model that has the web
// search tool.
func (a *Anthropic) NativeSearch(model string) string {
	model = firstNonEmpty(model, a.model, DefaultAnthropicModel)
	if a.ep.host != anthropicHost || !searchModel(model) {
		return ""
	}
	return anthropicHost
}

const anthropicHost = "api.anthropic.com"

// Name returns "anthropic".
func (a *Anthropic) Name() string { return "anthropic" }

// Stream starts a streamed call. Failures of the call arrive as EventError;
// the error result is only for a request that cannot be encoded.
func (a *Anthropic) Stream(ctx context.Context, req Request) (<-chan Event, error) {
	body, err := a.body(req, true)
	if err != nil {
		return nil, err
	}
	ep := a.ep
	if withImages(req.Messages) {
		ep.explain = imageRefusal(firstNonEmpty(req.Model, a.model))
	}
	if req.ThinkingBudget > 0 {
		ep.auth = func(h http.Header) {
			a.ep.auth(h)
			h.Set("anthropic-beta", InterleavedThinkingBeta)
		}
	}
	return ep.stream(ctx, "/v1/messages", body, parseAnthropic), nil
}

// Complete makes a short call and returns the answer's text. It streams
// under the hood so it shares the parser and the retries of Stream.
func (a *Anthropic) Complete(ctx context.Context, req Request) (string, Usage, error) {
	return collect(a.Stream(ctx, req))
}

// Models lists the models the key may use (GET /v1/models).
func (a *Anthropic) Models(ctx context.Context) ([]ModelInfo, error) {
	data, err := dataList[struct {
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
	}](ctx, &a.ep, "/v1/models?limit=1000")
	if err != nil {
		return nil, err
	}
	out := make([]ModelInfo, 0, len(data))
	for _, m := range data {
		out = append(out, modelInfo(m.ID, m.DisplayName))
	}
	return out, nil
}

type anthropicCache struct {
	Type string `json:"type"`
}

var ephemeral = &anthropicCache{Type: "ephemeral"}

type anthropicRequest struct {
	Model       string             `json:"model"`
	MaxTokens   int                `json:"max_tokens"`
	System      []anthropicBlock   `json:"system,omitempty"`
	Messages    []anthropicMessage `json:"messages"`
	Tools       []anthropicTool    `json:"tools,omitempty"`
	Temperature *float64           `json:"temperature,omitempty"`
	Thinking    *anthropicThinking `json:"thinking,omitempty"`
	Stream      bool               `json:"stream"`
}

type anthropicThinking struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens"`
}

type anthropicMessage struct {
	Role    Role             `json:"role"`
	Content []anthropicBlock `json:"content"`
}

// anthropicBlock is a content block on the wire. Text and Content are
// pointers so an empty tool result is sent as "content": "" only when set.
type anthropicBlock struct {
	Type         BlockType         `json:"type"`
	Text         *string           `json:"text,omitempty"`
	Thinking     *string           `json:"thinking,omitempty"`
	Signature    string            `json:"signature,omitempty"`
	Data         string            `json:"data,omitempty"`
	ID           string            `json:"id,omitempty"`
	Name         string            `json:"name,omitempty"`
	Input        json.RawMessage   `json:"input,omitempty"`
	ToolUseID    string            `json:"tool_use_id,omitempty"`
	Content      any               `json:"content,omitempty"` // *string, or []anthropicBlock of a tool result with images
	IsError      bool              `json:"is_error,omitempty"`
	Source       *anthropicImage   `json:"source,omitempty"`
	Citations    []json.RawMessage `json:"citations,omitempty"`
	CacheControl *anthropicCache   `json:"cache_control,omitempty"`
	// raw, when set, is the whole block as the API sent it (the blocks
	// of its web search), sent as it is.
	raw json.RawMessage
}

// MarshalJSON sends a kept block as it came, any other as its fields.
func (b anthropicBlock) MarshalJSON() ([]byte, error) {
	if len(b.raw) > 0 {
		return b.raw, nil
	}
	type fields anthropicBlock
	return json.Marshal(fields(b))
}

// anthropicImage is the source of an image block: its bytes in base64.
type anthropicImage struct {
	Type      string `json:"type"` // "base64"
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

type anthropicTool struct {
	Type         string          `json:"type,omitempty"` // a server tool's (webSearchTool)
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"input_schema,omitempty"`
	MaxUses      int             `json:"max_uses,omitempty"`
	CacheControl *anthropicCache `json:"cache_control,omitempty"`
}

// webSearchTool is the version of Anthropic's web search server tool
// Pilot offers
// (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool).
const webSearchTool = "web_search_20250305"

// body encodes req. Prompt caching: cache_control marks the system prompt,
// the last tool definition and the last block of the last message, so each
// call of a tool loop reads the previous prefix from the cache.
func (a *Anthropic) body(req Request, stream bool) ([]byte, error) {
	model := firstNonEmpty(req.Model, a.model, DefaultAnthropicModel)
	out := anthropicRequest{
		Model:       model,
		MaxTokens:   maxTokens(req.MaxTokens, a.maxTokens, model),
		Temperature: req.Temperature,
		Stream:      stream,
	}
	if req.ThinkingBudget > 0 {
		out.Thinking = &anthropicThinking{Type: "enabled", BudgetTokens: req.ThinkingBudget}
		out.Temperature = nil // extended thinking requires the default temperature
		out.MaxTokens = thinkingMaxTokens(out.MaxTokens, req.ThinkingBudget, model)
	}
	if req.System != "" {
		out.System = []anthropicBlock{{Type: BlockText, Text: &req.System, CacheControl: ephemeral}}
	}
	defs := req.Tools
	if req.WebSearch > 0 {
		defs = withoutTool(defs, webSearchName)
	}
	for _, t := range defs {
		out.Tools = append(out.Tools, anthropicTool{Name: t.Name, Description: t.Description, InputSchema: schemaOrEmpty(t.InputSchema)})
	}
	if req.WebSearch > 0 {
		out.Tools = append(out.Tools, anthropicTool{Type: webSearchTool, Name: webSearchName, MaxUses: req.WebSearch})
	}
	if n := len(out.Tools); n > 0 {
		out.Tools[n-1].CacheControl = ephemeral
	}
	msgs, err := prepareImages(a.preset, model, req.Messages)
	if err != nil {
		return nil, err
	}
	for _, m := range msgs {
		wm := anthropicMessage{Role: m.Role}
		paired := pairedSearches(m.Content)
		for _, b := range m.Content {
			if (b.Type == BlockServerToolUse && !paired[b.ID]) || (b.Type == BlockWebSearchResult && !paired[b.ToolUseID]) {
				continue
			}
			if wb, ok := anthropicWireBlock(b); ok {
				wm.Content = append(wm.Content, wb)
			}
		}
		if len(wm.Content) > 0 {
			out.Messages = append(out.Messages, wm)
		}
	}
	if len(out.Messages) == 0 {
		return nil, errors.New("llm: a request needs at least one message")
	}
	last := out.Messages[len(out.Messages)-1].Content
	if lb := &last[len(last)-1]; lb.Type != BlockThinking && lb.Type != BlockRedactedThinking {
		lb.CacheControl = ephemeral
	}
	return json.Marshal(out)
}

// pairedSearches is the IDs of the provider's searches in an answer that
// came with their results. A search cut off before its result (a stream
// that broke mid-search) goes back without either block: the API refuses a
// server_tool_use with no web_search_tool_result after it ("tool use with
// id srvtoolu_... was found without a corresponding ..._tool_result
// block"), and the answer's card already says the provider sent no results.
func pairedSearches(blocks []ContentBlock) map[string]bool {
	uses := map[string]bool{}
	for _, b := range blocks {
		if b.Type == BlockServerToolUse {
			uses[b.ID] = true
		}
	}
	paired := map[string]bool{}
	for _, b := range blocks {
		if b.Type == BlockWebSearchResult && uses[b.ToolUseID] {
			paired[b.ToolUseID] = true
		}
	}
	return paired
}

// anthropicWireBlock converts a block; ok is false for blocks the API would
// reject (empty text, thinking without a signature, redacted thinking
// without data). Thinking blocks go back exactly as they came, in place.
func anthropicWireBlock(b ContentBlock) (anthropicBlock, bool) {
	switch b.Type {
	case BlockText:
		return anthropicBlock{Type: BlockText, Text: &b.Text, Citations: b.Citations}, b.Text != ""
	case BlockServerToolUse, BlockWebSearchResult:
		return anthropicBlock{raw: b.Raw}, len(b.Raw) > 0
	case BlockThinking:
		return anthropicBlock{Type: BlockThinking, Thinking: &b.Thinking, Signature: b.Signature}, b.Signature != ""
	case BlockRedactedThinking:
		return anthropicBlock{Type: BlockRedactedThinking, Data: b.Data}, b.Data != ""
	case BlockToolUse:
		input := b.Input
		if fixed, err := toolInput(input); err != nil {
			input = json.RawMessage("{}") // the API needs an object; the tool_result tells the model what went wrong
		} else {
			input = fixed
		}
		return anthropicBlock{Type: BlockToolUse, ID: b.ID, Name: b.Name, Input: input}, true
	case BlockToolResult:
		if len(b.Images) == 0 {
			return anthropicBlock{Type: BlockToolResult, ToolUseID: b.ToolUseID, Content: &b.Content, IsError: b.IsError}, true
		}
		parts := []anthropicBlock{}
		if b.Content != "" {
			parts = append(parts, anthropicBlock{Type: BlockText, Text: &b.Content})
		}
		for _, img := range b.Images {
			parts = append(parts, anthropicImageBlock(img))
		}
		return anthropicBlock{Type: BlockToolResult, ToolUseID: b.ToolUseID, Content: parts, IsError: b.IsError}, true
	case BlockImage:
		return anthropicImageBlock(b), len(b.Bytes) > 0
	}
	return anthropicBlock{}, false
}

// anthropicImageBlock is an image block with a base64 source
// (https://docs.anthropic.com/en/docs/build-with-claude/vision).
func anthropicImageBlock(b ContentBlock) anthropicBlock {
	return anthropicBlock{Type: BlockImage, Source: &anthropicImage{Type: "base64", MediaType: b.MediaType, Data: base64.StdEncoding.EncodeToString(b.Bytes)}}
}

func schemaOrEmpty(s json.RawMessage) json.RawMessage {
	if len(s) == 0 || !json.Valid(s) {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return s
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// thinkingMaxTokens is max_tokens of a call that thinks: max_tokens
// counts the thinking too, so the answer keeps its limit on top of the
// budget, within the model's output limit when the model is known. (The
// budget is below that limit: config.CheckThinking.)
func thinkingMaxTokens(answer, budget int, model string) int {
	n := answer + budget
	if m, ok := LookupModel(model); ok {
		n = min(n, m.MaxOutput)
	}
	return n
}

// maxTokens picks the request's limit, then the client's, then a default
// capped by the model's output limit.
func maxTokens(request, client int, model string) int {
	switch {
	case request > 0:
		return request
	case client > 0:
		return client
	}
	return DefaultMaxTokens(model)
}
