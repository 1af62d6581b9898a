package agent

import (
	"context"
	"fmt"

	"pilot/backend/llm"
	"pilot/backend/tools"
)

// Image is an image the user attached to a message (pasted or dropped).
type Image struct {
	MediaType string
	Data      []byte
}

// keepImage stores an image in the ledger's blob store and returns its
// block; release unpins it once a saved message refers to it. Without a
// ledger (tests) the block carries its bytes only.
func (m *Manager) keepImage(mediaType string, data []byte) (llm.ContentBlock, func(), error) {
	sniffed, ok := llm.SniffImage(data)
	switch {
	case !ok:
		return llm.ContentBlock{}, nil, fmt.Errorf("the attached image is not a PNG, JPEG, GIF or WebP image")
	case len(data) > llm.MaxImageBytes:
		return llm.ContentBlock{}, nil, fmt.Errorf("the attached image is %d KB; models take images up to %d KB: attach a smaller one (a crop, or a JPEG)", len(data)>>10, llm.MaxImageBytes>>10)
	case mediaType != "" && mediaType != sniffed:
		m.log.Info("image media type corrected", "said", mediaType, "is", sniffed)
	}
	if m.ledger == nil {
		return llm.ImageBlock(sniffed, "", data), func() {}, nil
	}
	hash, release, err := m.ledger.PutImage(data)
	if err != nil {
		return llm.ContentBlock{}, nil, fmt.Errorf("storing the image: %w", err)
	}
	return llm.ImageBlock(sniffed, hash, data), release, nil
}

// userImages checks and stores the user's images for the session's model:
// a model known to take no images refuses them before anything is saved.
func (m *Manager) userImages(ctx context.Context, sessionID int64, images []Image) ([]llm.ContentBlock, func(), error) {
	if len(images) == 0 {
		return nil, func() {}, nil
	}
	sess, err := m.st.Sessions.Get(ctx, sessionID)
	if err != nil {
		return nil, nil, err
	}
	model := sess.Model
	if model == "" {
		model = llm.DefaultModel(sess.Provider)
	}
	if !llm.TakesImages(sess.Provider, model) {
		return nil, nil, llm.NoImagesError(sess.Provider, model)
	}
	var blocks []llm.ContentBlock
	var releases []func()
	releaseAll := func() {
		for _, r := range releases {
			r()
		}
	}
	for _, img := range images {
		b, release, err := m.keepImage(img.MediaType, img.Data)
		if err != nil {
			releaseAll()
			return nil, nil, err
		}
		blocks, releases = append(blocks, b), append(releases, release)
	}
	return blocks, releaseAll, nil
}

// toolImages stores the images a tool returned; the outcome releases them
// once the tool results are saved.
func (c *call) toolImages(res tools.Result, out *outcome) {
	t := c.t
	for _, img := range res.Images {
		b, release, err := t.l.m.keepImage(img.MediaType, img.Data)
		if err != nil {
			out.text += "\n(The image could not be attached: " + err.Error() + ")"
			t.l.m.log.Warn("tool image", "session", t.l.id, "err", err)
			continue
		}
		out.images = append(out.images, b)
		out.release = append(out.release, release)
	}
}

// fillImages loads the bytes of the images msgs refer to from the blob
// store. One that is gone becomes a text note, so the call still works.
func (m *Manager) fillImages(msgs []llm.Message) []llm.Message {
	fill := func(b llm.ContentBlock) llm.ContentBlock {
		if len(b.Bytes) > 0 || b.Hash == "" || m.ledger == nil {
			return b
		}
		data, _, err := m.ledger.Image(b.Hash)
		if err != nil {
			m.log.Warn("image missing from the blob store", "hash", b.Hash, "err", err)
			return llm.TextBlock(fmt.Sprintf("[an image (%s) was here; it is no longer stored]", b.MediaType))
		}
		b.Bytes = data
		return b
	}
	for i, msg := range msgs {
		var blocks []llm.ContentBlock
		for j, b := range msg.Content {
			if b.Type != llm.BlockImage && len(b.Images) == 0 {
				continue
			}
			if blocks == nil {
				blocks = append([]llm.ContentBlock(nil), msg.Content...)
			}
			if b.Type == llm.BlockImage {
				blocks[j] = fill(b)
				continue
			}
			imgs := make([]llm.ContentBlock, 0, len(b.Images))
			for _, img := range b.Images {
				if f := fill(img); f.Type == llm.BlockImage {
					imgs = append(imgs, f)
				} else {
					blocks[j].Content += "\n" + f.Text
				}
			}
			blocks[j].Images = imgs
		}
		if blocks != nil {
			msgs[i].Content = blocks
		}
	}
	return msgs
}
