// Command fakellm serves a scripted fake LLM (Anthropic and OpenAI wire
// formats) for end-to-end tests. The first line on stdout is
// "listening on http://HOST:PORT"; it serves until interrupted.
//
//	go run ./backend/internal/fakellm/cmd/fakellm -script script.json -addr 127.0.0.1:0
//
// See the fakellm package documentation for the script format.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"pilot/backend/internal/fakellm"
)

func main() {
	scriptPath := flag.String("script", "", "JSON script of turns (empty: no turns; POST one to /_fakellm/script)")
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	flag.Parse()
	var script fakellm.Script
	if *scriptPath != "" {
		var err error
		if script, err = fakellm.LoadScript(*scriptPath); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	srv, err := fakellm.Start(script, *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakellm:", err)
		os.Exit(1)
	}
	fmt.Printf("listening on %s\n", srv.URL())
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	srv.Close()
}
