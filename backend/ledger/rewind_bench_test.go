package ledger

import (
	"fmt"
	"testing"
)

// BenchmarkRewind100 rewinds a session of 100 changes (to 100 files of
// 4 KiB) to its first message; each rewind is undone outside the timer.
// Target: under 1 s.
func BenchmarkRewind100(b *testing.B) {
	files := map[string]string{}
	for i := range 100 {
		files[fmt.Sprintf("src/f%03d.go", i)] = fmt.Sprintf("package src // %d\n%s", i, filler(4096))
	}
	f := newFixture(b, files)
	first := f.say("change everything")
	for i := range 100 {
		f.edit(fmt.Sprintf("src/f%03d.go", i), fmt.Sprintf("package src // changed %d\n%s", i, filler(4096)))
	}
	for b.Loop() {
		res, err := f.lg.RewindSession(f.ctx, f.sess.ID, first, "code", none())
		if err != nil || len(res.Restored) != 100 {
			b.Fatalf("%d restored, %v", len(res.Restored), err)
		}
		b.StopTimer()
		if _, err := f.lg.RevertCheckpointFor(f.ctx, res.CheckpointID, none()); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

func filler(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = "abcdefghij klmnop\n"[i%18]
	}
	return string(b)
}
