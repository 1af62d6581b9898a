package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// attachConsole makes the headless commands print in the console they were
// typed in. pilot.exe is a GUI program, so that opening the window from the
// Start menu shows no console; Windows then gives it none, and `pilot -p`
// typed in cmd or PowerShell printed nothing. Each standard stream without
// a handle of its own is pointed at the console of the process that
// started Pilot (AttachConsole(ATTACH_PARENT_PROCESS)); a stream
// redirected to a file or a pipe keeps its handle. Chosen over a console
// build, which would open a console window beside every window opened from
// the desktop. What a console shell does not do for a GUI program: wait for
// it (cmd shows its prompt at once; PowerShell and Git Bash wait when the
// output is piped, as scripts do).
func attachConsole() {
	streams := []struct {
		std  uint32
		file **os.File
		name string
		mode int
	}{
		{windows.STD_INPUT_HANDLE, &os.Stdin, "CONIN$", os.O_RDWR},
		{windows.STD_OUTPUT_HANDLE, &os.Stdout, "CONOUT$", os.O_RDWR},
		{windows.STD_ERROR_HANDLE, &os.Stderr, "CONOUT$", os.O_RDWR},
	}
	// Which streams have no handle is read before attaching: attaching
	// gives the missing standard handles the console's, while os.Stdout
	// and the others still hold the none they were made with at start.
	missing := streams[:0]
	for _, s := range streams {
		if h, err := windows.GetStdHandle(s.std); err != nil || h == 0 || h == windows.InvalidHandle {
			missing = append(missing, s)
		}
	}
	if len(missing) == 0 {
		return
	}
	if r, _, _ := attach.Call(attachParentProcess); r == 0 {
		return // started from no console (Explorer, a service): nothing to print to
	}
	for _, s := range missing {
		f, err := os.OpenFile(s.name, s.mode, 0)
		if err != nil {
			continue
		}
		_ = windows.SetStdHandle(s.std, windows.Handle(f.Fd()))
		*s.file = f
	}
}

// AttachConsole is not declared by x/sys/windows.
var attach = windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")

const attachParentProcess = ^uintptr(0) // ATTACH_PARENT_PROCESS, (DWORD)-1
