//go:build linux

package sandbox

import (
	"fmt"
	"syscall"
	"unsafe"
)

// Landlock, the kernel's own file-system sandbox, is the pod's second
// layer: the thread that forks the commands restricts itself (and so every
// command) to writing only in the project, the private temporary folder,
// the cache and /dev. bwrap already makes the rest read-only; Landlock
// also covers what a read-only mount does not, such as the host's
// sysctls under /proc/sys, writable to a root user's sandbox with
// bubblewrap 0.8 (see docs/ARCHITECTURE.md, "The sandbox of commands").

// Landlock's file-system access rights (linux/landlock.h).
const (
	llWriteFile  = 1 << 1
	llRemoveDir  = 1 << 4
	llRemoveFile = 1 << 5
	llMakeChar   = 1 << 6
	llMakeDir    = 1 << 7
	llMakeReg    = 1 << 8
	llMakeSock   = 1 << 9
	llMakeFifo   = 1 << 10
	llMakeBlock  = 1 << 11
	llMakeSym    = 1 << 12
	llRefer      = 1 << 13 // ABI 2
	llTruncate   = 1 << 14 // ABI 3

	llScopeAbstractUnix = 1 << 0 // ABI 6
	llScopeSignal       = 1 << 1 // ABI 6

	sysLandlockCreateRuleset = 444
	sysLandlockAddRule       = 445
	sysLandlockRestrictSelf  = 446
	landlockRulePathBeneath  = 1
	prSetNoNewPrivs          = 38
	oPath                    = 0x200000 // O_PATH
)

// writeRights are the rights Landlock handles at a given ABI: every way
// to change the file system, none of reading or executing.
func writeRights(abi int) uint64 {
	r := uint64(llWriteFile | llRemoveDir | llRemoveFile | llMakeChar | llMakeDir | llMakeReg |
		llMakeSock | llMakeFifo | llMakeBlock | llMakeSym)
	if abi >= 2 {
		r |= llRefer
	}
	if abi >= 3 {
		r |= llTruncate
	}
	return r
}

// landlockWrites restricts the calling thread (and the processes it forks
// from now on) to changing the file system only beneath writable, and to
// writing files (not creating or removing) beneath devices. It also sets
// no_new_privs on the thread, as Landlock requires. abi 0: nothing.
func landlockWrites(abi int, writable, devices []string) error {
	if abi <= 0 {
		return nil
	}
	handled := writeRights(abi)
	// From ABI 6 the domain is also scoped: its processes signal, and
	// connect to abstract unix sockets of, only processes of the domain
	// (the PID and network namespaces already keep the host's away).
	attr := struct{ handledFS, handledNet, scoped uint64 }{handledFS: handled}
	size := unsafe.Sizeof(attr.handledFS)
	if abi >= 6 {
		attr.scoped = llScopeAbstractUnix | llScopeSignal
		size = unsafe.Sizeof(attr)
	}
	fd, _, errno := syscall.Syscall(sysLandlockCreateRuleset, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return fmt.Errorf("landlock_create_ruleset: %w", errno)
	}
	defer syscall.Close(int(fd))
	add := func(path string, rights uint64) error {
		dir, err := syscall.Open(path, oPath|syscall.O_CLOEXEC, 0)
		if err != nil {
			return nil // absent (no cache folder, say): nothing to allow
		}
		defer syscall.Close(dir)
		// struct landlock_path_beneath_attr is packed: u64, then s32.
		var rule [12]byte
		*(*uint64)(unsafe.Pointer(&rule[0])) = rights
		*(*int32)(unsafe.Pointer(&rule[8])) = int32(dir)
		if _, _, errno := syscall.Syscall6(sysLandlockAddRule, fd, landlockRulePathBeneath, uintptr(unsafe.Pointer(&rule[0])), 0, 0, 0); errno != 0 {
			return fmt.Errorf("landlock_add_rule %s: %w", path, errno)
		}
		return nil
	}
	for _, p := range writable {
		if err := add(p, handled); err != nil {
			return err
		}
	}
	for _, p := range devices {
		if err := add(p, handled&(llWriteFile|llTruncate)); err != nil {
			return err
		}
	}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); errno != 0 {
		return fmt.Errorf("no_new_privs: %w", errno)
	}
	if _, _, errno := syscall.Syscall(sysLandlockRestrictSelf, fd, 0, 0); errno != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", errno)
	}
	return nil
}
