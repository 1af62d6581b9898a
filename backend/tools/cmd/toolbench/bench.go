package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// benchCase is one search run by Pilot and by the reference tool.
type benchCase struct {
	tool   string   // "grep" or "glob"
	desc   string   // as shown in the table
	folder string   // key of the folder searched (see folders)
	pilot  []string // toolbench arguments after ROOT
	ref    []string // reference command; the folder is appended
	count  func(out []byte) int
}

// rgArgs and fdArgs make rg and fd read the same ignore files as Pilot
// (.gitignore and .git/info/exclude in the folder searched and below; not
// the folders above it, not a global ignore file, not rg's .ignore and
// .rgignore) and search hidden files, as Pilot does. Both print every
// result (no limit), where Pilot counts every match and shows the first;
// both run on all cores, as Pilot's walk does.
var (
	rgArgs = []string{"rg", "--hidden", "--no-require-git", "--no-ignore-parent", "--no-ignore-global", "--no-ignore-dot", "--no-messages", "-c"}
	fdArgs = []string{"fdfind", "--hidden", "--no-ignore-parent", "--case-sensitive", "-t", "f"}
)

func grepCase(folder, desc, pattern, filePattern string) benchCase {
	c := benchCase{tool: "grep", desc: desc, folder: folder, pilot: []string{"grep", pattern}, count: sumCounts}
	c.ref = slices.Clone(rgArgs)
	if filePattern != "" {
		c.pilot = append(c.pilot, filePattern)
		c.ref = append(c.ref, "-g", filePattern)
	}
	c.ref = append(c.ref, "-e", pattern)
	return c
}

// globCase compares glob's pattern with fd's name glob fdGlob (the same
// files when pattern is "**/" and fdGlob).
func globCase(folder, pattern, fdGlob string) benchCase {
	ref := append(slices.Clone(fdArgs), "-g", fdGlob)
	return benchCase{tool: "glob", desc: "`" + pattern + "`", folder: folder, pilot: []string{"glob", pattern}, ref: ref, count: countLines}
}

// cases are the benchmark's searches: literals and regexps, with and
// without a required literal, any case, with and without a file filter,
// many matches and none, over the Go tree, a node_modules tree, a deep
// tree with ignore rules, and one big file.
func cases() []benchCase {
	return []benchCase{
		grepCase("go", "literal `func main`", "func main", ""),
		grepCase("go", "literal `errors\\.New\\(` in `*.go`", `errors\.New\(`, "*.go"),
		grepCase("go", "literal, many matches `err != nil`", `err != nil`, ""),
		grepCase("go", "literal, no match `qqzzyyxx`", `qqzzyyxx`, ""),
		grepCase("go", "regex `func \\w+Error\\(`", `func \w+Error\(`, ""),
		grepCase("go", "regex `[A-Z][a-z]+Handler`", `[A-Z][a-z]+Handler`, ""),
		grepCase("go", "regex, no literal `\\d{4}-\\d{2}-\\d{2}`", `\d{4}-\d{2}-\d{2}`, ""),
		grepCase("go", "alternation `TODO|FIXME`", `TODO|FIXME`, ""),
		grepCase("go", "case-insensitive `(?i)deprecated`", `(?i)deprecated`, ""),
		grepCase("go", "case-insensitive `(?i)http\\.get` in `*.{s,h}`", `(?i)http\.get`, "*.{s,h}"),
		grepCase("modules", "literal `function`", "function", ""),
		grepCase("modules", "regex `require\\(['\"][^'\"]+['\"]\\)` in `*.js`", `require\(['"][^'"]+['"]\)`, "*.js"),
		grepCase("deep", "literal `http.Request`", "http.Request", ""),
		grepCase("big", "literal `errors.New`", "errors.New", ""),
		grepCase("big", "regex `func \\w+Error\\(`", `func \w+Error\(`, ""),
		grepCase("big", "case-insensitive `(?i)deprecated`", `(?i)deprecated`, ""),
		globCase("go", "**/*.go", "*.go"),
		globCase("go", "**/*_test.go", "*_test.go"),
		globCase("go", "**/*.{s,h}", "*.{s,h}"),
		globCase("go", "**/*.{go,s,h,c,txt,json}", "*.{go,s,h,c,txt,json}"),
		globCase("modules", "**/*.js", "*.js"),
		globCase("modules", "**/*.{ts,tsx,mjs,cjs,json}", "*.{ts,tsx,mjs,cjs,json}"),
		globCase("deep", "**/*.go", "*.go"),
	}
}

