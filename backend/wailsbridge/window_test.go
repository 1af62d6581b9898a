package wailsbridge

import (
	"testing"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

func screen(w, h int, current, primary bool) runtime.Screen {
	s := runtime.Screen{IsCurrent: current, IsPrimary: primary}
	s.Size.Width, s.Size.Height = w, h // the size's type is internal to Wails
	return s
}

func TestOffScreen(t *testing.T) {
	t.Parallel()
	hidpi1080 := screen(960, 540, true, true) // 1920x1080 at 200%
	laptop := screen(1440, 900, true, true)
	tests := []struct {
		name       string
		x, y, w, h int
		s          runtime.Screen
		want       bool
	}{
		{"fits, centred", 80, 40, 1280, 820, laptop, false},
		{"fits exactly at the origin", 0, 0, 960, 540, hidpi1080, false},
		{"centred at the default size before the size limit shrank it", -160, -140, 960, 540, hidpi1080, true},
		{"wider than the screen", 0, 0, 1280, 500, hidpi1080, true},
		{"taller than the screen", 0, 0, 900, 820, hidpi1080, true},
		{"left edge off", -1, 10, 800, 500, laptop, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := offScreen(tt.x, tt.y, tt.w, tt.h, tt.s); got != tt.want {
				t.Errorf("offScreen(%d,%d,%d,%d on %dx%d) = %v, want %v", tt.x, tt.y, tt.w, tt.h, tt.s.Size.Width, tt.s.Size.Height, got, tt.want)
			}
		})
	}
}

func TestCurrentScreen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		screens []runtime.Screen
		want    int // width of the screen chosen; 0 for none
	}{
		{"the window's screen", []runtime.Screen{screen(1920, 1080, false, true), screen(1280, 800, true, false)}, 1280},
		{"else the primary", []runtime.Screen{screen(1280, 800, false, false), screen(1920, 1080, false, true)}, 1920},
		{"none known", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, ok := current(tt.screens)
			if got := map[bool]int{true: s.Size.Width, false: 0}[ok]; got != tt.want {
				t.Errorf("current() width = %d, want %d", got, tt.want)
			}
		})
	}
}
