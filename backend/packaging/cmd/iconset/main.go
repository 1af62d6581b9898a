// Command iconset writes the app icon in the hicolor theme's sizes for the
// Linux packages (make package):
//
//	go run ./backend/packaging/cmd/iconset -src build/appicon.png -out DIR
//
// writes DIR/hicolor/NxN/apps/pilot.png for every size in Sizes, scaled
// with Catmull-Rom from the source (512x512). With -window FILE it writes
// only the window's own icon (build/windowicon.png):
//
//	go run ./backend/packaging/cmd/iconset -window build/windowicon.png
package main

import (
	"flag"
	"fmt"
	"os"

	"pilot/backend/packaging"
)

func main() {
	src := flag.String("src", "build/appicon.png", "the source icon (PNG, square)")
	out := flag.String("out", "", "the folder to write hicolor/NxN/apps/NAME.png under")
	name := flag.String("name", "pilot", "the icon's name (the .desktop entry's Icon=)")
	window := flag.String("window", "", "write only the window's icon to this file")
	flag.Parse()
	if *window != "" {
		if err := packaging.WriteWindowIcon(*src, *window); err != nil {
			fmt.Fprintln(os.Stderr, "iconset:", err)
			os.Exit(1)
		}
		fmt.Printf("iconset: window icon %s\n", *window)
		return
	}
	if *out == "" {
		fmt.Fprintln(os.Stderr, "iconset: -out is required")
		os.Exit(2)
	}
	files, err := packaging.WriteIconSet(*src, *out, *name)
	if err != nil {
		fmt.Fprintln(os.Stderr, "iconset:", err)
		os.Exit(1)
	}
	fmt.Printf("iconset: %d icons under %s\n", len(files), *out)
}
