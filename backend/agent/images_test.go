package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/store"
)

var shot = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x02\x00\x00\x00\x02")

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestImagesReachTheModel: a pasted image and an image read_file returned
// reach the model as images in both formats, are stored by hash (not
// inline), and go again, from the blob store, with the next call.
func TestImagesReachTheModel(t *testing.T) {
	t.Parallel()
	for _, format := range []string{llm.ProviderAnthropic, llm.ProviderOpenAI} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			script := fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{{ID: "r1", Name: "read_file", Input: []byte(`{"path":"ui.png"}`)}}},
				{Text: "Both seen."},
			}}
			h := newHarness(t, format, script, setup{mode: "ask", files: map[string]string{"ui.png": string(shot) + "x"}})
			if err := h.m.SendImages(context.Background(), h.sess.ID, "What is wrong here?", nil, []Image{{MediaType: "image/png", Data: shot}}); err != nil {
				t.Fatal(err)
			}
			if r := h.wait(); r != ReasonEndTurn {
				t.Fatalf("turn ended %s", r)
			}
			reqs := h.srv.Requests()
			first, second := reqs[len(reqs)-2], reqs[len(reqs)-1]
			if len(first.Images) != 1 || first.Images[0].SHA256 != sha(shot) || first.Images[0].MediaType != "image/png" {
				t.Errorf("first call images %+v", first.Images)
			}
			var tool []fakellm.Image
			if format == llm.ProviderAnthropic {
				tool = second.ToolResults[0].Images
			} else {
				tool = second.Images
			}
			if len(tool) != 1 || tool[0].SHA256 != sha(append(append([]byte(nil), shot...), 'x')) {
				t.Errorf("second call tool images %+v (all %+v)", tool, second.Images)
			}
			// Stored by hash: the messages hold no bytes, the blobs do.
			msgs, err := h.st.Messages.List(context.Background(), h.sess.ID)
			if err != nil {
				t.Fatal(err)
			}
			user := msgs[0].LLM()
			img := user.Content[len(user.Content)-1]
			if img.Type != llm.BlockImage || img.Hash == "" || len(img.Bytes) != 0 || !h.lg.Blobs().Has(img.Hash) {
				t.Errorf("stored user image %+v", img)
			}
			if _, err := h.lg.Sweep(context.Background()); err != nil {
				t.Fatal(err)
			}
			if !h.lg.Blobs().Has(img.Hash) {
				t.Error("a sweep removed the message's image")
			}
		})
	}
}

// TestTextOnlyModelRefusesImages: a session on a model that takes no
// images refuses them at once, with a sentence, and saves nothing.
func TestTextOnlyModelRefusesImages(t *testing.T) {
	t.Parallel()
	h := newHarness(t, llm.ProviderOpenAI, fakellm.Script{Turns: []fakellm.Turn{{Text: "x"}}}, setup{mode: "ask"})
	sess, err := h.st.Sessions.Create(context.Background(), store.NewSession{ProjectID: h.sess.ProjectID, Provider: "openai", Model: "o3-mini", ApprovalMode: "ask"})
	if err != nil {
		t.Fatal(err)
	}
	h.sess = sess
	err = h.m.SendImages(context.Background(), h.sess.ID, "look", nil, []Image{{MediaType: "image/png", Data: shot}})
	if err == nil || !strings.Contains(err.Error(), "o3-mini takes no images") {
		t.Fatalf("err = %v", err)
	}
	if msgs, _ := h.st.Messages.List(context.Background(), h.sess.ID); len(msgs) != 0 {
		t.Errorf("saved %d messages", len(msgs))
	}
	if err := h.m.SendImages(context.Background(), h.sess.ID, "look", nil, []Image{{MediaType: "image/png", Data: []byte("text")}}); err == nil {
		t.Error("not an image, accepted")
	}
}

// TestEstimateCountsImages: an image counts as an image's tokens in the
// context estimate, not as its (absent) bytes.
func TestEstimateCountsImages(t *testing.T) {
	t.Parallel()
	img := llm.ImageBlock("image/png", "h", nil)
	msgs := []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{img,
		{Type: llm.BlockToolResult, ToolUseID: "t", Images: []llm.ContentBlock{img}}}}}
	if got := estimate(msgs) - estimate([]llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{{Type: llm.BlockImage}, {Type: llm.BlockToolResult, ToolUseID: "t"}}}}); got != imageTokens {
		t.Errorf("the tool result's image adds %d tokens, want %d", got, imageTokens)
	}
	if got := estimate(msgs); got < 2*imageTokens {
		t.Errorf("two images estimated at %d tokens", got)
	}
}
