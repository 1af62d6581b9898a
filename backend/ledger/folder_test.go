package ledger

import (
	"context"
	"path/filepath"
	"testing"
)

// TestHold: a folder is held by one work at a time, within a Ledger and
// across two Ledgers on one data folder (two processes: the kernel's
// flock keeps them apart); the one that waits is told what holds it, its
// wait ends with its context, and a wait given up does not keep the
// folder once the holder lets go.
func TestHold(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	open := func() *Ledger {
		l, err := Open(data, nil, DefaultLimits, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(l.Close)
		return l
	}
	one, other := open(), open()
	folder := t.TempDir()
	for _, c := range []struct {
		name   string
		second *Ledger
	}{{"same process", one}, {"another process", other}} {
		release, err := one.Hold(context.Background(), folder, "session 1 (running make)", nil)
		if err != nil {
			t.Fatal(err)
		}
		// Another folder is free meanwhile.
		free, err := c.second.Hold(context.Background(), t.TempDir(), "session 3", func(string) { t.Errorf("%s: another folder waited", c.name) })
		if err != nil {
			t.Fatal(err)
		}
		free()

		ctx, cancel := context.WithCancel(context.Background())
		var told []string
		_, err = c.second.Hold(ctx, filepath.Join(folder, "."), "session 2", func(h string) {
			told = append(told, h)
			cancel()
		})
		if err != context.Canceled {
			t.Fatalf("%s: a wait whose context ended: %v", c.name, err)
		}
		if len(told) != 1 || told[0] != "session 1 (running make)" {
			t.Errorf("%s: the waiting one was told %q", c.name, told)
		}
		release()
		release() // a second release does nothing

		got := make(chan func(), 1)
		go func() {
			r, err := c.second.Hold(context.Background(), folder, "session 2", nil)
			if err != nil {
				t.Error(err)
			}
			got <- r
		}()
		(<-got)()
	}
}

// BenchmarkHold: taking and letting go of a free folder (the channel and
// the flock'ed file), the cost every command and change pays.
func BenchmarkHold(b *testing.B) {
	l, err := Open(b.TempDir(), nil, DefaultLimits, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	dir := b.TempDir()
	for b.Loop() {
		release, err := l.Hold(context.Background(), dir, "session 1 (running make)", nil)
		if err != nil {
			b.Fatal(err)
		}
		release()
	}
}
