package llm

import (
	"encoding/json"
	"strings"
	"testing"
)

func imageHistory() []Message {
	return []Message{
		{Role: RoleUser, Content: []ContentBlock{TextBlock("look")}},
		{Role: RoleAssistant, Content: []ContentBlock{{Type: BlockToolUse, ID: "t1", Name: "mcp__s__shot", Input: json.RawMessage(`{}`)}}},
		{Role: RoleUser, Content: []ContentBlock{{Type: BlockToolResult, ToolUseID: "t1", Content: "a dot", Images: []Image{{MediaType: "image/png", Data: "iVBORw0K"}}}}},
	}
}

func TestAnthropicToolResultImages(t *testing.T) {
	t.Parallel()
	b, err := (&Anthropic{}).body(Request{Model: "claude-sonnet-4-5", Messages: imageHistory()}, true)
	if err != nil {
		t.Fatal(err)
	}
	var req struct {
		Messages []struct {
			Content []struct {
				Type    string          `json:"type"`
				Content json.RawMessage `json:"content"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(b, &req); err != nil {
		t.Fatal(err)
	}
	got := string(req.Messages[2].Content[0].Content)
	want := `[{"type":"text","text":"a dot"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0K"}}]`
	if got != want {
		t.Fatalf("tool_result content\n got %s\nwant %s", got, want)
	}
	// Without images the content stays a string.
	h := imageHistory()
	h[2].Content[0].Images = nil
	b, _ = (&Anthropic{}).body(Request{Model: "claude-sonnet-4-5", Messages: h}, true)
	if !strings.Contains(string(b), `"content":"a dot"`) {
		t.Fatalf("plain result: %s", b)
	}
}

func TestOpenAIToolResultImages(t *testing.T) {
	t.Parallel()
	msgs := openaiMessages(imageHistory()[2], "", nil)
	b, _ := json.Marshal(msgs)
	want := `[{"role":"tool","content":"a dot","tool_call_id":"t1"},{"role":"user","content":[{"type":"text","text":"The images the tool results above returned:"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0K"}}]}]`
	if string(b) != want {
		t.Fatalf("\n got %s\nwant %s", b, want)
	}
}
