// Pilot: a desktop coding agent. With no arguments it opens the window;
// `pilot version`, `pilot -p`, `pilot repl` and `pilot sessions` run
// headless on the same backend (see backend/cli).
package main

import (
	"context"
	"embed"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"pilot/backend/cli"
	"pilot/backend/config"
	"pilot/backend/logging"
	"pilot/backend/paths"
	"pilot/backend/workspace"
)

//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

func main() {
	started := time.Now()
	args := os.Args[1:]
	if cli.Wants(args) {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := cli.Run(ctx, args, cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
		stop()
		os.Exit(code)
	}
	if noDisplay() {
		fmt.Fprintln(os.Stderr, "pilot: there is no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set). Run `pilot help` for what works in a terminal.")
		os.Exit(1)
	}
	if err := runWindow(started); err != nil {
		fmt.Fprintln(os.Stderr, "pilot:", err)
		os.Exit(1)
	}
}

func runWindow(started time.Time) error {
	home, err := paths.Home(os.Getenv)
	if err != nil {
		return err
	}
	if err := paths.Ensure(home); err != nil {
		return err
	}
	logger, closer, err := logging.Open(paths.LogDir(home), slog.LevelInfo, config.LogRedactor(os.Getenv))
	if err != nil {
		return err
	}
	defer closer.Close()
	logger.Info("starting window", "home", home)

	ws, err := workspace.Open(context.Background(), workspace.Options{Home: home, Log: logger, Getenv: os.Getenv})
	if err != nil {
		return err
	}
	app := NewApp(ws, logger, started)
	return wails.Run(&options.App{
		Title:            "Pilot",
		Width:            1280,
		Height:           820,
		MinWidth:         480,
		MinHeight:        360,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 24, G: 25, B: 28, A: 255},
		OnStartup:        app.startup,
		OnDomReady:       app.domReady,
		OnShutdown:       app.shutdown,
		Bind:             []any{app},
		Linux: &linux.Options{
			Icon:             icon,
			ProgramName:      "pilot",
			WebviewGpuPolicy: gpuPolicy(os.Getenv("PILOT_WEBVIEW_GPU")),
		},
	})
}

// gpuPolicy is WebKitGTK's hardware acceleration: never by default (like
// Wails' own default: the page is text, software rendering draws it well,
// and it saves about 70 MiB in the web process and the blank windows some
// GL drivers give); PILOT_WEBVIEW_GPU=ondemand or always turns it on.
//
// Wails v2.16 hands the value to WebKit with two of them swapped (window.c
// maps WebviewGpuPolicyOnDemand to WEBKIT_HARDWARE_ACCELERATION_POLICY_ALWAYS
// and WebviewGpuPolicyAlways to ..._ON_DEMAND), so each is asked for by the
// other's name.
func gpuPolicy(v string) linux.WebviewGpuPolicy {
	switch v {
	case "ondemand":
		return linux.WebviewGpuPolicyAlways
	case "always":
		return linux.WebviewGpuPolicyOnDemand
	}
	return linux.WebviewGpuPolicyNever
}
