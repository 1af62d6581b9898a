//go:build linux

package sandbox

import (
	"encoding/binary"
	"runtime"
	"syscall"
)

// The pod's seccomp filter refuses one thing: giving a file the setuid or
// setgid bit. A command runs as the user (as root, when Pilot runs as
// root), so a setuid file it left in the project would run with the
// user's rights for whoever executes it outside the sandbox, where the
// project is not mounted nosuid. chmod, open and mknod with S_ISUID or
// S_ISGID in their mode fail with EPERM; openat2, whose mode the filter
// cannot see, fails with ENOSYS (libc then uses openat). Everything else
// passes. bwrap loads it (--seccomp) for the pod and every command.

// modeSyscall is a system call with a mode argument.
type modeSyscall struct {
	nr, arg uint32
}

// seccompArch is the audit architecture and the mode system calls of
// GOARCH (false: no filter for this architecture).
func seccompArch() (arch uint32, calls []modeSyscall, openat2 uint32, ok bool) {
	switch runtime.GOARCH {
	case "amd64":
		return 0xc000003e, []modeSyscall{
			{90, 1}, {91, 1}, {268, 2}, {452, 2}, // chmod, fchmod, fchmodat, fchmodat2
			{2, 2}, {85, 1}, {257, 3}, // open, creat, openat
			{133, 1}, {259, 2}, // mknod, mknodat
		}, 437, true
	case "arm64":
		return 0xc00000b7, []modeSyscall{
			{52, 1}, {53, 2}, {452, 2}, // fchmod, fchmodat, fchmodat2
			{56, 3}, {33, 2}, // openat, mknodat
		}, 437, true
	}
	return 0, nil, 0, false
}

// Classic BPF.
const (
	bpfLdWAbs   = 0x20
	bpfJeqK     = 0x15
	bpfJgeK     = 0x35
	bpfJsetK    = 0x45
	bpfRetK     = 0x06
	retAllow    = 0x7fff0000
	retErrno    = 0x00050000
	suidBits    = 0o6000
	x32SysBit   = 0x40000000
	offNr       = 0
	offArch     = 4
	offArgsBase = 16
)

// seccompFilter is the compiled filter (struct sock_filter[]), nil when
// GOARCH has none.
func seccompFilter() []byte {
	arch, calls, openat2, ok := seccompArch()
	if !ok {
		return nil
	}
	type insn struct {
		code   uint16
		jt, jf int // relative, or a label below
		k      uint32
	}
	const allow, deny, enosys = -1, -2, -3
	var p []insn
	p = append(p, insn{bpfLdWAbs, 0, 0, offArch},
		insn{bpfJeqK, 0, deny, arch}, // a foreign ABI (32-bit): refused
		insn{bpfLdWAbs, 0, 0, offNr})
	if runtime.GOARCH == "amd64" {
		p = append(p, insn{bpfJgeK, deny, 0, x32SysBit}) // x32
	}
	p = append(p, insn{bpfJeqK, enosys, 0, openat2})
	for _, c := range calls {
		p = append(p,
			insn{bpfJeqK, 0, 2, c.nr},
			insn{bpfLdWAbs, 0, 0, offArgsBase + 8*c.arg}, // the low 32 bits (little-endian)
			insn{bpfJsetK, deny, allow, suidBits})
	}
	end := len(p)
	p = append(p, insn{bpfRetK, 0, 0, retAllow},
		insn{bpfRetK, 0, 0, retErrno | uint32(syscall.EPERM)},
		insn{bpfRetK, 0, 0, retErrno | uint32(syscall.ENOSYS)})
	target := map[int]int{allow: end, deny: end + 1, enosys: end + 2}
	out := make([]byte, 0, 8*len(p))
	for i, in := range p {
		jump := func(j int) uint8 {
			if t, ok := target[j]; ok {
				return uint8(t - i - 1)
			}
			return uint8(j)
		}
		out = binary.LittleEndian.AppendUint16(out, in.code)
		out = append(out, jump(in.jt), jump(in.jf))
		out = binary.LittleEndian.AppendUint32(out, in.k)
	}
	return out
}
