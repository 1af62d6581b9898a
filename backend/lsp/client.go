package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"pilot/backend/hostexec"
	"pilot/backend/procgroup"
	"pilot/backend/projectroot"
	"pilot/backend/version"
)

// initTimeout bounds a server's initialize, in the background: a server
// that has not answered by then is stopped and reported as failed.
const initTimeout = 2 * time.Minute

// client is one running server for one folder.
type client struct {
	cfg     ServerConfig
	root    string
	log     *slog.Logger
	proc    *procgroup.Group
	conn    *jsonrpc2.Conn
	started time.Time

	exited   chan struct{} // closed once the process is reaped
	exitErr  error         // set before exited closes
	ready    chan struct{} // closed once initialize answered or failed
	initErr  error         // set before ready closes
	version  string        // serverInfo.version, when short
	stopping atomic.Bool
	syncMu   sync.Mutex // one sync at a time: a server sees versions in order

	mu      sync.Mutex
	docs    map[string]int        // open documents: absolute path → version sent
	diags   map[string]*published // absolute path → the last diagnostics published
	seq     uint64                // publications so far
	changed chan struct{}         // closed and replaced on each publication
	lastUse time.Time
	// reported: what the last report said of each file (fingerprints),
	// as of publication reportedSeq.
	reported    map[string]string
	reportedSeq uint64
	// unversioned: the server published an open file's diagnostics
	// without saying which version it checked.
	unversioned bool
	busy        int
	idle        *time.Timer
}

// published is one textDocument/publishDiagnostics.
type published struct {
	version *int
	seq     uint64
	at      time.Time
	items   []lspDiagnostic
}

// startClient starts the server at path for root and initializes it in
// the background; ready closes when it can take documents.
// onExit is called when the process has exited, before exited closes.
func startClient(cfg ServerConfig, path, root string, env []string, log *slog.Logger, onExit func(*client)) (*client, error) {
	log = log.With("server", cfg.Name, "root", root)
	cfg = withOwnTsserver(cfg, path)
	// What the server starts in turn (node, go) is found as it was: not
	// on a relative PATH entry, not in the project.
	proc, stream, err := startProcess(path, cfg.Command[1:], root, hostexec.Env(env, root), log)
	if err != nil {
		return nil, err
	}
	c := &client{
		cfg: cfg, root: root, log: log, proc: proc, started: time.Now(),
		exited: make(chan struct{}), ready: make(chan struct{}),
		docs: map[string]int{}, diags: map[string]*published{}, changed: make(chan struct{}),
		lastUse: time.Now(), reported: map[string]string{},
	}
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(stream, jsonrpc2.VSCodeObjectCodec{}), handler{c},
		jsonrpc2.SetLogger(rpcLog{log}))
	go func() {
		err := proc.Wait()
		// What the server left in its group goes with it.
		proc.Kill()
		if err == nil {
			err = errors.New("it exited")
		}
		c.exitErr = err
		onExit(c)
		close(c.exited)
		_ = c.conn.Close()
	}()
	go c.initialize()
	return c, nil
}

// initialize sends initialize and initialized with root as the one
// workspace folder.
func (c *client) initialize() {
	ctx, cancel := context.WithTimeout(context.Background(), initTimeout)
	defer cancel()
	go func() {
		select {
		case <-c.exited:
			cancel()
		case <-ctx.Done():
		}
	}()
	uri := fileURI(c.root)
	params := initializeParams{
		ProcessID:             os.Getpid(),
		ClientInfo:            clientInfo{Name: "pilot", Version: version.Version},
		RootURI:               uri,
		WorkspaceFolders:      []workspaceFolder{{URI: uri, Name: filepath.Base(c.root)}},
		Capabilities:          json.RawMessage(clientCapabilities),
		InitializationOptions: c.cfg.InitOptions,
	}
	var res initializeResult
	err := c.conn.Call(ctx, "initialize", params, &res)
	if err == nil {
		err = c.conn.Notify(ctx, "initialized", struct{}{})
	}
	if err != nil {
		if ctx.Err() == nil { // a closed pipe: it is likely exiting, say how
			t := time.NewTimer(time.Second)
			select {
			case <-c.exited:
			case <-t.C:
			}
			t.Stop()
		}
		select {
		case <-c.exited:
			err = fmt.Errorf("%s stopped before it was ready (%v)", c.cfg.Name, c.exitErr)
		default:
			if ctx.Err() != nil {
				err = fmt.Errorf("%s did not answer initialize within %s", c.cfg.Name, initTimeout)
			} else {
				err = fmt.Errorf("%s refused to start: %v", c.cfg.Name, err)
			}
		}
		c.initErr = err
	} else if res.ServerInfo != nil && len(res.ServerInfo.Version) < 40 && !strings.ContainsAny(res.ServerInfo.Version, "{\n") {
		c.version = res.ServerInfo.Version
	}
	close(c.ready)
}

