package mcp

import (
	"fmt"
	"os"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

// children lists the live processes whose parent is this test process,
// from a snapshot of the processes (Windows has no /proc; a process that
// has exited is not in it).
func children(t *testing.T) []string {
	t.Helper()
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer windows.CloseHandle(snap)
	me := uint32(os.Getpid())
	pe := windows.ProcessEntry32{Size: uint32(unsafe.Sizeof(windows.ProcessEntry32{}))}
	var out []string
	for err = windows.Process32First(snap, &pe); err == nil; err = windows.Process32Next(snap, &pe) {
		if pe.ParentProcessID == me {
			out = append(out, fmt.Sprintf("%d %s", pe.ProcessID, windows.UTF16ToString(pe.ExeFile[:])))
		}
	}
	return out
}
