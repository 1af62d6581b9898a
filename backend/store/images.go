package store

import (
	"context"
	"encoding/base64"
	"fmt"

	"pilot/backend/llm"
)

// ImageStore is where messages' images are kept (the ledger's blob
// store): the database holds only their hash and media type.
type ImageStore interface {
	// Image returns a stored image's bytes and media type.
	Image(hash string) ([]byte, string, error)
	// PutImage stores an image, pinned until release is called.
	PutImage(data []byte) (hash string, release func(), err error)
}

// SetImages tells the store where images live, so that exports carry
// them and imports store them. Call it before use.
func (s *Store) SetImages(is ImageStore) { s.img = is }

// exportTranscript is the session's transcript as exports write it: its
// messages' images as exportImages gives them.
func (s *Store) exportTranscript(ctx context.Context, sessionID int64) (Transcript, error) {
	t, err := s.Sessions.Transcript(ctx, sessionID)
	if err != nil {
		return Transcript{}, err
	}
	for i := range t.Messages {
		t.Messages[i].Content = s.exportImages(t.Messages[i].Content)
	}
	return t, nil
}

// exportImages returns blocks with every image's bytes in Data (base64),
// read from the image store; an image that cannot be read keeps its hash
// only and a note says so in the text of the export (Markdown).
func (s *Store) exportImages(blocks []llm.ContentBlock) []llm.ContentBlock {
	var out []llm.ContentBlock
	for i, b := range blocks {
		if b.Type != llm.BlockImage && len(b.Images) == 0 {
			continue
		}
		if out == nil {
			out = append([]llm.ContentBlock(nil), blocks...)
		}
		if b.Type == llm.BlockImage {
			out[i] = s.exportImage(b)
			continue
		}
		imgs := make([]llm.ContentBlock, len(b.Images))
		for j, img := range b.Images {
			imgs[j] = s.exportImage(img)
		}
		out[i].Images = imgs
	}
	if out == nil {
		return blocks
	}
	return out
}

func (s *Store) exportImage(b llm.ContentBlock) llm.ContentBlock {
	if s.img == nil || b.Hash == "" {
		return b
	}
	data, _, err := s.img.Image(b.Hash)
	if err != nil {
		return b
	}
	b.Bytes, b.Data = data, base64.StdEncoding.EncodeToString(data)
	return b
}

// importImages stores the images of an export (Data, base64) and leaves
// their hash in the blocks; release unpins them once the import is saved.
func (s *Store) importImages(e *Export) (release func(), err error) {
	var releases []func()
	release = func() {
		for _, r := range releases {
			r()
		}
	}
	put := func(b *llm.ContentBlock) error {
		if b.Type != llm.BlockImage || b.Data == "" {
			return nil
		}
		data, err := base64.StdEncoding.DecodeString(b.Data)
		if err != nil {
			return fmt.Errorf("%w: an image of the export is not base64: %v", ErrInvalid, err)
		}
		b.Data = ""
		if s.img == nil {
			return nil // kept as a hash only: its bytes are not stored here
		}
		h, r, err := s.img.PutImage(data)
		if err != nil {
			return fmt.Errorf("storing an image of the export: %w", err)
		}
		b.Hash, releases = h, append(releases, r)
		return nil
	}
	for i := range e.Messages {
		for j := range e.Messages[i].Content {
			b := &e.Messages[i].Content[j]
			if err := put(b); err != nil {
				release()
				return nil, err
			}
			for k := range b.Images {
				if err := put(&b.Images[k]); err != nil {
					release()
					return nil, err
				}
			}
		}
	}
	return release, nil
}

// ImageHashes returns the hashes of every image a message refers to (a
// user's image, or one a tool returned), so that the blob store's sweep
// keeps them.
func (s *Messages) ImageHashes(ctx context.Context) ([]string, error) {
	return queryAll(ctx, s.r, scanValue[string], `
		SELECT DISTINCT json_extract(t.value, '$.hash') FROM messages m, json_tree(m.content) t
		 WHERE m.content LIKE '%"type":"image"%' AND t.type = 'object'
		   AND json_extract(t.value, '$.type') = 'image' AND json_extract(t.value, '$.hash') IS NOT NULL`)
}
