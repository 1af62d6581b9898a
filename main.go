// Pilot: a desktop coding agent. With no arguments, or a folder (`pilot .`),
// it opens the window; `pilot version`, `pilot -p`, `pilot repl` and
// `pilot sessions` run headless on the same backend (see backend/cli).
package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"pilot/backend/cli"
	"pilot/backend/service"
	"pilot/backend/wailsbridge"
)

//go:embed all:frontend/dist
var assets embed.FS

// The window's own icon, small (backend/packaging.WindowIconSize): the
// desktop entry and the icon theme carry the large ones.
//
//go:embed build/windowicon.png
var icon []byte

func main() {
	service.RunPodIfAsked() // a session's sandbox runs this executable as its pod
	started := time.Now()
	args := os.Args[1:]
	folder, window := service.WindowFolder(args)
	if !window {
		attachConsole()
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := cli.Run(ctx, args, cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
		stop()
		os.Exit(code)
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pilot: cannot read the current folder:", err)
		os.Exit(1)
	}
	dir := ""
	if folder != "" {
		if dir, err = service.ResolveFolder(folder, cwd); err != nil {
			fmt.Fprintln(os.Stderr, "pilot:", err)
			os.Exit(2)
		}
	}
	if noDisplay() {
		fmt.Fprintln(os.Stderr, "pilot: there is no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set). Run `pilot help` for what works in a terminal.")
		os.Exit(1)
	}
	home, err := service.Home(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pilot:", err)
		os.Exit(1)
	}
	id := wailsbridge.InstanceID(home)
	if code := handOver(id, args, cwd, dir); code >= 0 {
		os.Exit(code)
	}
	if err := runWindow(started, home, dir, id); err != nil {
		fmt.Fprintln(os.Stderr, "pilot:", err)
		os.Exit(1)
	}
}

// handOver gives the launch to the window already running on this
// PILOT_HOME, if there is one, before anything opens the database: one
// process per database. It returns the exit code, or -1 to open the window.
func handOver(id string, args []string, cwd, dir string) int {
	err := wailsbridge.Forward(id, wailsbridge.Launch{Args: args, WorkingDirectory: cwd})
	switch {
	case errors.Is(err, wailsbridge.ErrNoInstance):
		return -1
	case err != nil:
		fmt.Fprintf(os.Stderr, "pilot: a Pilot window is already open on this data folder but did not answer (%v). Close it, or start with another PILOT_HOME.\n", err)
		return 1
	case dir != "":
		fmt.Printf("pilot: opened %s in the Pilot window already running\n", dir)
	default:
		fmt.Println("pilot: Pilot is already running; its window was brought forward")
	}
	return 0
}

func runWindow(started time.Time, home, dir, instanceID string) error {
	logger, closer, err := service.OpenLog(home, os.Getenv)
	if err != nil {
		return err
	}
	defer closer.Close()
	logger.Info("starting window", "home", home, "project", dir)

	svc := newOpening(context.Background(), service.Options{Home: home, Log: logger, Getenv: os.Getenv, Project: dir})
	go func() {
		if _, err := svc.opened(); err != nil && !errors.Is(err, errClosed) {
			logger.Error("service not opened", "err", err)
			fmt.Fprintln(os.Stderr, "pilot:", err)
		}
	}()
	app := NewApp(svc, logger, started)
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
		OnBeforeClose:    app.beforeClose,
		Bind:             []any{app},
		// One window per PILOT_HOME: a launch that races past handOver is
		// handed over by Wails (it exits with status 1 after sending).
		SingleInstanceLock: &options.SingleInstanceLock{UniqueId: instanceID, OnSecondInstanceLaunch: app.secondLaunch},
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
