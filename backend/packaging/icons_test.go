package packaging

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteIconSet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files, err := WriteIconSet("../../build/appicon.png", dir, "pilot")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(Sizes) {
		t.Fatalf("wrote %d files, want %d", len(files), len(Sizes))
	}
	for i, n := range Sizes {
		want := filepath.Join(dir, "hicolor", fmt.Sprintf("%dx%d", n, n), "apps", "pilot.png")
		if files[i] != want {
			t.Errorf("file %d = %s, want %s", i, files[i], want)
		}
		img := decode(t, want)
		if b := img.Bounds(); b.Dx() != n || b.Dy() != n {
			t.Errorf("%s is %dx%d, want %dx%d", want, b.Dx(), b.Dy(), n, n)
		}
		if !varied(img) {
			t.Errorf("%s is one flat colour", want)
		}
	}
}

// The window's icon is the app icon scaled, so the two never drift apart.
func TestWindowIconIsTheAppIconScaled(t *testing.T) {
	t.Parallel()
	fresh := filepath.Join(t.TempDir(), "windowicon.png")
	if err := WriteWindowIcon("../../build/appicon.png", fresh); err != nil {
		t.Fatal(err)
	}
	got, want := decode(t, "../../build/windowicon.png"), decode(t, fresh)
	if b := got.Bounds(); b.Dx() != WindowIconSize || b.Dy() != WindowIconSize {
		t.Fatalf("build/windowicon.png is %dx%d, want %dx%d", b.Dx(), b.Dy(), WindowIconSize, WindowIconSize)
	}
	for y := 0; y < WindowIconSize; y++ {
		for x := 0; x < WindowIconSize; x++ {
			if color.NRGBAModel.Convert(got.At(x, y)) != color.NRGBAModel.Convert(want.At(x, y)) {
				t.Fatalf("build/windowicon.png differs from build/appicon.png scaled at (%d,%d); run: go run ./backend/packaging/cmd/iconset -window build/windowicon.png", x, y)
			}
		}
	}
}

func TestWriteIconSetRefusesBadSources(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		name string
		w, h int
	}{
		{"not square", 512, 256},
		{"too small", 64, 64},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			src := filepath.Join(dir, c.name+".png")
			f, err := os.Create(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := png.Encode(f, image.NewNRGBA(image.Rect(0, 0, c.w, c.h))); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if _, err := WriteIconSet(src, filepath.Join(dir, c.name), "pilot"); err == nil {
				t.Fatalf("a %dx%d source was accepted", c.w, c.h)
			}
		})
	}
}

func decode(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func varied(img image.Image) bool {
	b := img.Bounds()
	first := color.NRGBAModel.Convert(img.At(b.Min.X, b.Min.Y))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.NRGBAModel.Convert(img.At(x, y)) != first {
				return true
			}
		}
	}
	return false
}
