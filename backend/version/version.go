// Package version reports what build of Pilot is running.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set at build time with -ldflags "-X pilot/backend/version.Version=... -X pilot/backend/version.Commit=...".
var (
	Version = "dev"
	Commit  = "unknown"
)

const wailsModule = "github.com/wailsapp/wails/v2"

// Info is what `pilot version` prints and the About dialog shows.
type Info struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Wails   string `json:"wails"`
	Go      string `json:"go"`
	OS      string `json:"os"`
	Arch    string `json:"arch"`
}

// Get returns the running build's version data.
func Get() Info {
	info := Info{Version: Version, Commit: Commit, Wails: "unknown", Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range bi.Deps {
			if dep.Path == wailsModule {
				info.Wails = dep.Version
			}
		}
		if info.Commit == "unknown" {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" && len(s.Value) >= 12 {
					info.Commit = s.Value[:12]
				}
			}
		}
	}
	return info
}

// String is the one-paragraph form printed by `pilot version`.
func (i Info) String() string {
	return fmt.Sprintf("pilot %s\ncommit: %s\nwails: %s\ngo: %s %s/%s\n", i.Version, i.Commit, i.Wails, i.Go, i.OS, i.Arch)
}
