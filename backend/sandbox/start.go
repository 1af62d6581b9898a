package sandbox

// What starting a sandboxed command needs on every platform: the checks
// of the project, the folders made for a session, the command's
// environment and program, and the proxy's listener.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// commandEnv is a sandboxed command's environment: base with the
// sandbox's variables set over it: the private temporary folder (tmp),
// the cache kept between sessions (cache, "" for none) and the proxy on
// 127.0.0.1:port (0: no network).
func commandEnv(base []string, tmp, cache string, port int) []string {
	set := map[string]string{"TMPDIR": tmp, "PILOT_SANDBOX": "1"}
	if cache != "" {
		set["XDG_CACHE_HOME"] = cache // go build, pip and most tools keep their caches there
		if !hasVar(base, "npm_config_cache") {
			set["npm_config_cache"] = cache + "/npm" // npm's is ~/.npm otherwise, read-only here
		}
	}
	if port != 0 {
		u := "http://127.0.0.1:" + strconv.Itoa(port)
		for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"} {
			set[k] = u
		}
		set["NO_PROXY"], set["no_proxy"] = "localhost,127.0.0.1,::1", "localhost,127.0.0.1,::1"
	}
	env := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ours := set[k]; ours {
			continue
		}
		if port == 0 && isProxyVar(k) {
			continue // no proxy: a user's proxy variable would only mislead
		}
		env = append(env, kv)
	}
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return env
}

func hasVar(env []string, k string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, k+"=") {
			return true
		}
	}
	return false
}

func isProxyVar(k string) bool {
	switch strings.ToLower(k) {
	case "http_proxy", "https_proxy", "all_proxy", "no_proxy", "ftp_proxy":
		return true
	}
	return false
}

// lookPath finds name on the PATH of env (bash is looked up where the
// command's own PATH says).
func lookPath(name string, env []string) string {
	if strings.Contains(name, "/") {
		return name
	}
	path := "/usr/local/bin:/usr/bin:/bin"
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		f := filepath.Join(dir, name)
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return f
		}
	}
	return "/bin/" + name
}

// serveProxy hands every connection to the proxy's socket to serve.
func serveProxy(ctx context.Context, ln net.Listener, serve func(context.Context, net.Conn)) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go serve(ctx, c)
	}
}

// checkProject refuses a project the sandbox cannot confine commands to.
func checkProject(p Policy) error {
	if p.Project == "" || !filepath.IsAbs(p.Project) {
		return fmt.Errorf("sandbox: the project %q is not an absolute path", p.Project)
	}
	if filepath.Clean(p.Project) == "/" {
		return errors.New("the sandbox cannot confine commands to a project at /: every file would be writable; open a folder as the project")
	}
	return nil
}

// prepareFolders makes the private temporary folder tmp and the cache,
// and holds the git placeholder (holdPlaceholder) for one more user.
func prepareFolders(p Policy, tmp string) (*placeholderHold, error) {
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if p.Cache != "" {
		if err := os.MkdirAll(p.Cache, 0o700); err != nil {
			return nil, fmt.Errorf("sandbox: the cache folder: %w", err)
		}
	}
	h, err := holdPlaceholder(p.Git.Placeholder)
	if err != nil {
		return nil, fmt.Errorf("the sandbox cannot start: making the empty read-only .git that keeps commands from making a repository: %w", err)
	}
	return h, nil
}
