// Package llm holds the provider-neutral conversation model, the Provider
// interface the agent loop streams through, and the clients for Anthropic and
// OpenAI-compatible servers.
package llm

import "encoding/json"

// Role is who wrote a message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// BlockType names the kind of a content block.
type BlockType string

const (
	BlockText             BlockType = "text"
	BlockThinking         BlockType = "thinking"
	BlockRedactedThinking BlockType = "redacted_thinking"
	BlockToolUse          BlockType = "tool_use"
	BlockToolResult       BlockType = "tool_result"
	BlockImage            BlockType = "image"
)

// ContentBlock is one part of a message. Which fields are set depends on Type:
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
type ContentBlock struct {
	Type BlockType `json:"type"`
	Text string    `json:"text,omitempty"`
	// Command is the user's message as typed ("/hello Ada") when Text is
	// the slash command it expanded to; providers never send it.
	Command   string          `json:"command,omitempty"`
	Thinking  string          `json:"thinking,omitempty"`
	Signature string          `json:"signature,omitempty"`
	Field     string          `json:"field,omitempty"`
	Origin    string          `json:"origin,omitempty"`
	Data      string          `json:"data,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   string          `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	MediaType string          `json:"media_type,omitempty"`
	Hash      string          `json:"hash,omitempty"`
	Images    []ContentBlock  `json:"images,omitempty"`
	Bytes     []byte          `json:"-"`
}

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
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		InputTokens:      u.InputTokens + o.InputTokens,
		OutputTokens:     u.OutputTokens + o.OutputTokens,
		CacheReadTokens:  u.CacheReadTokens + o.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + o.CacheWriteTokens,
	}
}
