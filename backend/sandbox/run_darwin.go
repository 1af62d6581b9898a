package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
)

// seatbeltRun is what a session's commands share.
type seatbeltRun struct {
	dir         string
	tmp         string
	ln          net.Listener
	port        int
	stop        context.CancelFunc
	placeholder *placeholderHold
}

// startRun makes the session's private temporary folder and, with a
// proxy, the loopback port it listens on.
func startRun(p Policy) (*seatbeltRun, error) {
	if err := checkProject(p); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pilot-pod-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	r := &seatbeltRun{dir: dir, tmp: filepath.Join(dir, "tmp"), stop: func() {}}
	ok := false
	defer func() {
		if !ok {
			r.close()
		}
	}()
	if r.placeholder, err = prepareFolders(p, r.tmp); err != nil {
		return nil, err
	}
	if p.Proxy != nil {
		if r.ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			return nil, fmt.Errorf("sandbox: the proxy's port: %w", err)
		}
		r.port = r.ln.Addr().(*net.TCPAddr).Port
		var ctx context.Context
		ctx, r.stop = context.WithCancel(context.Background())
		go serveProxy(ctx, r.ln, p.Proxy)
	}
	ok = true
	return r, nil
}

func (r *seatbeltRun) close() {
	if r.ln != nil {
		_ = r.ln.Close()
	}
	r.stop()
	r.placeholder.release()
	_ = os.RemoveAll(r.dir)
}

// userTempDir is the user's own temporary folder, unreadable to commands
// (macOS's per-user $TMPDIR, /var/folders/...): "" when it is the system's
// shared one, which seatbeltReplaced covers.
func userTempDir() string {
	t := filepath.Clean(os.TempDir())
	if t == "/tmp" || t == "/var/tmp" {
		return ""
	}
	return t
}