// benchOptions are the benchmark's flags.
type benchOptions struct {
	runs    int
	dir     string // the Go tree; default $(go env GOROOT)/src
	modules string // a node_modules folder
	base    string // an older toolbench binary, run alternating with this one
	only    *regexp.Regexp
}

// folders returns the folders the cases search, generating the deep tree
// and the big file under tmp; a folder that cannot be had is left out,
// with why in notes.
func folders(o benchOptions, tmp string) (map[string]string, []string, error) {
	dir := o.dir
	if dir == "" {
		goroot, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return nil, nil, fmt.Errorf("go env GOROOT: %w", err)
		}
		dir = strings.TrimSpace(string(goroot)) + "/src"
	}
	f := map[string]string{"go": dir, "deep": filepath.Join(tmp, "deep"), "big": filepath.Join(tmp, "big")}
	var notes []string
	if fi, err := os.Stat(o.modules); err == nil && fi.IsDir() {
		f["modules"], _ = filepath.Abs(o.modules)
	} else {
		notes = append(notes, fmt.Sprintf("The node_modules cases were skipped: %s is not a folder (run `make node-modules`, or give -modules).", o.modules))
	}
	if err := makeDeep(f["deep"], dir); err != nil {
		return nil, nil, err
	}
	if err := makeBig(f["big"], dir); err != nil {
		return nil, nil, err
	}
	return f, notes, nil
}

