package tools

import (
	"strings"
	"testing"
)

// TestReadFileImages: read_file of a PNG, JPEG, GIF or WebP returns the
// image (its media type and bytes), not binary text; one over the size a
// model takes is refused with what to do.
func TestReadFileImages(t *testing.T) {
	t.Parallel()
	images := map[string]string{
		"shot.png":  "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01",
		"photo.jpg": "\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01",
		"anim.gif":  "GIF89a\x01\x00\x01\x00\x00\x00\x00;",
		"pic.webp":  "RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00",
		"big.png":   "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 5<<20),
	}
	f := newFixture(t, images)
	for name, mt := range map[string]string{"shot.png": "image/png", "photo.jpg": "image/jpeg", "anim.gif": "image/gif", "pic.webp": "image/webp"} {
		res := f.call("read_file", map[string]any{"path": name})
		if res.IsError || len(res.Images) != 1 || res.Images[0].MediaType != mt || string(res.Images[0].Data) != images[name] {
			t.Errorf("%s: %+v", name, res)
			continue
		}
		if !strings.Contains(res.Output, name+" is an image ("+mt) || strings.ContainsRune(res.Output, 0) {
			t.Errorf("%s output %q", name, res.Output)
		}
	}
	res := f.call("read_file", map[string]any{"path": "big.png"})
	if !res.IsError || len(res.Images) != 0 || !strings.Contains(res.Output, "larger than") {
		t.Errorf("big.png: %+v", res.Output)
	}
}
