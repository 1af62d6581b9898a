package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"pilot/backend/llm"
)

// memImages is an ImageStore in memory.
type memImages struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (i *memImages) Image(h string) ([]byte, string, error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	b, ok := i.m[h]
	if !ok {
		return nil, "", errors.New("no such image")
	}
	return b, "image/png", nil
}

func (i *memImages) PutImage(b []byte) (string, func(), error) {
	s := sha256.Sum256(b)
	h := hex.EncodeToString(s[:])
	i.mu.Lock()
	i.m[h] = b
	i.mu.Unlock()
	return h, func() {}, nil
}

var testPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x07")

// TestImagesRoundTrip: a message's images are stored by hash (the
// database holds no bytes), exported as base64 (JSON) and as a data URL
// (Markdown), and imported back into the image store; ImageHashes lists
// them for the sweep.
func TestImagesRoundTrip(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	imgs := &memImages{m: map[string][]byte{}}
	s.SetImages(imgs)
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	h, _, _ := imgs.PutImage(testPNG)
	tool := append(append([]byte(nil), testPNG...), '!')
	th, _, _ := imgs.PutImage(tool)
	msg := llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{
		llm.TextBlock("look"), llm.ImageBlock("image/png", h, testPNG),
		{Type: llm.BlockToolResult, ToolUseID: "t1", Content: "x.png is an image", Images: []llm.ContentBlock{llm.ImageBlock("image/png", th, tool)}},
	}}
	if _, err := s.Messages.Append(ctx, x.ID, msg, llm.Usage{}); err != nil {
		t.Fatal(err)
	}
	var raw string
	if err := s.r.QueryRowContext(ctx, `SELECT content FROM messages WHERE session_id = ?`, x.ID).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"text","text":"look"},{"type":"image","media_type":"image/png","hash":"` + h + `"},` +
		`{"type":"tool_result","tool_use_id":"t1","content":"x.png is an image","images":[{"type":"image","media_type":"image/png","hash":"` + th + `"}]}]`
	if raw != want {
		t.Errorf("stored content\n%s\nwant\n%s", raw, want)
	}
	hashes, err := s.Messages.ImageHashes(ctx)
	if err != nil || strings.Join(hashes, ",") != h+","+th && strings.Join(hashes, ",") != th+","+h {
		t.Errorf("ImageHashes = %v, %v", hashes, err)
	}

	var js bytes.Buffer
	if err := s.WriteJSON(ctx, x.ID, &js); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"data": "`+base64.StdEncoding.EncodeToString(testPNG)+`"`) ||
		!strings.Contains(js.String(), `"data": "`+base64.StdEncoding.EncodeToString(tool)+`"`) {
		t.Errorf("JSON export lacks the images:\n%s", js.String())
	}
	var md bytes.Buffer
	if err := s.WriteMarkdown(ctx, x.ID, &md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "![image image/png](data:image/png;base64,"+base64.StdEncoding.EncodeToString(testPNG)+")") {
		t.Errorf("Markdown lacks the image:\n%s", md.String())
	}

	// Imported into a fresh image store, the images come back by hash.
	other := &memImages{m: map[string][]byte{}}
	s.SetImages(other)
	imported, err := s.Import(ctx, p.ID, bytes.NewReader(js.Bytes()), "")
	if err != nil {
		t.Fatal(err)
	}
	if string(other.m[h]) != string(testPNG) || string(other.m[th]) != string(tool) {
		t.Errorf("import stored %d images", len(other.m))
	}
	msgs, err := s.Messages.List(ctx, imported.ID)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(msgs[0].Content)
	if string(b) != want {
		t.Errorf("imported content\n%s", b)
	}
	// An image the store lost is a note in Markdown, not an error.
	s.SetImages(&memImages{m: map[string][]byte{}})
	md.Reset()
	if err := s.WriteMarkdown(ctx, x.ID, &md); err != nil || !strings.Contains(md.String(), "not stored any more") {
		t.Errorf("missing image: %v\n%s", err, md.String())
	}
}
