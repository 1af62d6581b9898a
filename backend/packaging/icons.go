// Package packaging holds what the Linux packages need beyond the binary:
// the app icon in the hicolor theme's sizes.
package packaging

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"

	"golang.org/x/image/draw"
)

// Sizes are the hicolor sizes the packages install (the icon theme
// specification's usual fixed sizes, up to the source's 512).
var Sizes = []int{16, 24, 32, 48, 64, 128, 256, 512}

// WriteIconSet scales the square PNG at src to every size in Sizes and
// writes them as out/hicolor/NxN/apps/name.png; it returns the files
// written, smallest first.
func WriteIconSet(src, out, name string) ([]string, error) {
	img, err := readPNG(src)
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	if b.Dx() != b.Dy() {
		return nil, fmt.Errorf("%s is %dx%d: the app icon must be square", src, b.Dx(), b.Dy())
	}
	var files []string
	for _, n := range Sizes {
		if n > b.Dx() {
			return nil, fmt.Errorf("%s is %dx%d: it must be at least %dx%d", src, b.Dx(), b.Dy(), n, n)
		}
		path := filepath.Join(out, "hicolor", fmt.Sprintf("%dx%d", n, n), "apps", name+".png")
		if err := writePNG(path, scaled(img, n)); err != nil {
			return nil, err
		}
		files = append(files, path)
	}
	return files, nil
}

// WindowIconSize is the side of the icon the window sets for itself
// (build/windowicon.png, embedded by main.go). The desktop entry and the
// icon theme carry the large ones; handing GTK the 512x512 source instead
// cost about 45 ms of every start-up before the window was shown (decoding
// a 16-bit PNG, then scaling it when the window is realised).
const WindowIconSize = 128

// WriteWindowIcon writes the window's icon: the square PNG at src scaled
// to WindowIconSize, as WriteIconSet scales it.
func WriteWindowIcon(src, dst string) error {
	img, err := readPNG(src)
	if err != nil {
		return err
	}
	return writePNG(dst, scaled(img, WindowIconSize))
}

func scaled(img image.Image, n int) *image.NRGBA {
	dst := image.NewNRGBA(image.Rect(0, 0, n, n))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Src, nil)
	return dst
}

func readPNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return img, nil
}

func writePNG(path string, img image.Image) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
