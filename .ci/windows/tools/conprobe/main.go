// Command conprobe runs a program from its console, as typing it in cmd
// does, and writes what the program wrote on that console (the screen
// buffer's text) to OUTFILE. The program is started as Windows starts a
// GUI program from a console: without a console (DETACHED_PROCESS) and
// with no standard handles (STARTF_USESTDHANDLES with none), so it prints
// only by attaching to the console (pilot.exe's attachConsole). For the
// Windows smoke test (.ci/windows/smoke.sh), under Wine, where conprobe
// needs a terminal for its console (script(1) gives it one):
//
//	conprobe.exe OUTFILE PROGRAM [ARGS...]
//
// It exits with the program's exit code.
package main

import (
	"fmt"
	"os"
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: conprobe OUTFILE PROGRAM [ARGS...]")
		os.Exit(2)
	}
	code, text, err := run(os.Args[2:])
	if err == nil {
		err = os.WriteFile(os.Args[1], []byte(text), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "conprobe:", err)
		os.Exit(2)
	}
	os.Exit(int(code))
}

// run starts args from this process's console (a new one when it has
// none), waits for it, and returns its exit code and the console's text.
func run(args []string) (uint32, string, error) {
	if r, _, err := allocCon.Call(); r == 0 && err != windows.ERROR_ACCESS_DENIED { // denied: it has one
		return 0, "", fmt.Errorf("AllocConsole: %w", err)
	}
	si := windows.StartupInfo{Cb: uint32(unsafe.Sizeof(windows.StartupInfo{})), Flags: windows.STARTF_USESTDHANDLES}
	var pi windows.ProcessInformation
	line, err := windows.UTF16PtrFromString(windows.ComposeCommandLine(args))
	if err != nil {
		return 0, "", err
	}
	if err := windows.CreateProcess(nil, line, nil, nil, false, windows.DETACHED_PROCESS, nil, nil, &si, &pi); err != nil {
		return 0, "", fmt.Errorf("starting %s: %w", args[0], err)
	}
	defer windows.CloseHandle(pi.Process)
	windows.CloseHandle(pi.Thread)
	if _, err := windows.WaitForSingleObject(pi.Process, windows.INFINITE); err != nil {
		return 0, "", fmt.Errorf("waiting for %s: %w", args[0], err)
	}
	var code uint32
	if err := windows.GetExitCodeProcess(pi.Process, &code); err != nil {
		return 0, "", err
	}
	text, err := screen()
	return code, text, err
}

// screen is the text of the console's screen buffer down to its cursor,
// one line per row, trailing blanks cut.
func screen() (string, error) {
	name, _ := windows.UTF16PtrFromString("CONOUT$")
	out, err := windows.CreateFile(name, windows.GENERIC_READ|windows.GENERIC_WRITE, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE, nil, windows.OPEN_EXISTING, 0, 0)
	if err != nil {
		return "", fmt.Errorf("opening the console: %w", err)
	}
	defer windows.CloseHandle(out)
	var info windows.ConsoleScreenBufferInfo
	if err := windows.GetConsoleScreenBufferInfo(out, &info); err != nil {
		return "", fmt.Errorf("reading the console's size: %w", err)
	}
	var b strings.Builder
	row := make([]uint16, info.Size.X)
	for y := int16(0); y <= info.CursorPosition.Y; y++ {
		var n uint32
		coord := uintptr(uint32(uint16(y)) << 16) // COORD{X: 0, Y: y}, passed by value
		if r, _, err := readOutput.Call(uintptr(out), uintptr(unsafe.Pointer(&row[0])), uintptr(len(row)), coord, uintptr(unsafe.Pointer(&n))); r == 0 {
			return "", fmt.Errorf("reading the console: %w", err)
		}
		b.WriteString(strings.TrimRight(windows.UTF16ToString(row[:n]), " "))
		b.WriteString("\n")
	}
	return b.String(), nil
}

// AllocConsole and ReadConsoleOutputCharacterW are not declared by
// x/sys/windows.
var kernel32 = windows.NewLazySystemDLL("kernel32.dll")

var allocCon, readOutput = kernel32.NewProc("AllocConsole"), kernel32.NewProc("ReadConsoleOutputCharacterW")
