package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestCleanSandboxHidden(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   []string
		want []string
		bad  string // a word of the refusal
	}{
		{in: nil, want: nil},
		{in: []string{" ~/.config/app/ ", "/srv/keys", "", "~/.config/app"}, want: []string{"~/.config/app", "/srv/keys"}},
		{in: []string{"/a/../b"}, want: []string{"/b"}},
		{in: []string{"relative/path"}, bad: "neither absolute"},
		{in: []string{"~user/x"}, bad: "neither absolute"},
		{in: []string{"~/"}, bad: "inside the home"},
		{in: []string{"~/../etc"}, bad: "inside the home"},
		{in: []string{"/"}, bad: "whole file system"},
		{in: []string{"/a\nb"}, bad: "control character"},
	}
	for _, c := range cases {
		got, err := CleanSandboxHidden(c.in)
		sockets, serr := CleanSandboxSockets(c.in) // the same rules
		if !reflect.DeepEqual(sockets, got) || (serr == nil) != (err == nil) || serr != nil && !strings.Contains(serr.Error(), "the allowed socket") {
			t.Errorf("%q: sockets %q, %v; hidden %q, %v", c.in, sockets, serr, got, err)
		}
		if c.bad != "" {
			if err == nil || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("%q: err %v, want one saying %q", c.in, err, c.bad)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}
