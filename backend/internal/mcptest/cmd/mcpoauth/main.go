//go:build unix

// Command mcpoauth (Unix: the e2e tests revoke with SIGUSR1) serves an MCP server that needs a sign-in and its
// authorization server on loopback (mcptest.OAuth), for end-to-end tests
// of the window's sign-in. The first line on stdout is "listening on
// URL", the MCP server's address; SIGUSR1 revokes every token given so
// far (OAuth.Revoke); it serves until interrupted.
//
//	go run ./backend/internal/mcptest/cmd/mcpoauth
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"pilot/backend/internal/mcptest"
)

func main() {
	o := mcptest.NewOAuth()
	fmt.Printf("listening on %s\n", o.MCPURL())
	revoke := make(chan os.Signal, 1)
	signal.Notify(revoke, syscall.SIGUSR1)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	for {
		select {
		case <-revoke:
			o.Revoke()
			fmt.Println("revoked")
		case <-stop:
			o.Close()
			return
		}
	}
}
