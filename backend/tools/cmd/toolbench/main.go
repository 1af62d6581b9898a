// Command toolbench runs Pilot's grep and glob tools as whole processes and
// compares them with ripgrep (rg) and fd (fdfind) on the same folder with
// the same patterns.
//
//	toolbench grep ROOT PATTERN [FILE_PATTERN]   run Pilot's grep tool once
//	toolbench glob ROOT PATTERN                  run Pilot's glob tool once
//	toolbench [-runs 5] [-dir DIR]               benchmark, markdown table on stdout
//
// The benchmark default folder is $(go env GOROOT)/src. rg and fd run with
// --hidden --no-require-git so that, like Pilot, they search hidden files
// and honour .gitignore files outside a git repository (rg; fd 8.6 lacks
// the flag and reads none there); every case checks
// that all tools report the same number of matches.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"pilot/backend/projectroot"
	"pilot/backend/tools"
)

func main() {
	if len(os.Args) > 1 && (os.Args[1] == "grep" || os.Args[1] == "glob") {
		os.Exit(runTool(os.Args[1], os.Args[2:]))
	}
	runs := flag.Int("runs", 5, "timed runs per command (the median is reported)")
	dir := flag.String("dir", "", "folder to search (default: $(go env GOROOT)/src)")
	flag.Parse()
	if err := bench(*dir, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "toolbench:", err)
		os.Exit(1)
	}
}

// runTool calls the grep or glob tool through the registry, as the agent does.
func runTool(name string, args []string) int {
	if len(args) < 2 {
		fmt.Fprintf(os.Stderr, "usage: toolbench %s ROOT PATTERN [FILE_PATTERN]\n", name)
		return 2
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
	res, err := tools.New(tools.Deps{Root: root}).Execute(context.Background(), name, raw)
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
