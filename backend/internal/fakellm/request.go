package fakellm

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// Request is a request the server received, decoded for assertions.
type Request struct {
	Time   time.Time      `json:"time"`
	Method string         `json:"method"`
	Path   string         `json:"path"`
	Format string         `json:"format"` // "anthropic", "openai" or "" (other endpoints)
	Header http.Header    `json:"header"` // x-api-key and Authorization redacted
	Body   map[string]any `json:"body,omitempty"`
	Model  string         `json:"model,omitempty"`
	System string         `json:"system,omitempty"`
	// LastUserText is the text of the last user message.
	LastUserText string `json:"lastUserText,omitempty"`
	// ToolResults are the tool results of the last user message (OpenAI:
	// the "tool" messages after the last assistant message).
	ToolResults []ToolResult `json:"toolResults,omitempty"`
	// Images are the images of the last user message: Anthropic image
	// blocks, or OpenAI image_url parts (which carry a tool's images too).
	Images []Image  `json:"images,omitempty"`
	Tools  []string `json:"tools,omitempty"` // names of the tools offered
	Turn   int      `json:"turn"`            // index of the turn served, -1 for none
}

// ToolResult is one tool result sent back to the model.
type ToolResult struct {
	ToolUseID string  `json:"toolUseId"`
	Content   string  `json:"content"`
	IsError   bool    `json:"isError,omitempty"`
	Images    []Image `json:"images,omitempty"` // Anthropic: image blocks in the result's content
}

// Image is an image a request carried, decoded from its base64.
type Image struct {
	MediaType string `json:"mediaType"`
	Size      int    `json:"size"`   // bytes
	SHA256    string `json:"sha256"` // of the bytes, hex
	Wire      string `json:"wire"`   // "image" (Anthropic block) or "image_url" (OpenAI part)
}

// decodeImage reads an image of either wire form; ok is false when it is
// not one or its base64 does not decode.
func decodeImage(b wireBlock) (Image, bool) {
	var mt, data string
	switch {
	case b.Type == "image" && b.Source != nil && b.Source.Type == "base64":
		mt, data = b.Source.MediaType, b.Source.Data
	case b.Type == "image_url" && b.ImageURL != nil:
		head, rest, ok := strings.Cut(strings.TrimPrefix(b.ImageURL.URL, "data:"), ";base64,")
		if !ok {
			return Image{}, false
		}
		mt, data = head, rest
	default:
		return Image{}, false
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return Image{}, false
	}
	sum := sha256.Sum256(raw)
	return Image{MediaType: mt, Size: len(raw), SHA256: hex.EncodeToString(sum[:]), Wire: b.Type}, true
}

// contentImages are the images in content that is a list of blocks.
func contentImages(raw json.RawMessage) []Image {
	var blocks []wireBlock
	if json.Unmarshal(raw, &blocks) != nil {
		return nil
	}
	var out []Image
	for _, b := range blocks {
		if img, ok := decodeImage(b); ok {
			out = append(out, img)
		}
	}
	return out
}

// redactHeaders hides the keys of a request's headers.
func redactHeaders(h http.Header) http.Header {
	out := h.Clone()
	if out.Get("X-Api-Key") != "" {
		out.Set("X-Api-Key", "[REDACTED]")
	}
	if a := out.Get("Authorization"); a != "" {
		scheme, _, _ := strings.Cut(a, " ")
		out.Set("Authorization", scheme+" [REDACTED]")
	}
	return out
}

// wireMessage is a message of either format.
type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
}

type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Source    *struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
	ImageURL *struct {
		URL string `json:"url"`
	} `json:"image_url"`
}

// decode fills the summary fields from the raw body.
func (r *Request) decode(raw []byte) {
	_ = json.Unmarshal(raw, &r.Body)
	var b struct {
		Model    string          `json:"model"`
		System   json.RawMessage `json:"system"`
		Messages []wireMessage   `json:"messages"`
		Tools    []struct {
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(raw, &b)
	r.Model = b.Model
	r.System = textOf(b.System)
	for _, t := range b.Tools {
		r.Tools = append(r.Tools, t.Name+t.Function.Name)
	}
	msgs := b.Messages
	if r.Format == "openai" {
		r.decodeOpenAI(msgs)
		return
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		var blocks []wireBlock
		if json.Unmarshal(msgs[i].Content, &blocks) != nil {
			r.LastUserText = textOf(msgs[i].Content)
			return
		}
		var text []string
		for _, bl := range blocks {
			switch bl.Type {
			case "text":
				text = append(text, bl.Text)
			case "tool_result":
				r.ToolResults = append(r.ToolResults, ToolResult{ToolUseID: bl.ToolUseID, Content: textOf(bl.Content), IsError: bl.IsError, Images: contentImages(bl.Content)})
			case "image":
				if img, ok := decodeImage(bl); ok {
					r.Images = append(r.Images, img)
				}
			}
		}
		r.LastUserText = strings.Join(text, "\n")
		return
	}
}

// decodeOpenAI reads the messages after the last assistant message: the
// "tool" messages are the tool results, the "user" one the text.
func (r *Request) decodeOpenAI(msgs []wireMessage) {
	for _, m := range msgs {
		if m.Role == "system" {
			r.System = textOf(m.Content)
			break
		}
	}
	for i := len(msgs) - 1; i >= 0 && msgs[i].Role != "assistant"; i-- {
		m := msgs[i]
		switch m.Role {
		case "tool":
			r.ToolResults = append([]ToolResult{{ToolUseID: m.ToolCallID, Content: textOf(m.Content)}}, r.ToolResults...)
		case "user":
			if r.LastUserText == "" {
				r.LastUserText = textOf(m.Content)
				r.Images = contentImages(m.Content)
			}
		}
	}
}

// textOf reads content that is a string or a list of text blocks.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []wireBlock
	_ = json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
