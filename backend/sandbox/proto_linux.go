//go:build linux

package sandbox

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"syscall"
)

// The pod protocol. Pilot and the pod share one SOCK_SEQPACKET socketpair
// (the pod's end is its fd 3), so every message is one datagram: a JSON
// object, with the command's output pipe passed alongside as SCM_RIGHTS.
//
//	pod → Pilot  {"op":"ready","port":P}          up; P the proxy bridge's port (0: none)
//	Pilot → pod  {"op":"start","id":N,"argv":[…],"dir":D,"env":[…]} + fd
//	pod → Pilot  {"op":"started","id":N} | {"op":"error","id":N,"err":E}
//	pod → Pilot  {"op":"exit","id":N,"code":C}    C: exit status, or 128+signal
//	Pilot → pod  {"op":"kill","id":N[,"sig":S]}   SIGKILL (or signal S) to the command's process group
//
// Pilot closing its end ends the pod and, with it (PID 1 of its PID
// namespace), every process in it.
type message struct {
	Op   string   `json:"op"`
	ID   uint64   `json:"id,omitempty"`
	Argv []string `json:"argv,omitempty"`
	Dir  string   `json:"dir,omitempty"`
	Env  []string `json:"env,omitempty"`
	Code int      `json:"code,omitempty"`
	Port int      `json:"port,omitempty"`
	Err  string   `json:"err,omitempty"`
	Sig  int      `json:"sig,omitempty"` // kill: the signal; 0: SIGKILL
}

// maxMessage bounds one datagram (a command with its environment).
const maxMessage = 1 << 20

// send writes m, with f's descriptor when f is not nil.
func send(c *net.UnixConn, m message, f *os.File) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if len(b) > maxMessage {
		return fmt.Errorf("the command and its environment take %d bytes, more than the %d a command may", len(b), maxMessage)
	}
	var oob []byte
	if f != nil {
		oob = syscall.UnixRights(int(f.Fd()))
	}
	_, _, err = c.WriteMsgUnix(b, oob, nil)
	return err
}

// receive reads one message and the descriptor that came with it (-1: none).
func receive(c *net.UnixConn, buf, oob []byte) (message, int, error) {
	n, oobn, _, _, err := c.ReadMsgUnix(buf, oob)
	if err != nil {
		return message{}, -1, err
	}
	if n == 0 && oobn == 0 {
		return message{}, -1, errClosed
	}
	fd := -1
	if oobn > 0 {
		cms, err := syscall.ParseSocketControlMessage(oob[:oobn])
		if err == nil {
			for _, cm := range cms {
				fds, err := syscall.ParseUnixRights(&cm)
				if err != nil {
					continue
				}
				for _, f := range fds {
					if fd < 0 {
						fd = f
					} else {
						syscall.Close(f) // one descriptor a message; drop extras
					}
				}
			}
		}
	}
	var m message
	if err := json.Unmarshal(buf[:n], &m); err != nil {
		if fd >= 0 {
			syscall.Close(fd)
		}
		return message{}, -1, fmt.Errorf("sandbox: a malformed message: %w", err)
	}
	return m, fd, nil
}

var errClosed = fmt.Errorf("sandbox: the other end closed")

// socketpair returns two connected SOCK_SEQPACKET ends, both close-on-exec.
func socketpair() (*os.File, *os.File, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: socketpair: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "pod-control"), os.NewFile(uintptr(fds[1]), "pod-control"), nil
}

// fileConn turns one end into a connection (the file is closed; the
// connection holds its own descriptor).
func fileConn(f *os.File) (*net.UnixConn, error) {
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		return nil, err
	}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		c.Close()
		return nil, fmt.Errorf("sandbox: the control socket is a %T", c)
	}
	return uc, nil
}