// wait waits for the server to be ready, or ctx to end.
func (c *client) wait(ctx context.Context) error {
	select {
	case <-c.ready:
		return c.initErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// alive reports whether the process still runs.
func (c *client) alive() bool {
	select {
	case <-c.exited:
		return false
	default:
		return !c.stopping.Load()
	}
}

// syncResult is what one sync sent: the versions the server must answer
// for, and the publication count before it.
type syncResult struct {
	want map[string]int // absolute path → version sent (open and changed files)
	gone []string       // absolute paths of deleted files, closed
	seq0 uint64
	sent time.Time
}

// sync sends the files' text as it is on disk: didOpen the first time,
// else didChange with the whole text and the next version, then didSave;
// a file that is gone is closed.
func (c *client) sync(ctx context.Context, files []string) (syncResult, error) {
	c.syncMu.Lock()
	defer c.syncMu.Unlock()
	c.mu.Lock()
	r := syncResult{want: map[string]int{}, seq0: c.seq, sent: time.Now()}
	c.mu.Unlock()
	root, err := projectroot.New(c.root)
	if err != nil {
		return r, fmt.Errorf("the folder %s cannot be opened: %w", c.root, err)
	}
	defer root.Close()
	for _, rel := range files {
		if err := ctx.Err(); err != nil { // a command that touched thousands of files
			return r, err
		}
		abs := filepath.Join(c.root, filepath.FromSlash(rel))
		uri := fileURI(abs)
		data, err := readSource(root, rel)
		if errors.Is(err, errNotSource) {
			continue
		}
		c.mu.Lock()
		v, open := c.docs[abs]
		if err != nil {
			delete(c.docs, abs)
			if open { // a gone file has no diagnostics, whatever was said
				delete(c.diags, abs)
				r.gone = append(r.gone, abs)
			}
		} else {
			c.docs[abs] = v + 1
		}
		c.mu.Unlock()
		switch {
		case err != nil && open:
			err = c.conn.Notify(ctx, "textDocument/didClose", didCloseParams{documentID{uri}})
		case err != nil:
			continue // gone, and never opened
		case open:
			err = c.conn.Notify(ctx, "textDocument/didChange", didChangeParams{
				TextDocument:   versionedDocument{URI: uri, Version: v + 1},
				ContentChanges: []contentChange{{Text: string(data)}},
			})
			if err == nil {
				err = c.conn.Notify(ctx, "textDocument/didSave", didSaveParams{documentID{uri}})
			}
			r.want[abs] = v + 1
		default:
			err = c.conn.Notify(ctx, "textDocument/didOpen", didOpenParams{textDocumentItem{
				URI: uri, LanguageID: c.cfg.languageID(rel), Version: 1, Text: string(data),
			}})
			r.want[abs] = 1
		}
		if err != nil {
			return r, fmt.Errorf("%s did not take %s: %v", c.cfg.Name, rel, err)
		}
	}
	return r, nil
}

// fresh reports whether p answers for version v sent after seq0. A server
// that does not say which version it checked is taken at its word for
// the first publication after the sync.
func fresh(p *published, v int, seq0 uint64) bool {
	return p != nil && p.seq > seq0 && (p.version == nil || *p.version >= v)
}

// settle is how long the servers stay quiet before the diagnostics of a
// change count as complete: the files that import a changed file are
// published in the same pass, milliseconds after it.
const settle = 150 * time.Millisecond

// quiet is how long a server that does not version its diagnostics
// (typescript-language-server) may stay silent after a change before
// the changed files count as answered: such a server does not repeat a
// file's empty diagnostics, so silence is its "no change". It is also how
// long such a server must stay quiet after publishing no diagnostics for
// a changed file: typescript-language-server publishes each of tsserver's
// passes (syntax, then the semantic check, which a cold or loaded server
// may take seconds to finish), so an empty first publication may be only
// the syntax pass, and "no errors" is said only once the server is quiet.
const quiet = time.Second

// await waits until every file of r has fresh diagnostics (for a server
// that does not version them: or it was silent for quiet), then until
// the server has been quiet for settle (quiet, when such a server said a
// changed file has none), or ctx ends (false) or the process exits
// (false).
func (c *client) await(ctx context.Context, r syncResult) bool {
	silence := time.NewTimer(quiet)
	defer silence.Stop()
	wait := settle
	for {
		c.mu.Lock()
		done, empty := true, false
		for abs, v := range r.want {
			p := c.diags[abs]
			done = done && fresh(p, v, r.seq0)
			empty = empty || (p != nil && len(p.items) == 0)
		}
		ch, unversioned := c.changed, c.unversioned
		c.mu.Unlock()
		if done {
			if unversioned && empty {
				wait = quiet // maybe only the syntax pass: see quiet
			}
			break
		}
		select {
		case <-ch:
			silence.Reset(quiet)
			continue
		case <-silence.C:
			if unversioned {
				return true
			}
			continue
		case <-ctx.Done():
			return false
		case <-c.exited:
			return false
		}
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		c.mu.Lock()
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
			t.Reset(wait)
		case <-t.C:
			return true
		case <-ctx.Done():
			return true // what came in is complete for the changed files
		case <-c.exited:
			return false
		}
	}
}

// collect returns what to report after a sync: the diagnostics of the
// files in want (whatever their age) and of every other file published
// since the last report whose diagnostics differ from what was reported
// of it then (the files that import a changed one; gopls checks other
// packages a second after a change, so they come with the next one). It
// returns when the last of them came after seq0. The gone files count as
// checked, with nothing to say.
func (c *client) collect(seq0 uint64, want map[string]int, gone []string) (map[string][]lspDiagnostic, time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string][]lspDiagnostic{}
	for _, abs := range gone {
		if c.diags[abs] == nil {
			out[abs] = nil
			c.reported[abs] = fingerprint(nil)
		}
	}
	var last time.Time
	for abs, p := range c.diags {
		fp := fingerprint(p.items)
		_, wanted := want[abs]
		if wanted || (p.seq > c.reportedSeq && fp != c.reported[abs]) {
			out[abs] = p.items
			if p.seq > seq0 && p.at.After(last) {
				last = p.at
			}
		}
		c.reported[abs] = fp
	}
	c.reportedSeq = c.seq
	return out, last
}

