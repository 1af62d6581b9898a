package tools

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pilot/backend/projectroot"
)

const (
	crashEnv   = "PILOT_TOOLS_CRASH_DIR"
	crashFiles = 4
)

// generation is the content of a file at generation g: large enough that a
// write takes a while, uniform so a partial file is easy to spot.
func generation(g int) string {
	return strings.Repeat(fmt.Sprintf("generation %08d\n", g), 5000)
}

// TestCrashDuringApply re-runs the test binary as a child that applies
// multi-file changes in a loop and SIGKILLs it at random moments; every
// file must then hold one whole generation, never a mix or a torn write.
func TestCrashDuringApply(t *testing.T) {
	if dir := os.Getenv(crashEnv); dir != "" {
		crashChild(dir)
		return
	}
	t.Parallel()
	dir := t.TempDir()
	for i := range crashFiles {
		writeTestFile(t, filepath.Join(dir, fmt.Sprintf("f%d.txt", i)), generation(0))
	}
	newest := 0
	for round := range 15 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashDuringApply$")
		cmd.Env = append(os.Environ(), crashEnv+"="+dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Once the child is writing, kill it at a random moment.
		before, _ := os.ReadFile(filepath.Join(dir, "f0.txt"))
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if now, _ := os.ReadFile(filepath.Join(dir, "f0.txt")); string(now) != string(before) {
				break
			}
		}
		time.Sleep(time.Duration(rand.IntN(30000)) * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		for i := range crashFiles {
			name := fmt.Sprintf("f%d.txt", i)
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			var g int
			fmt.Sscanf(string(b), "generation %d", &g)
			if string(b) != generation(g) {
				t.Fatalf("round %d: %s is torn (%d bytes)", round, name, len(b))
			}
			newest = max(newest, g)
		}
	}
	if newest == 0 {
		t.Fatal("the child never got to write")
	}
	t.Logf("the child reached generation %d", newest)
}

// crashChild writes ever newer generations of every file until killed.
func crashChild(dir string) {
	root, err := projectroot.New(dir)
	if err != nil {
		panic(err)
	}
	reg := New(Deps{Root: root})
	ctx := context.Background()
	var g int
	b, _ := os.ReadFile(filepath.Join(dir, "f0.txt"))
	fmt.Sscanf(string(b), "generation %d", &g)
	for g++; ; g++ {
		prop := &Proposal{Tool: "write_file"}
		for i := range crashFiles {
			in := fmt.Sprintf(`{"path": "f%d.txt"}`, i)
			if _, err := reg.Execute(ctx, "read_file", []byte(in)); err != nil {
				panic(err)
			}
			res, err := reg.Execute(ctx, "write_file", []byte(fmt.Sprintf(`{"path": "f%d.txt", "content": %q}`, i, generation(g))))
			if err != nil || res.Proposal == nil {
				panic(fmt.Sprint(err, res.Output))
			}
			prop.Files = append(prop.Files, res.Proposal.Files...)
		}
		if _, err := reg.Apply(ctx, prop, ApplyOptions{}); err != nil {
			panic(err)
		}
	}
}
