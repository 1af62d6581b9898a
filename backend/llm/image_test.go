package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// pngBytes is a 1x1 PNG.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82")

const pngB64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg=="

func imageRequest() Request {
	img := ImageBlock("image/png", "h1", pngBytes)
	return Request{MaxTokens: 100, Messages: []Message{
		{Role: RoleUser, Content: []ContentBlock{TextBlock("Read it")}},
		{Role: RoleAssistant, Content: []ContentBlock{{Type: BlockToolUse, ID: "c1", Name: "read_file", Input: json.RawMessage(`{"path":"a.png"}`)}}},
		{Role: RoleUser, Content: []ContentBlock{
			{Type: BlockToolResult, ToolUseID: "c1", Content: "a.png: image/png, 67 bytes", Images: []ContentBlock{img}},
			TextBlock("And this one?"), img,
		}},
	}}
}

func TestSniffImage(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		string(pngBytes):               "image/png",
		"\xff\xd8\xff\xe0\x00\x10JFIF": "image/jpeg",
		"GIF89a\x01\x00":               "image/gif",
		"RIFF\x24\x00\x00\x00WEBPVP8 ": "image/webp",
		"plain text":                   "",
		"RIFF\x24\x00\x00\x00WAVEfmt ": "",
	} {
		if got, _ := SniffImage([]byte(in)); got != want {
			t.Errorf("SniffImage(%q) = %q, want %q", in[:6], got, want)
		}
	}
}

// TestAnthropicImageBlocks: an image is an image block with a base64
// source, in a tool result's content too (byte for byte).
func TestAnthropicImageBlocks(t *testing.T) {
	t.Parallel()
	a := NewAnthropic(Config{Provider: ProviderAnthropic, BaseURL: "http://x", APIKey: "k", Model: "claude-sonnet-4-5"})
	body, err := a.body(imageRequest(), true)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	image := `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + pngB64 + `"}}`
	want := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":[{"type":"text","text":"a.png: image/png, 67 bytes"},` + image + `]},` +
		`{"type":"text","text":"And this one?"},` + strings.TrimSuffix(image, "}") + `,"cache_control":{"type":"ephemeral"}}]}`
	if got := string(v.Messages[2]); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestOpenAIImageParts: the user's image is an image_url part with a data
// URL; a tool result's image follows the tool message in a user message.
func TestOpenAIImageParts(t *testing.T) {
	t.Parallel()
	o := NewOpenAI(Config{Provider: ProviderOpenAI, BaseURL: "http://x/v1", Model: "gpt-4.1"})
	body, err := o.body(imageRequest())
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	url := `{"type":"image_url","image_url":{"url":"data:image/png;base64,` + pngB64 + `"}}`
	want := []string{
		`{"role":"tool","content":"a.png: image/png, 67 bytes\n[1 image(s) follow in the next user message]","tool_call_id":"c1"}`,
		`{"role":"user","content":[{"type":"text","text":"And this one?"},{"type":"text","text":"The image(s) returned by tool call c1:"},` + url + `,` + url + `]}`,
	}
	for i, w := range want {
		if got := string(v.Messages[2+i]); got != w {
			t.Errorf("message %d\ngot  %s\nwant %s", 2+i, got, w)
		}
	}
}

// TestTextOnlyModels: a model known to take no images refuses the user's
// image before sending, with a sentence; an older image and a tool's image
// become a note the model reads.
func TestTextOnlyModels(t *testing.T) {
	t.Parallel()
	o := NewOpenAI(Config{Provider: "deepseek", BaseURL: "http://x", Model: "deepseek-chat"})
	_, err := o.body(imageRequest())
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Human(), "deepseek-chat takes no images") || strings.Contains(e.Human(), "rejected") {
		t.Fatalf("err = %v", err)
	}
	req := imageRequest()
	req.Messages = append(req.Messages, Message{Role: RoleAssistant, Content: []ContentBlock{TextBlock("ok")}}, Message{Role: RoleUser, Content: []ContentBlock{TextBlock("go on")}})
	body, err := o.body(req)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(body); strings.Contains(s, "image_url") || !strings.Contains(s, "takes no images, so it was not sent") {
		t.Errorf("body %s", s)
	}
	for model, want := range map[string]bool{"gpt-4.1": true, "claude-sonnet-4-5": true, "o3-mini": false, "qwen3-coder:30b": false, "llava:13b": true,
		"qwen3-vl:8b": true, "llama3.2-vision": true, "mistral-large-latest": true, "some-new-model": true, "deepseek-v4-flash": true} {
		if got := TakesImages(ProviderOpenAI, model); got != want {
			t.Errorf("TakesImages(%s) = %v", model, got)
		}
	}
}

// TestImageRefusalExplained: a server that answers 400 to a request with
// an image (a model without vision) gets a sentence that says so.
func TestImageRefusalExplained(t *testing.T) {
	t.Parallel()
	srv, _ := scriptedServer(t, reply{status: 400, body: `{"error":{"message":"image input is not supported by this model","type":"invalid_request_error"}}`})
	p, err := New(Config{Provider: ProviderOpenAI, BaseURL: srv.URL + "/v1", Model: "local-model"})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := p.Stream(context.Background(), imageRequest())
	if err != nil {
		t.Fatal(err)
	}
	_, last := events(ch)
	if msg := fmt.Sprint(last.Err); !strings.Contains(msg, "image input is not supported") || !strings.Contains(msg, "local-model may not take images") {
		t.Errorf("error %s", msg)
	}
}
