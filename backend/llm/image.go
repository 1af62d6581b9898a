package llm

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"
)

// MaxImageBytes is the largest image sent: Anthropic refuses images over
// 5 MB (https://docs.anthropic.com/en/docs/build-with-claude/vision).
const MaxImageBytes = 5 << 20

// ImageTypes are the media types models take.
var ImageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// SniffImage returns the media type of PNG, JPEG, GIF and WebP bytes, by
// their signature; ok is false for anything else.
func SniffImage(b []byte) (mediaType string, ok bool) {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png", true
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		return "image/jpeg", true
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return "image/gif", true
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "image/webp", true
	}
	return "", false
}

// ImageBlock returns an image block of data stored under hash.
func ImageBlock(mediaType, hash string, data []byte) ContentBlock {
	return ContentBlock{Type: BlockImage, MediaType: mediaType, Hash: hash, Bytes: data}
}

// textOnly are models known to take no images (a prefix of the normalized
// id). A model not here is tried; a server's refusal is explained
// (imageRefusal).
var textOnly = []string{
	"deepseek-chat", "deepseek-reasoner", "deepseek-coder", "deepseek-v3", "deepseek-r1",
	"gpt-3-5", "o1-mini", "o3-mini", "gpt-oss",
	"codestral", "open-mistral",
	"grok-3", "grok-code",
	"qwen2-5-coder", "qwen3-coder", "llama-3-1", "llama-3-3", "codellama",
}

// TakesImages reports whether model may take images: false when it is
// known to be text-only; true otherwise (unknown: try). provider is kept
// for a per-server rule.
func TakesImages(provider, model string) bool {
	n := normalizeModel(model)
	for _, t := range textOnly {
		if strings.HasPrefix(n, t) {
			return false
		}
	}
	return true
}

// typeImagesUnsupported is the Error.Type of NoImagesError.
const typeImagesUnsupported = "images_unsupported"

// NoImagesError is the error of a request with the user's images to a
// model that takes none.
func NoImagesError(provider, model string) *Error {
	return &Error{Kind: KindBadRequest, Provider: provider, Type: typeImagesUnsupported,
		Message: fmt.Sprintf("the model %s takes no images; the image was not sent. Choose a model that reads images (Claude, GPT-4.1, Gemini, Llama 4, Pixtral, llava, gemma3…) in Settings for a new session, or send the message without it", firstNonEmpty(model, "this model"))}
}

// imageNote stands in for an image a text-only model cannot take.
func imageNote(b ContentBlock, model string) string {
	return fmt.Sprintf("[an image (%s) was here; %s takes no images, so it was not sent]", b.MediaType, firstNonEmpty(model, "this model"))
}

// dataURL is an image as a data: URL (OpenAI's image_url).
func dataURL(b ContentBlock) string {
	return "data:" + b.MediaType + ";base64," + base64.StdEncoding.EncodeToString(b.Bytes)
}

// hasImages reports whether a message carries images, in its blocks or
// its tool results.
func hasImages(m Message) bool {
	for _, b := range m.Content {
		if b.Type == BlockImage || len(b.Images) > 0 {
			return true
		}
	}
	return false
}

// withImages reports whether any message carries images.
func withImages(msgs []Message) bool {
	for _, m := range msgs {
		if hasImages(m) {
			return true
		}
	}
	return false
}

// prepareImages checks the images of msgs for model: the last message's
// own images to a model that takes none are an error (the user is told);
// older ones, and images tools returned, become a note the model reads.
// An image whose bytes are missing is an error too.
func prepareImages(provider, model string, msgs []Message) ([]Message, error) {
	if !withImages(msgs) {
		return msgs, nil
	}
	ok := TakesImages(provider, model)
	out := make([]Message, len(msgs))
	for i, m := range msgs {
		out[i] = m
		if !hasImages(m) {
			continue
		}
		last := i == len(msgs)-1
		blocks := make([]ContentBlock, 0, len(m.Content))
		for _, b := range m.Content {
			switch {
			case b.Type == BlockImage && !ok && last:
				return nil, NoImagesError(provider, model)
			case b.Type == BlockImage && !ok:
				b = TextBlock(imageNote(b, model))
			case b.Type == BlockImage && len(b.Bytes) == 0:
				return nil, fmt.Errorf("llm: the image %s has no content: it is no longer stored", b.Hash)
			case len(b.Images) > 0 && !ok:
				notes := make([]string, len(b.Images))
				for j, img := range b.Images {
					notes[j] = imageNote(img, model)
				}
				b.Content = strings.TrimSpace(b.Content + "\n" + strings.Join(notes, "\n"))
				b.Images = nil
			}
			blocks = append(blocks, b)
		}
		out[i].Content = blocks
	}
	return out, nil
}

// imageRefusal rewrites a server's refusal of a request that carried
// images, which is most often a model that reads no images.
func imageRefusal(model string) func(*Error) {
	return func(e *Error) {
		if e.Kind != KindBadRequest && e.Kind != KindNotFound {
			return
		}
		e.Message = strings.TrimSpace(e.Message + fmt.Sprintf(" (the request carried an image: %s may not take images; choose a model that reads images, or send the message without it)", firstNonEmpty(model, "the model")))
	}
}
