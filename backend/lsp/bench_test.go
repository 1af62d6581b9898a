package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// benchChange times AfterChange on this repository with a warm server:
// file (relative to the repository) gets a new function each time (and
// is put back afterwards); the metrics are the median of the whole call
// and of the server's own part (sync to last diagnostics).
func benchChange(b *testing.B, server, file, newFunc string, pause time.Duration) {
	needServer(b, server)
	root, err := filepath.Abs("../..")
	if err != nil {
		b.Fatal(err)
	}
	abs := filepath.Join(root, file)
	orig, err := os.ReadFile(abs)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = os.WriteFile(abs, orig, 0o644) })
	m := New(Options{Wait: 2 * time.Minute})
	b.Cleanup(m.Close)
	change := func(i int) Outcome {
		text := append(slices.Clone(orig), fmt.Sprintf(newFunc, i+1, i+1)...)
		if err := os.WriteFile(abs, text, 0o644); err != nil {
			b.Fatal(err)
		}
		return m.AfterChange(ctx(b), root, []string{file})
	}
	// Warm: the server has loaded the workspace and checked the file once.
	if out := change(-1); len(out.TimedOut)+len(out.Failed) != 0 || len(errorsIn(out.Diagnostics, file)) != 0 {
		b.Fatalf("warming up: %+v", out)
	}
	var total, own []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if pause > 0 { // the model reads the result and thinks
			b.StopTimer()
			time.Sleep(pause)
			b.StartTimer()
		}
		start := time.Now()
		out := change(i)
		total = append(total, time.Since(start))
		own = append(own, out.ServerTime)
		if len(out.TimedOut)+len(out.Failed) != 0 || !slices.Contains(out.Checked, file) {
			b.Fatalf("change %d: %+v", i, out)
		}
	}
	b.ReportMetric(float64(median(total).Milliseconds()), "median-ms")
	b.ReportMetric(float64(median(own).Milliseconds()), "server-ms")
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkAfterChangeGopls: a change to backend/tools (which the agent,
// the service and both faces import), gopls warm.
func BenchmarkAfterChangeGopls(b *testing.B) {
	benchChange(b, "gopls", "backend/tools/glob.go", "\nfunc benchChange%d() int { return %d }\n", 0)
}

// BenchmarkAfterChangeGoplsPaced: the same, the changes 2 s apart, as a
// model's are: gopls' check of the whole workspace (a second after each
// change) runs between them.
func BenchmarkAfterChangeGoplsPaced(b *testing.B) {
	benchChange(b, "gopls", "backend/tools/glob.go", "\nfunc benchChange%d() int { return %d }\n", 2*time.Second)
}

// BenchmarkAfterChangeTypeScript: a change to a frontend module,
// typescript-language-server warm.
func BenchmarkAfterChangeTypeScript(b *testing.B) {
	benchChange(b, "typescript-language-server", "frontend/src/lib/format.ts", "\nexport const benchChange%d = %d;\n", 0)
}