func bench(o benchOptions) error {
	tmp, err := os.MkdirTemp("", "toolbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	dirs, notes, err := folders(o, tmp)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var b strings.Builder
	begun, loadBefore := time.Now().UTC(), loadAvgs()
	fmt.Fprintf(&b, "Whole-process times, median of %d runs after one warm-up run (the files are in the page cache for every tool), the commands alternating run by run; %d CPUs; load average (1 min) before each case. Wall is elapsed time; CPU is user + system time of the process and its threads. In process: the median wall time of %d more runs of the search in the process of a first one (the agent runs its tools in Pilot's process).\n\n", o.runs, runtime.NumCPU(), inProcessRuns)
	for _, k := range []string{"go", "modules", "deep", "big"} {
		if d, ok := dirs[k]; ok {
			fmt.Fprintf(&b, "- %s: `%s`\n", k, d)
		}
	}
	b.WriteString("\n| tool | folder | case | matches | Pilot wall | ref wall | wall ratio | Pilot CPU | ref CPU | CPU ratio | Pilot in process |")
	if o.base != "" {
		b.WriteString(" base wall | Pilot ÷ base |")
	}
	b.WriteString(" load |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	if o.base != "" {
		b.WriteString("---:|---:|")
	}
	b.WriteString("---:|\n")
	for _, c := range cases() {
		dir, ok := dirs[c.folder]
		if !ok || !o.only.MatchString(c.tool+" "+c.folder+" "+c.desc) {
			continue
		}
		load := loadAvg()
		cmds := [][]string{
			append([]string{self, c.pilot[0], dir}, c.pilot[1:]...),
			append(slices.Clone(c.ref), dir),
		}
		// Pilot runs its tools in its own process: the same search, repeated
		// in one process, shows what it costs there (after the first run).
		cmds = append(cmds, append([]string{self, c.pilot[0], "-repeat", strconv.Itoa(inProcessRuns + 1), "-timing", dir}, c.pilot[1:]...))
		if o.base != "" {
			cmds = append(cmds, append([]string{o.base, c.pilot[0], dir}, c.pilot[1:]...))
		}
		res, err := timeRuns(cmds, o.runs)
		if err != nil {
			return fmt.Errorf("%s %s: %w", c.tool, c.desc, err)
		}
		pn, rn := pilotCount(res[0].out), c.count(res[1].out)
		matches := strconv.Itoa(pn)
		if pn != rn {
			matches = fmt.Sprintf("**%d vs %d**", pn, rn)
		}
		ref := "rg"
		if c.tool == "glob" {
			ref = "fd"
		}
		fmt.Fprintf(&b, "| %s vs %s | %s | %s | %s | %s | %s | %.2fx | %s | %s | %.2fx | %s |", c.tool, ref, c.folder, c.desc, matches,
			ms(res[0].wall), ms(res[1].wall), ratio(res[0].wall, res[1].wall),
			ms(res[0].cpu), ms(res[1].cpu), ratio(res[0].cpu, res[1].cpu), ms(res[2].inProcess))
		if o.base != "" {
			if bn := pilotCount(res[3].out); bn != pn || !bytes.Equal(res[3].out, res[0].out) {
				return fmt.Errorf("%s %s: the base binary answered differently (%d against %d matches)", c.tool, c.desc, bn, pn)
			}
			fmt.Fprintf(&b, " %s | %.2fx |", ms(res[3].wall), ratio(res[0].wall, res[3].wall))
		}
		fmt.Fprintf(&b, " %s |\n", load)
	}
	fmt.Fprintf(&b, "\nReference commands: `%s [-g GLOB] -e PATTERN DIR` and `%s -g GLOB DIR`; the deep tree holds an empty `.git` folder, so that fd (8.6 has no --no-require-git) reads its `.gitignore` too. Pilot: `toolbench grep|glob DIR PATTERN [FILE_PATTERN]` (the registry's tools, whole process).", strings.Join(rgArgs, " "), strings.Join(fdArgs, " "))
	if o.base != "" {
		fmt.Fprintf(&b, " Base: `%s`, run in the same alternation; every answer it gave was byte for byte the same as this binary's.", filepath.Base(o.base))
	}
	b.WriteString("\n")
	for _, n := range notes {
		b.WriteString("\n" + n + "\n")
	}
	loadAfter := loadAvgs()
	fmt.Printf("Measured %s-%s UTC; load average %s at the start and %s at the end", begun.Format("2006-01-02 15:04"), time.Now().UTC().Format("15:04"), loadBefore, loadAfter)
	if busy(loadBefore) || busy(loadAfter) {
		fmt.Print(" (above 1 a CPU: other work was running, the wall times are no verdict; compare the CPU columns)")
	}
	fmt.Printf(".\n\n%s", b.String())
	return nil
}

// inProcessRuns is how many runs after the first toolbench -timing times.
const inProcessRuns = 4

// runResult is one command's last output and median times.
type runResult struct {
	out       []byte
	wall, cpu time.Duration
	inProcess time.Duration // median of the run times after the first reported with -timing
}

// timeRuns runs the commands once each to warm the caches, then runs times
// more, alternating between them so that all see the same machine load.
func timeRuns(cmds [][]string, runs int) ([]runResult, error) {
	res := make([]runResult, len(cmds))
	walls := make([][]time.Duration, len(cmds))
	cpus := make([][]time.Duration, len(cmds))
	inProcess := make([][]time.Duration, len(cmds))
	for i := 0; i <= runs; i++ {
		for j, argv := range cmds {
			cmd := exec.Command(argv[0], argv[1:]...)
			var buf, errBuf bytes.Buffer
			cmd.Stdout, cmd.Stderr = &buf, &errBuf
			start := time.Now()
			err := cmd.Run()
			d := time.Since(start)
			if err != nil {
				if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
					return nil, fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
				}
			}
			res[j].out = buf.Bytes()
			if i > 0 {
				walls[j] = append(walls[j], d)
				cpus[j] = append(cpus[j], cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
				inProcess[j] = append(inProcess[j], runTimes(errBuf.Bytes())...)
			}
		}
	}
	for j := range cmds {
		res[j].wall, res[j].cpu = median(walls[j]), median(cpus[j])
		if len(inProcess[j]) > 0 {
			res[j].inProcess = median(inProcess[j])
		}
	}
	return res, nil
}

// runTimes reads the times toolbench -timing wrote, but the first.
func runTimes(stderr []byte) []time.Duration {
	var ts []time.Duration
	for i, line := range strings.Fields(string(stderr)) {
		if us, err := strconv.Atoi(line); err == nil && i > 0 {
			ts = append(ts, time.Duration(us)*time.Microsecond)
		}
	}
	return ts
}

func median(ts []time.Duration) time.Duration {
	slices.Sort(ts)
	return ts[len(ts)/2]
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(max(b, 1)) }

// loadAvg is the 1-minute load average, "?" when it cannot be read.
func loadAvg() string {
	f := strings.Fields(loadAvgs())
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

// busy reports whether the 1-minute load average of loadAvgs is above 1 a
// CPU.
func busy(loads string) bool {
	f := strings.Fields(loads)
	if len(f) == 0 {
		return false
	}
	l, err := strconv.ParseFloat(f[0], 64)
	return err == nil && l > float64(runtime.NumCPU())
}

// loadAvgs is the 1, 5 and 15-minute load averages, "?" when they cannot
// be read.
func loadAvgs() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "?"
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
