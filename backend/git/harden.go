package git

import (
	"context"
	"fmt"
	"strings"
)

// Hardening. A repository's own configuration (the local scope:
// .git/config and what it includes; the worktree scope: config.worktree)
// and its hooks are written by whoever wrote the folder: a cloned
// repository's owner, or a command that ran before .git was read-only to
// commands. Git runs the programs they name (filters, external diffs,
// hooks, fsmonitor, a signing program) with the rights of whoever runs
// git. So every git Pilot runs on the host gets, before its own
// arguments:
//   - fixedArgs: no pager, no hooks, no fsmonitor, no recursion into
//     submodules, no transport (a partial clone's lazy fetch would reach
//     a remote the repository names, with its programs);
//   - for each key of programKeys the repository's own configuration
//     sets, its neutral value, then the values the machine's own scopes
//     (system, global) give it, in their order: what the user configured
//     stays, what the repository added runs nothing.
//
// Status and diffs also pass --ignore-submodules=dirty (else git runs
// `git status` inside each submodule, under the submodule's own
// configuration, which nothing neutralised) and diffs --no-ext-diff
// --no-textconv. The decision is in docs/ARCHITECTURE.md, "Git on the
// host".

// fixedArgs come first in every git Pilot runs.
var fixedArgs = []string{
	"--no-pager",
	"-c", "core.hooksPath=/dev/null", // /dev/null/<hook> is never a file: no hook runs
	"-c", "core.fsmonitor=false",
	"-c", "submodule.recurse=false",
	"-c", "protocol.allow=never",
}

// programKey is a configuration key that names a program git runs
// (git-config(1) of git 2.39), as a pattern of lower-case section and
// name ("section.name", or "section.*.name" with a subsection), and the
// value with which it runs nothing. anyScope: neutralised whatever scope
// sets it (the machine's own protocol.<name>.allow would let a transport
// through the fixed protocol.allow=never).
type programKey struct {
	pattern, neutral string
	anyScope         bool
}

var programKeys = []programKey{
	{pattern: "core.editor", neutral: ":"},
	{pattern: "sequence.editor", neutral: ":"},
	{pattern: "core.pager", neutral: "cat"},
	{pattern: "pager.*", neutral: "false"},
	{pattern: "core.askpass"},
	{pattern: "core.sshcommand", neutral: "ssh"},
	{pattern: "core.gitproxy", neutral: "none"},
	{pattern: "core.alternaterefscommand"},
	{pattern: "credential.helper"}, // "" empties the list of helpers
	{pattern: "credential.*.helper"},
	{pattern: "diff.external"},
	{pattern: "diff.*.command"},
	{pattern: "diff.*.textconv"},
	{pattern: "difftool.*.cmd"},
	{pattern: "difftool.*.path"},
	{pattern: "mergetool.*.cmd"},
	{pattern: "mergetool.*.path"},
	{pattern: "merge.*.driver"},
	{pattern: "filter.*.clean"}, // "" runs no filter
	{pattern: "filter.*.smudge"},
	{pattern: "filter.*.process"},
	{pattern: "filter.*.required", neutral: "false"},
	{pattern: "gpg.program", neutral: "gpg"},
	{pattern: "gpg.*.program"},
	{pattern: "gpg.ssh.defaultkeycommand"},
	{pattern: "commit.gpgsign", neutral: "false"},
	{pattern: "tag.gpgsign", neutral: "false"},
	{pattern: "tag.forcesignannotated", neutral: "false"},
	{pattern: "push.gpgsign", neutral: "false"},
	{pattern: "log.showsignature", neutral: "false"},
	{pattern: "interactive.difffilter"},
	{pattern: "tar.*.command"},
	{pattern: "protocol.*.allow", neutral: "never", anyScope: true},
}

// match reports whether a key as `git config --list` prints it (section
// and name in lower case, a subsection as written) fits the pattern.
func (k programKey) match(key string) bool {
	dot, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
	if dot < 0 {
		return false
	}
	section, name, sub := strings.ToLower(key[:dot]), strings.ToLower(key[last+1:]), last > dot
	ps, pn, _ := strings.Cut(k.pattern, ".")
	if section != ps {
		return false
	}
	switch {
	case pn == "*": // section.NAME
		return !sub
	case strings.HasPrefix(pn, "*."): // section.SUBSECTION.name
		return sub && name == pn[2:]
	default:
		return !sub && name == pn
	}
}