// all returns the last diagnostics of every file the server reported on.
func (c *client) all() map[string][]lspDiagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string][]lspDiagnostic{}
	for abs, p := range c.diags {
		out[abs] = p.items
	}
	return out
}

// fingerprint identifies a file's diagnostics, to tell a change.
func fingerprint(items []lspDiagnostic) string {
	b, _ := json.Marshal(items)
	return string(b)
}

// isOpen reports whether the file at abs is open with the server.
func (c *client) isOpen(abs string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.docs[abs]
	return ok
}

// stop asks the server to shut down and exit, then ends its group:
// TERM after grace, KILL after another.
func (c *client) stop(grace time.Duration) {
	if c.stopping.Swap(true) {
		<-c.exited
		return
	}
	c.mu.Lock()
	if c.idle != nil {
		c.idle.Stop()
	}
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	go func() {
		select {
		case <-c.ready:
			if c.initErr == nil {
				_ = c.conn.Call(ctx, "shutdown", nil, nil)
				_ = c.conn.Notify(ctx, "exit", nil)
			}
		case <-ctx.Done():
		}
		_ = c.conn.Close()
	}()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t := time.NewTimer(grace)
		select {
		case <-c.exited:
			t.Stop()
			return
		case <-t.C:
		}
		c.proc.Signal(sig)
	}
	<-c.exited
}

// fileURI is the file: URI of an absolute path.
func fileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// uriPath is the path of a file: URI, or "" for another scheme.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}

// rpcLog takes jsonrpc2's own messages (a server's output closed as it
// stops) into the log, at debug level.
type rpcLog struct{ log *slog.Logger }

func (l rpcLog) Printf(format string, v ...any) {
	l.log.Debug("language server connection: " + strings.TrimSpace(fmt.Sprintf(format, v...)))
}

// source bounds a file sent to a server: a bigger one (generated code, a
// bundle) is not source a model wrote, and would cost the server more
// than the change is worth.
var source = projectroot.Kind{Name: "a source file", Limit: 8 << 20}

// errNotSource: a file too big, not a regular file (a FIFO would block
// the read) or a link out of the project is not sent.
var errNotSource = errors.New("not a source file to check")

// readSource reads the regular file rel of the project through its root
// (no link out of it), up to source.Limit.
func readSource(root *projectroot.Root, rel string) ([]byte, error) {
	data, err := root.ReadOwn(rel, source)
	var nr *projectroot.NotRead
	if errors.As(err, &nr) {
		return nil, errNotSource
	}
	return data, err
}
