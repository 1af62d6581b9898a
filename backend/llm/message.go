// Package llm holds the provider-neutral conversation model, the Provider
// interface the agent loop streams through, and the clients for Anthropic and
// OpenAI-compatible servers.
package llm

import (
	"encoding/json"
	"strings"

	"pilot/backend/wire"
)

// Role is who wrote a message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// BlockType names the kind of a content block (ContentBlock.Type).
type BlockType = string

const (
	BlockText             BlockType = "text"
	BlockThinking         BlockType = "thinking"
	BlockRedactedThinking BlockType = "redacted_thinking"
	BlockToolUse          BlockType = "tool_use"
	BlockToolResult       BlockType = "tool_result"
	BlockImage            BlockType = "image"
)

// ContentBlock is one part of a message: the block a stored message keeps
// and `pilot sessions show --json` prints, one type for both (wire declares
// it). Which fields are set depends on Type:
//
//	text:        Text
//	thinking:          Thinking, Signature (sent back unchanged in tool loops);
//	                   Field, Origin for an OpenAI-compatible server's reasoning
//	                   (sent back in that field to that host only)
//	redacted_thinking: Data (Anthropic's encrypted thinking, sent back unchanged)
//	tool_use:          ID, Name, Input (complete JSON object)
//	tool_result:       ToolUseID, Content, IsError; Images the tool returned
//	image:             MediaType, Hash (of the bytes in the ledger's blob
//	                   store); Bytes filled before a request, never stored
//	server_tool_use:   ID, Name, Input, Raw (a provider's own search: Raw
//	                   is the block as it came, sent back unchanged)
//	web_search_tool_result: ToolUseID, Raw (its results or error, as they came)
//
// A text block's Citations are the sources it cites, each as the provider
// sent it (Anthropic's are sent back with the text).
//
// Command is the user's message as typed ("/hello Ada") when Text is the
// slash command it expanded to; providers never send it.
type ContentBlock = wire.ContentBlock

// The fields OpenAI-compatible servers stream thinking in, and take it
// back in (ContentBlock.Field).
const (
	FieldReasoningContent = "reasoning_content" // DeepSeek, vLLM, Kimi, MiMo...
	FieldReasoning        = "reasoning"         // OpenRouter, Ollama, vLLM
)

// Message is one turn of the conversation as the providers need it.
type Message struct {
	Role    Role           `json:"role"`
	Content []ContentBlock `json:"content"`
}

// TextBlock returns a text content block.
func TextBlock(s string) ContentBlock { return ContentBlock{Type: BlockText, Text: s} }

// JoinText joins the text blocks of a message that hold more than white
// space, a line apart.
func JoinText(blocks []ContentBlock) string {
	var parts []string
	for _, b := range blocks {
		if b.Type == BlockText && strings.TrimSpace(b.Text) != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// ToolDef describes a tool the model may call. InputSchema is a JSON Schema
// object.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Usage counts tokens of one model call.
type Usage struct {
	InputTokens      int `json:"inputTokens"`
	OutputTokens     int `json:"outputTokens"`
	CacheReadTokens  int `json:"cacheReadTokens"`
	CacheWriteTokens int `json:"cacheWriteTokens"`
	// WebSearches is how many searches the provider's own search made
	// (Anthropic's usage.server_tool_use.web_search_requests, OpenRouter's
	// server_tool_use_details): read with the answer, kept as the
	// web_search calls it stands for (agent/kind_native.go), not with the
	// token counts.
	WebSearches int `json:"-"`
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		InputTokens:      u.InputTokens + o.InputTokens,
		OutputTokens:     u.OutputTokens + o.OutputTokens,
		CacheReadTokens:  u.CacheReadTokens + o.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + o.CacheWriteTokens,
		WebSearches:      u.WebSearches + o.WebSearches,
	}
}
