//go:build unix

// Command fakenotify is the notification server of the production tests
// (frontend/e2e/desktop-prod.sh), run on the session bus of
// dbus-run-session: it prints "ready", then one JSON line per notification
// it receives, and clicks the last one (ActionInvoked "default") on SIGUSR1.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/godbus/dbus/v5"

	"pilot/backend/notify/notifytest"
)

func main() {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakenotify:", err)
		os.Exit(1)
	}
	defer conn.Close()
	enc := json.NewEncoder(os.Stdout)
	s, err := notifytest.Serve(conn)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakenotify:", err)
		os.Exit(1)
	}
	s.OnNotify = func(n notifytest.Notification) { _ = enc.Encode(n) }
	fmt.Println("ready")
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1, syscall.SIGTERM, os.Interrupt)
	for x := range sig {
		if x != syscall.SIGUSR1 {
			return
		}
		got := s.Received()
		if len(got) == 0 {
			fmt.Fprintln(os.Stderr, "fakenotify: nothing to click")
			continue
		}
		if err := s.Click(got[len(got)-1].ID, "default"); err != nil {
			fmt.Fprintln(os.Stderr, "fakenotify: click:", err)
		}
	}
}
