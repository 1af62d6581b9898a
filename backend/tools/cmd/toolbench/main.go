// Command toolbench runs Pilot's grep and glob tools as whole processes and
// compares them with ripgrep (rg) and fd (fdfind) on the same folder with
// the same patterns.
//
//	toolbench grep [-repeat N -cpuprofile F -timing] ROOT PATTERN [FILE_PATTERN]   run Pilot's grep tool
//	toolbench glob [-repeat N -cpuprofile F -timing] ROOT PATTERN                  run Pilot's glob tool
//	toolbench [-runs 5] [-dir DIR] [-modules DIR] [-base OLD_TOOLBENCH]
//	                                             benchmark, markdown table on stdout
//
// The benchmark searches $(go env GOROOT)/src, frontend/node_modules, and
// a deep tree and a big file it writes in the temp folder. rg and fd run
// with the ignore rules Pilot honours (see rgArgs); every case checks that
// all tools report the same number of matches. With -base, an older
// toolbench runs in the same alternation and must answer byte for byte the
// same.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime/pprof"
	"time"

	"pilot/backend/projectroot"
	"pilot/backend/tools"
)

func main() {
	if len(os.Args) > 1 && (os.Args[1] == "grep" || os.Args[1] == "glob") {
		os.Exit(runTool(os.Args[1], os.Args[2:]))
	}
	var o benchOptions
	flag.IntVar(&o.runs, "runs", 5, "timed runs per command (the median is reported)")
	flag.StringVar(&o.dir, "dir", "", "the Go tree to search (default: $(go env GOROOT)/src)")
	flag.StringVar(&o.modules, "modules", "frontend/node_modules", "a node_modules folder to search")
	flag.StringVar(&o.base, "base", "", "an older toolbench binary to run alternating with this one")
	only := flag.String("only", "", "run only the cases whose tool, folder and description match this regexp")
	flag.Parse()
	var err error
	if o.only, err = regexp.Compile(*only); err != nil {
		fmt.Fprintln(os.Stderr, "toolbench: -only:", err)
		os.Exit(2)
	}
	if err := bench(o); err != nil {
		fmt.Fprintln(os.Stderr, "toolbench:", err)
		os.Exit(1)
	}
}

// runTool calls the grep or glob tool through the registry, as the agent
// does, repeat times (the output of the last), with a CPU profile when asked.
func runTool(name string, args []string) int {
	fl := flag.NewFlagSet(name, flag.ExitOnError)
	repeat := fl.Int("repeat", 1, "run the tool this many times (to profile it)")
	profile := fl.String("cpuprofile", "", "write a CPU profile of the runs to this file")
	timing := fl.Bool("timing", false, "write each run's wall time in microseconds to stderr, one a line")
	_ = fl.Parse(args)
	args = fl.Args()
	if len(args) < 2 {
		fmt.Fprintf(os.Stderr, "usage: toolbench %s [-repeat N] [-cpuprofile FILE] ROOT PATTERN [FILE_PATTERN]\n", name)
		return 2
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	root, err := projectroot.New(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	in := map[string]string{"pattern": args[1]}
	if name == "grep" && len(args) > 2 {
		in["file_pattern"] = args[2]
	}
	raw, _ := json.Marshal(in)
	reg := tools.New(tools.Deps{Root: root})
	var res tools.Result
	for range max(1, *repeat) {
		start := time.Now()
		res, err = reg.Execute(context.Background(), name, raw)
		if err != nil {
			break
		}
		if *timing {
			fmt.Fprintln(os.Stderr, time.Since(start).Microseconds())
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(res.Output)
	if res.IsError {
		return 1
	}
	return 0
}