// runner is git hardened for one folder's repository: fixedArgs and the
// options neutralising its own configuration, read once, then used for
// each command of one operation.
type runner struct {
	g    Git
	dir  string
	args []string
}

// at reads the configuration git sees in dir, with its scopes, and
// hardens git for it. A key that names a program but holds '=' cannot be
// given on git's command line: such a repository is refused with a
// sentence. The options are kept and used again while nothing they came
// from changed (configcache.go).
func (g Git) at(ctx context.Context, dir string) (runner, error) {
	c, env := g.configs(), allowed(dir, nil)
	key := cacheKey(g.Path, dir, env)
	args, hit, last := c.lookup(key)
	if hit {
		return runner{g: g, dir: dir, args: args}, nil
	}
	// The files the last read came from, as they are before this one.
	start, pre := c.now(), before(last)
	// GIT_TRACE_SETUP: git says on stderr which repository it found
	// (its git and common folders, its top), in the same process.
	read := []string{"config", "--list", "--show-scope", "--show-origin", "-z"}
	out, stderr, err := g.exec(ctx, dir, nil, traceSetup, fixedArgs, read...)
	found, rest := parseSetup(stderr)
	if err != nil {
		c.forget(key)
		return runner{}, failed(read, rest, err)
	}
	list := parseScoped(out)
	extra, err := neutralise(list)
	if err != nil {
		c.forget(key)
		return runner{}, fmt.Errorf("in %s: %w", dir, err)
	}
	hardened := append(append([]string{}, fixedArgs...), extra...)
	c.keep(ctx, g, key, dir, env, list, found, hardened, start, pre)
	return runner{g: g, dir: dir, args: hardened[:len(hardened):len(hardened)]}, nil
}

func (r runner) run(ctx context.Context, args ...string) (string, error) {
	return r.runInput(ctx, nil, args...)
}

func (r runner) runInput(ctx context.Context, stdin []byte, args ...string) (string, error) {
	return r.g.run(ctx, r.dir, stdin, nil, r.args, args...)
}

// setting is one line of `git config --list --show-scope --show-origin -z`.
type setting struct {
	scope, origin, key, value string
	bare                      bool // "[section] key" with no "=": true
}

// parseScoped reads `git config --list --show-scope --show-origin -z`
// (git 2.26 and later print the scope, then the origin): per setting,
// "scope\0origin\0key\nvalue\0", or "scope\0origin\0key\0" for a key
// with no value. The origin is "file:" and the path as git opened it, or
// "command line:" for a -c option.
func parseScoped(out string) []setting {
	var list []setting
	f := strings.Split(out, "\x00")
	for i := 0; i+2 < len(f); i += 3 {
		key, value, ok := strings.Cut(f[i+2], "\n")
		list = append(list, setting{scope: f[i], origin: f[i+1], key: key, value: value, bare: !ok})
	}
	return list
}

// fromRepo reports whether a scope is the repository's own.
func fromRepo(scope string) bool { return scope == "local" || scope == "worktree" }

// neutralise returns the -c options that give every program key the
// repository sets its neutral value followed by the machine's own values.
func neutralise(list []setting) ([]string, error) {
	var keys []string
	kind := map[string]programKey{}
	for _, s := range list {
		if _, seen := kind[s.key]; seen {
			continue
		}
		for _, k := range programKeys {
			if k.match(s.key) && (k.anyScope || fromRepo(s.scope)) {
				if strings.Contains(s.key, "=") {
					return nil, fmt.Errorf("the repository's configuration sets %q, which names a program and which Pilot cannot override on git's command line (the name holds '='): remove it (git config --unset %q) and try again", s.key, s.key)
				}
				kind[s.key] = k
				keys = append(keys, s.key)
				break
			}
		}
	}
	var args []string
	for _, key := range keys {
		k := kind[key]
		args = append(args, "-c", key+"="+k.neutral)
		if k.anyScope {
			continue
		}
		for _, s := range list {
			switch {
			case s.key != key || fromRepo(s.scope):
			case s.bare:
				args = append(args, "-c", key)
			default:
				args = append(args, "-c", key+"="+s.value)
			}
		}
	}
	return args, nil
}
