package git

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// The configuration read's cache. Hardening reads the configuration
// (at) before every operation: one git process, as much as the cheapest
// command. What it gives depends only on git's environment, the git
// program, and the files git reads for the folder. So at keeps, per folder,
// git program and environment (at most cacheFolders of them, the least
// recently used going first), the options it computed with a stamp of
// every such file (stamp.go), and uses them again, running no git, while
// every file is as it was: the same stamp, or the same content. Any doubt
// reads again: the cache keeps nothing it cannot check (configFiles). A
// stamp taken less than racy after its file changed cannot vouch for it
// (a rewrite within the same tick of the file system's clock keeps the
// stamp): the file's content then decides, and the options are trusted
// only once the content seen before a read is the same after it. The
// decision is in docs/ARCHITECTURE.md, "Git on the host".

const (
	cacheFolders = 64
	racy         = 2 * time.Second
)

// configCache is safe for concurrent use.
type configCache struct {
	mu      sync.Mutex
	entries map[string]*cached
	systems map[string]systemFile // the system file of a git and environment
	tick    uint64
	now     func() time.Time // time.Now; tests move it
}

// cached is a folder's hardening options and how the files they came from
// were seen. trusted: they are known to be the files git read (else the
// entry only tells the next read which files to look at before it). It is
// not changed once kept, but for used (under mu).
type cached struct {
	files   []string
	seen    []seen
	args    []string
	trusted bool
	used    uint64
}

// systemFile is the system configuration file git reads (path, "" when
// unknown) with the stamp of the git program that said so.
type systemFile struct {
	path string
	git  stamp
}

var sharedCache = newConfigCache(time.Now)

func newConfigCache(now func() time.Time) *configCache {
	return &configCache{entries: map[string]*cached{}, systems: map[string]systemFile{}, now: now}
}

func (g Git) configs() *configCache {
	if g.cache != nil {
		return g.cache
	}
	return sharedCache
}

// cacheKey is what a configuration read depends on besides files: the git
// program, the folder, the environment (in a fixed order).
func cacheKey(git, dir string, env []string) string {
	return git + "\x00" + dir + "\x00" + strings.Join(slices.Sorted(slices.Values(env)), "\x00")
}

// lookup returns the options kept for key if every file they came from
// is as it was (hit), and the entry kept for key (nil for none).
func (c *configCache) lookup(key string) (args []string, hit bool, e *cached) {
	c.mu.Lock()
	e = c.entries[key]
	c.mu.Unlock()
	if e == nil || !e.trusted {
		return nil, false, e
	}
	for i, f := range e.files {
		if !e.seen[i].same(f) {
			return nil, false, e
		}
	}
	c.mu.Lock()
	c.tick++
	e.used = c.tick
	c.mu.Unlock()
	return e.args[:len(e.args):len(e.args)], true, e
}

// before observes, ahead of a read, the files the last read of the same
// key came from.
func before(e *cached) map[string]seen {
	if e == nil {
		return nil
	}
	pre := make(map[string]seen, len(e.files))
	for _, f := range e.files {
		if s, ok := observe(f); ok {
			pre[f] = s
		}
	}
	return pre
}

func (c *configCache) forget(key string) {
	c.mu.Lock()
	delete(c.entries, key)
	c.mu.Unlock()
}

// keep observes the files the read begun at start came from and keeps
// args for key with them, or forgets key when one of them cannot be
// known. The entry is trusted when every file's stamp is older than racy
// before start (so the file did not change during the read, and no later
// change can keep its stamp), or, for a newer one, its content is the
// same as in pre, observed before the read: git read that content.
// Otherwise the entry only lists the files, so that the next read
// observes them first.
func (c *configCache) keep(ctx context.Context, g Git, key, dir string, env []string, list []setting, found setup, args []string, start time.Time, pre map[string]seen) {
	system, ok := c.systemFile(ctx, g)
	var files []string
	if ok {
		files, ok = configFiles(g.Path, system, dir, env, list, found)
	}
	obs := make([]seen, len(files))
	trusted := true
	for i, f := range files {
		if !ok {
			break
		}
		obs[i], ok = observe(f)
		if obs[i].stamp.racy(start) {
			obs[i].racy = true
			p, had := pre[f]
			trusted = trusted && had && p.read && obs[i].read && p.sum == obs[i].sum
		}
	}
	if !ok {
		c.forget(key)
		return
	}
	c.store(key, &cached{files: files, seen: obs, args: args, trusted: trusted})
}

// store keeps e for key, the least recently used entry going first when
// the cache is full.
func (c *configCache) store(key string, e *cached) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tick++
	e.used = c.tick
	if _, ok := c.entries[key]; !ok && len(c.entries) >= cacheFolders {
		var old string
		for k, e := range c.entries {
			if old == "" || e.used < c.entries[old].used {
				old = k
			}
		}
		delete(c.entries, old)
	}
	c.entries[key] = e
}

