package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// benchCase is one search run by Pilot and by the reference tool.
type benchCase struct {
	tool  string   // "grep" or "glob"
	desc  string   // as shown in the table
	pilot []string // toolbench arguments after ROOT
	ref   []string // reference command; the folder is appended
	count func(out []byte) int
}

func cases() []benchCase {
	rg := func(args ...string) []string {
		return append([]string{"rg", "--hidden", "--no-require-git", "--no-messages", "-c"}, args...)
	}
	fd := func(glob string) []string {
		return []string{"fdfind", "--hidden", "--case-sensitive", "-t", "f", "-g", glob}
	}
	grep := func(desc, pattern, filePattern string) benchCase {
		c := benchCase{tool: "grep", desc: desc, pilot: []string{"grep", pattern}, count: sumCounts}
		if filePattern != "" {
			c.pilot = append(c.pilot, filePattern)
			c.ref = rg("-g", filePattern, "-e", pattern)
		} else {
			c.ref = rg("-e", pattern)
		}
		return c
	}
	glob := func(pattern, fdGlob string) benchCase {
		return benchCase{tool: "glob", desc: "`" + pattern + "`", pilot: []string{"glob", pattern}, ref: fd(fdGlob), count: countLines}
	}
	return []benchCase{
		grep("literal `func main`", "func main", ""),
		grep("literal `errors\\.New\\(` in `*.go`", `errors\.New\(`, "*.go"),
		grep("regex `func \\w+Error\\(`", `func \w+Error\(`, ""),
		grep("regex `[A-Z][a-z]+Handler`", `[A-Z][a-z]+Handler`, ""),
		grep("case-insensitive `(?i)deprecated`", `(?i)deprecated`, ""),
		glob("**/*.go", "*.go"),
		glob("**/*_test.go", "*_test.go"),
		glob("**/*.{s,h}", "*.{s,h}"),
	}
}

func bench(dir string, runs int) error {
	if dir == "" {
		goroot, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return fmt.Errorf("go env GOROOT: %w", err)
		}
		dir = strings.TrimSpace(string(goroot)) + "/src"
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Folder: `%s`; whole-process wall time, median of %d runs after one warm-up run, Pilot and the reference alternating; %d CPUs.\n\n", dir, runs, runtime.NumCPU())
	b.WriteString("| tool | case | matches | Pilot | reference | ratio |\n|---|---|---:|---:|---:|---:|\n")
	for _, c := range cases() {
		pilotCmd := append([]string{self, c.pilot[0], dir}, c.pilot[1:]...)
		refCmd := append(slices.Clone(c.ref), dir)
		outs, times, err := timeRuns([][]string{pilotCmd, refCmd}, runs)
		if err != nil {
			return fmt.Errorf("%s %s: %w", c.tool, c.desc, err)
		}
		pOut, rOut, pTime, rTime := outs[0], outs[1], times[0], times[1]
		pn, rn := pilotCount(pOut), c.count(rOut)
		matches := strconv.Itoa(pn)
		if pn != rn {
			matches = fmt.Sprintf("**%d vs %d**", pn, rn)
		}
		ref := "rg"
		if c.tool == "glob" {
			ref = "fd"
		}
		fmt.Fprintf(&b, "| %s vs %s | %s | %s | %s | %s | %.2fx |\n", c.tool, ref, c.desc, matches,
			ms(pTime), ms(rTime), float64(pTime)/float64(rTime))
	}
	b.WriteString("\nReference commands: `rg --hidden --no-require-git -c [-g GLOB] -e PATTERN DIR` and `fdfind --hidden --case-sensitive -t f -g GLOB DIR` (fd 8.6 has no --no-require-git, so outside a git repository it reads no .gitignore; the match counts show whether that changed the result); Pilot: `toolbench grep|glob DIR PATTERN [FILE_PATTERN]` (the registry's tools, whole process).\n")
	fmt.Print(b.String())
	return nil
}

// timeRuns runs the commands once each to warm the caches, then runs times
// more, alternating between them so that both see the same machine load.
// It returns each command's last output and median wall time.
func timeRuns(cmds [][]string, runs int) ([][]byte, []time.Duration, error) {
	outs := make([][]byte, len(cmds))
	times := make([][]time.Duration, len(cmds))
	for i := 0; i <= runs; i++ {
		for j, argv := range cmds {
			cmd := exec.Command(argv[0], argv[1:]...)
			var buf bytes.Buffer
			cmd.Stdout = &buf
			start := time.Now()
			err := cmd.Run()
			d := time.Since(start)
			if err != nil {
				if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
					return nil, nil, fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
				}
			}
			outs[j] = buf.Bytes()
			if i > 0 {
				times[j] = append(times[j], d)
			}
		}
	}
	medians := make([]time.Duration, len(cmds))
	for j, ts := range times {
		slices.Sort(ts)
		medians[j] = ts[len(ts)/2]
	}
	return outs, medians, nil
}

var found = regexp.MustCompile(`^Found (\d+) (?:match|file)`)

// pilotCount reads the total from the first line of a grep or glob answer.
func pilotCount(out []byte) int {
	line, _, _ := bytes.Cut(out, []byte("\n"))
	if m := found.FindSubmatch(line); m != nil {
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	return 0
}

// sumCounts adds up rg -c's "path:count" lines.
func sumCounts(out []byte) int {
	total := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if i := strings.LastIndexByte(line, ':'); i >= 0 {
			n, _ := strconv.Atoi(line[i+1:])
			total += n
		}
	}
	return total
}

func countLines(out []byte) int { return bytes.Count(out, []byte("\n")) }

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
