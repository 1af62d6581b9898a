//go:build linux

package sandbox

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
)

// The sandbox's cost per command, against the same command unsandboxed in
// the same run (make bench: .ci/bench-go.sh sandbox ./backend/sandbox . 50x).
// Each iteration runs `bash -c true` both ways, alternating, the way
// run_bash does (own process group, stdin /dev/null, output through a
// pipe read to its end); the metrics are medians in milliseconds.

// hostRun runs bash -c true on the host as run_bash does without a sandbox.
func hostRun(b *testing.B) time.Duration {
	start := time.Now()
	pr, pw, _ := os.Pipe()
	cmd := exec.Command("bash", "-c", "true")
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	pw.Close()
	_, _ = io.Copy(io.Discard, pr)
	pr.Close()
	if err := cmd.Wait(); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// podRun runs bash -c true in s.
func podRun(b *testing.B, s *Session, dir string) time.Duration {
	start := time.Now()
	pr, pw, _ := os.Pipe()
	p, err := s.Start(context.Background(), Cmd{Command: "true", Dir: dir, Env: []string{"PATH=" + os.Getenv("PATH")}, Output: pw})
	pw.Close()
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, pr)
	pr.Close()
	if code, err := p.Wait(); code != 0 || err != nil {
		b.Fatal(code, err)
	}
	p.Kill()
	return time.Since(start)
}

func median(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return float64(m) / float64(time.Millisecond)
}

// pair runs host and sandboxed in alternation b.N times and reports both
// medians and the overhead (the difference of the medians).
func pair(b *testing.B, sandboxed func() time.Duration) {
	var host, sb []time.Duration
	for range 5 {
		hostRun(b) // warm up
	}
	b.ResetTimer()
	for range b.N {
		host = append(host, hostRun(b))
		sb = append(sb, sandboxed())
	}
	b.StopTimer()
	b.ReportMetric(median(host), "host-ms")
	b.ReportMetric(median(sb), "sandboxed-ms")
	b.ReportMetric(median(sb)-median(host), "overhead-ms")
	b.ReportMetric(0, "ns/op")
}

func benchSession(b *testing.B, noLandlock bool) (*Session, string) {
	if !Probe().Ready {
		b.Skip(Probe().Why)
	}
	dir := b.TempDir()
	s := NewSession(Policy{Project: dir, Home: b.TempDir(), NoLandlock: noLandlock})
	b.Cleanup(func() { s.Close() })
	for range 5 { // the pod's start is measured apart; the rest warms up
		podRun(b, s, dir)
	}
	return s, dir
}

// A command in the session's pod (bubblewrap, seccomp and Landlock).
func BenchmarkCommandInPod(b *testing.B) {
	s, dir := benchSession(b, false)
	pair(b, func() time.Duration { return podRun(b, s, dir) })
}

// The same pod without Landlock: Landlock's cost per command.
func BenchmarkCommandInPodNoLandlock(b *testing.B) {
	s, dir := benchSession(b, true)
	pair(b, func() time.Duration { return podRun(b, s, dir) })
}

// Landlock's cost per command, head to head: a pod with it and one
// without, alternating in the same loop.
func BenchmarkLandlockPerCommand(b *testing.B) {
	with, dir1 := benchSession(b, false)
	without, dir2 := benchSession(b, true)
	var ll, no []time.Duration
	b.ResetTimer()
	for range b.N {
		ll = append(ll, podRun(b, with, dir1))
		no = append(no, podRun(b, without, dir2))
	}
	b.StopTimer()
	b.ReportMetric(median(ll), "landlock-ms")
	b.ReportMetric(median(no), "without-ms")
	b.ReportMetric(median(ll)-median(no), "cost-ms")
	b.ReportMetric(0, "ns/op")
}

// A fresh bwrap per command, with the pod's mounts (the design not taken).
func BenchmarkCommandFreshBwrap(b *testing.B) {
	if !Probe().Ready {
		b.Skip(Probe().Why)
	}
	dir := b.TempDir()
	tmp := filepath.Join(dir, "tmp")
	os.Mkdir(tmp, 0o700)
	hid := filepath.Join(dir, "hidden")
	os.WriteFile(hid, nil, 0)
	exe, _ := os.Executable()
	l := layout{policy: Policy{Project: b.TempDir(), Home: b.TempDir()}, exe: exe, tmp: tmp, hideFil: hid, noUserNS: true}
	args := l.args("{}")
	args = append(args[:len(args)-3], "bash", "-c", "true") // in place of the pod program
	pair(b, func() time.Duration {
		start := time.Now()
		pr, pw, _ := os.Pipe()
		cmd := exec.Command(Probe().Bwrap, args...)
		cmd.Stdout, cmd.Stderr = pw, pw
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		pw.Close()
		_, _ = io.Copy(io.Discard, pr)
		pr.Close()
		if err := cmd.Wait(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	})
}

// A session's first command: the pod starts (bwrap, this binary as PID 1,
// Landlock), then the command runs.
func BenchmarkPodFirstStart(b *testing.B) {
	if !Probe().Ready {
		b.Skip(Probe().Why)
	}
	dir, home := b.TempDir(), b.TempDir()
	pair(b, func() time.Duration {
		s := NewSession(Policy{Project: dir, Home: home})
		d := podRun(b, s, dir)
		s.Close()
		return d
	})
}

// Landlock's own cost: building the pod's ruleset and restricting a
// thread with it, once per pod (each iteration on a fresh thread, which
// ends with its goroutine since a restricted thread cannot be reused).
func BenchmarkLandlockRestrict(b *testing.B) {
	abi := LandlockABI()
	if abi == 0 {
		b.Skip("no Landlock in this kernel")
	}
	dir := b.TempDir()
	var ds []time.Duration
	for range b.N {
		done := make(chan time.Duration)
		go func() {
			runtime.LockOSThread() // never unlocked: the restricted thread ends here
			start := time.Now()
			if err := landlockWrites(abi, []string{dir, dir, "/dev/shm"}, []string{"/dev"}); err != nil {
				b.Error(err)
			}
			done <- time.Since(start)
		}()
		ds = append(ds, <-done)
	}
	b.ReportMetric(median(ds)*1000, "restrict-µs")
	b.ReportMetric(0, "ns/op")
}