// plainGitVars are the GIT_ variables that change nothing of which
// configuration git reads, or whose effect configFiles follows.
var plainGitVars = map[string]bool{
	"GIT_TERMINAL_PROMPT": true, "GIT_EDITOR": true, "GIT_PAGER": true, "GIT_SSL_CAINFO": true,
	"GIT_AUTHOR_NAME": true, "GIT_AUTHOR_EMAIL": true, "GIT_AUTHOR_DATE": true,
	"GIT_COMMITTER_NAME": true, "GIT_COMMITTER_EMAIL": true, "GIT_COMMITTER_DATE": true,
	"GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_SYSTEM": true, "GIT_CONFIG_NOSYSTEM": true,
}

// configFiles lists every file whose change could change what the read
// of dir gave (list, with found, the repository git reported): the git
// program, the configuration files git reads or would read if they
// appeared, and those that decide which repository git finds from dir.
// ok is false when they cannot all be known, or when the read depends on
// more than files: an include (includeIf depends on the branch and the
// folder), extensions.worktreeConfig (config.worktree may appear), a
// variable that moves git's repository or configuration, a setting from
// a file not listed.
func configFiles(git, system, dir string, env []string, list []setting, found setup) (files []string, ok bool) {
	vars := map[string]string{}
	for _, kv := range env {
		name, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "GIT_") && !plainGitVars[name] {
			return nil, false
		}
		vars[name] = v
	}
	home, xdg := vars["HOME"], vars["XDG_CONFIG_HOME"]
	if !filepath.IsAbs(dir) || !filepath.IsAbs(home) || xdg != "" && !filepath.IsAbs(xdg) {
		return nil, false
	}
	files = []string{git, system, filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config")}
	if xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "config"))
	}
	// Git before 2.32 reads neither; stamping them too costs nothing.
	for _, name := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"} {
		if v, set := vars[name]; set {
			if !filepath.IsAbs(v) {
				return nil, false
			}
			files = append(files, v)
		}
	}
	repo, ok := found.files(dir)
	if !ok {
		return nil, false
	}
	known := map[string]bool{}
	var unique []string
	for _, f := range append(files, repo...) {
		if f = filepath.Clean(f); !known[f] {
			known[f] = true
			unique = append(unique, f)
		}
	}
	for _, s := range list {
		key := strings.ToLower(s.key)
		if strings.HasPrefix(key, "include.") || strings.HasPrefix(key, "includeif.") || key == "extensions.worktreeconfig" {
			return nil, false
		}
		if s.scope == "command" && s.origin == "command line:" {
			continue
		}
		p, ok := strings.CutPrefix(s.origin, "file:")
		if !ok || !known[found.abs(p)] {
			return nil, false
		}
	}
	return unique, true
}

// systemFile is the system configuration file g reads (even when
// GIT_CONFIG_NOSYSTEM leaves it out: stamping it costs nothing), asked of
// git once per git program and environment: `git config --system --list
// --show-origin` names it, or its error does when there is none.
func (c *configCache) systemFile(ctx context.Context, g Git) (string, bool) {
	env := allowed("/", nil)
	key := cacheKey(g.Path, "/", env)
	bin, ok := stampOf(g.Path)
	if !ok {
		return "", false
	}
	c.mu.Lock()
	s, seen := c.systems[key]
	c.mu.Unlock()
	if seen && s.git == bin {
		return s.path, s.path != ""
	}
	out, stderr, err := g.exec(ctx, "/", nil, nil, fixedArgs, "config", "--system", "--list", "--show-origin", "-z")
	path, sure := systemPath(out, stderr, err)
	if !sure || ctx.Err() != nil {
		return "", false
	}
	c.mu.Lock()
	c.systems[key] = systemFile{path: path, git: bin}
	c.mu.Unlock()
	return path, path != ""
}

// systemPath reads what `git config --system --list --show-origin -z`
// printed: the origin of its first setting, or the file its error says
// does not exist. sure is false when git's answer says nothing either way
// (it failed otherwise); path is "" for a file git reads that holds no
// setting, whose path git does not say.
func systemPath(out, stderr string, err error) (path string, sure bool) {
	if err == nil {
		origin, _, _ := strings.Cut(out, "\x00")
		p, ok := strings.CutPrefix(origin, "file:")
		if !ok || !filepath.IsAbs(p) {
			return "", out == ""
		}
		return p, true
	}
	const pre, post = "unable to read config file '", "': No such file or directory"
	_, p, ok := strings.Cut(strings.TrimSpace(stderr), pre)
	if p, found := strings.CutSuffix(p, post); ok && found && filepath.IsAbs(p) {
		return p, true
	}
	return "", false
}
