package ledger

import (
	"testing"

	"pilot/backend/llm"
)

// png returns a distinct small "PNG" (a valid signature and n after it).
func png(n byte) []byte { return append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), n, n, n) }

// TestSweepKeepsImages: an image a message refers to (the user's, or one
// in a tool result) survives a sweep; one still pinned (stored, its
// message not yet saved) too; one nothing refers to goes.
func TestSweepKeepsImages(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	put := func(n byte) (string, func()) {
		h, release, err := f.lg.PutImage(png(n))
		if err != nil {
			t.Fatal(err)
		}
		return h, release
	}
	user, r1 := put(1)
	tool, r2 := put(2)
	orphan, r3 := put(3)
	pinned, _ := put(4)
	msg := llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{
		llm.TextBlock("see"), llm.ImageBlock("image/png", user, nil),
		{Type: llm.BlockToolResult, ToolUseID: "c1", Content: "a.png", Images: []llm.ContentBlock{llm.ImageBlock("image/png", tool, nil)}},
	}}
	if _, err := f.st.Messages.Append(f.ctx, f.sess.ID, msg, llm.Usage{}); err != nil {
		t.Fatal(err)
	}
	r1()
	r2()
	r3()
	r3() // a second release is harmless
	if _, err := f.lg.Sweep(f.ctx); err != nil {
		t.Fatal(err)
	}
	for h, want := range map[string]bool{user: true, tool: true, pinned: true, orphan: false} {
		if got := f.lg.Blobs().Has(h); got != want {
			t.Errorf("%s kept: %v, want %v", h[:8], got, want)
		}
	}
	data, mt, err := f.lg.Image(user)
	if err != nil || mt != "image/png" || string(data) != string(png(1)) {
		t.Errorf("Image = %q %s %v", data, mt, err)
	}
	if _, _, err := f.lg.PutImage([]byte("not an image")); err == nil {
		t.Error("a non-image was stored as an image")
	}
	// A file's content is not served as an image.
	h, err := f.lg.Blobs().Put([]byte("package main\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.lg.Image(h); err == nil {
		t.Error("a stored file was served as an image")
	}
}
