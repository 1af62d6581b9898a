//go:build linux

package git

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// countingGit is git through a script that logs each run's arguments, with
// a cache of its own whose clock runs ahead by more than racy, so that the
// files a test has just written are not taken for racy (ctime cannot be
// set back); TestConfigCacheRacy checks that rule with the real clock.
func countingGit(t *testing.T, ahead bool) (Git, func() int) {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	g, err := Find(context.Background())
	if err != nil {
		t.Skip(err)
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "runs")
	g.Path = filepath.Join(bin, "git")
	writeFile(t, g.Path, "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '"+log+"'\nexec '"+real+"' \"$@\"\n")
	if err := os.Chmod(g.Path, 0o755); err != nil {
		t.Fatal(err)
	}
	now := time.Now
	if ahead {
		now = func() time.Time { return time.Now().Add(racy + time.Second) }
	}
	g.cache = newConfigCache(now)
	reads := func() int {
		b, _ := os.ReadFile(log)
		return strings.Count(string(b), " config --list --show-scope --show-origin -z\n")
	}
	return g, reads
}

// hardened returns the options at gives for dir, and whether it ran git's
// configuration read for them.
func hardened(t *testing.T, g Git, reads func() int, dir string) (string, bool) {
	t.Helper()
	before := reads()
	r, err := g.at(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(r.args, " "), reads() > before
}

// newRepo is a repository with one commit in a new folder, and a program
// for its configuration to name.
func newRepo(t *testing.T) (dir, prog string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "repo")
	mustGit(t, filepath.Dir(dir), "init", "-q", dir)
	mustGit(t, dir, "commit", "-q", "--allow-empty", "-m", "start")
	return dir, filepath.Join(t.TempDir(), "prog")
}

// rewriteInPlace writes content over path in place (same inode) and sets
// its times back as they were, until its ctime, which no one can set,
// differs from before (the file system's clock ticks in milliseconds).
func rewriteInPlace(t *testing.T, path, content string) {
	t.Helper()
	var before unix.Stat_t
	if err := unix.Stat(path, &before); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, time.Unix(0, before.Atim.Nano()), time.Unix(0, before.Mtim.Nano())); err != nil {
			t.Fatal(err)
		}
		var after unix.Stat_t
		if err := unix.Stat(path, &after); err != nil {
			t.Fatal(err)
		}
		if after.Ino != before.Ino || after.Size != before.Size || after.Mtim != before.Mtim {
			t.Fatalf("the rewrite changed more than ctime: %+v, was %+v", after, before)
		}
		if after.Ctim != before.Ctim {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("ctime never changed")
		}
	}
}

// Between two operations in a folder, its repository changes in a way
// that makes git run a program; the second operation's options neutralise
// it. Before the change, the options were taken from the cache (no git
// ran), so each case shows the cache saw the change; after it, they are
// kept again unless they depend on more than files.
func TestConfigCacheSeesChanges(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		folder func(t *testing.T, repo, prog string) string // the folder operations run in (default: repo)
		change func(t *testing.T, repo, dir, prog string)
		want   string
		kept   bool // the options after the change are cached
	}{
		{name: "a filter set with git config (a new file renamed over the old)", change: func(t *testing.T, repo, dir, prog string) {
			mustGit(t, repo, "config", "filter.ev.clean", prog)
		}, want: "filter.ev.clean=", kept: true},
		{name: "an external diff", change: func(t *testing.T, repo, dir, prog string) {
			mustGit(t, repo, "config", "diff.external", prog)
		}, want: "diff.external=", kept: true},
		{name: "an ssh command", change: func(t *testing.T, repo, dir, prog string) {
			mustGit(t, repo, "config", "core.sshCommand", prog)
		}, want: "core.sshcommand=ssh", kept: true},
		{name: "the config rewritten in place to the same size, mtime set back", folder: func(t *testing.T, repo, prog string) string {
			cfg := filepath.Join(repo, ".git", "config")
			b, _ := os.ReadFile(cfg)
			writeFile(t, cfg, string(b)+"[filter \"ev\"]\n\tsmudgx = "+prog+"\n")
			return repo
		}, change: func(t *testing.T, repo, dir, prog string) {
			cfg := filepath.Join(repo, ".git", "config")
			b, _ := os.ReadFile(cfg)
			rewriteInPlace(t, cfg, strings.Replace(string(b), "smudgx", "smudge", 1))
		}, want: "filter.ev.smudge=", kept: true},
		{name: "the config replaced by a rename, mtime set back", change: func(t *testing.T, repo, dir, prog string) {
			cfg := filepath.Join(repo, ".git", "config")
			b, _ := os.ReadFile(cfg)
			st, _ := os.Stat(cfg)
			writeFile(t, cfg+".new", string(b)+"[diff \"ev\"]\n\ttextconv = "+prog+"\n")
			if err := os.Chtimes(cfg+".new", st.ModTime(), st.ModTime()); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(cfg+".new", cfg); err != nil {
				t.Fatal(err)
			}
		}, want: "diff.ev.textconv=", kept: true},
		{name: "an include", change: func(t *testing.T, repo, dir, prog string) {
			inc := prog + ".inc"
			writeFile(t, inc, "[filter \"ev\"]\n\tprocess = "+prog+"\n")
			mustGit(t, repo, "config", "include.path", inc)
		}, want: "filter.ev.process="},
		{name: "a conditional include", change: func(t *testing.T, repo, dir, prog string) {
			inc := prog + ".inc"
			writeFile(t, inc, "[merge \"ev\"]\n\tdriver = "+prog+"\n")
			mustGit(t, repo, "config", "includeIf.gitdir:/.path", inc)
		}, want: "merge.ev.driver="},
		{name: "extensions.worktreeConfig and a config.worktree", change: func(t *testing.T, repo, dir, prog string) {
			mustGit(t, repo, "config", "extensions.worktreeConfig", "true")
			mustGit(t, repo, "config", "--worktree", "filter.Ev.clean", prog)
		}, want: "filter.Ev.clean="},
		{name: "a repository made between the folder and the top", folder: func(t *testing.T, repo, prog string) string {
			sub := filepath.Join(repo, "sub", "deeper")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			return sub
		}, change: func(t *testing.T, repo, dir, prog string) {
			mustGit(t, repo, "init", "-q", "sub")
			mustGit(t, filepath.Join(repo, "sub"), "config", "filter.ev.clean", prog)
		}, want: "filter.ev.clean=", kept: true},
		{name: "HEAD broken, git finds the repository around it", folder: func(t *testing.T, repo, prog string) string {
			mustGit(t, repo, "config", "filter.ev.clean", prog)
			mustGit(t, repo, "init", "-q", "inner")
			return filepath.Join(repo, "inner")
		}, change: func(t *testing.T, repo, dir, prog string) {
			head := filepath.Join(repo, "inner", ".git", "HEAD")
			b, _ := os.ReadFile(head)
			rewriteInPlace(t, head, strings.Repeat("x", len(b)-1)+"\n")
		}, want: "filter.ev.clean=", kept: true},
		{name: "the .git folder swapped for another repository's", change: func(t *testing.T, repo, dir, prog string) {
			other, _ := newRepo(t)
			mustGit(t, other, "config", "diff.ev.command", prog)
			if err := os.Rename(filepath.Join(repo, ".git"), filepath.Join(repo, "old.git")); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(filepath.Join(other, ".git"), filepath.Join(repo, ".git")); err != nil {
				t.Fatal(err)
			}
		}, want: "diff.ev.command=", kept: true},
		{name: "a linked worktree's common config", folder: func(t *testing.T, repo, prog string) string {
			wt := filepath.Join(t.TempDir(), "wt")
			mustGit(t, repo, "worktree", "add", "-q", "-b", "pilot/x", wt)
			return wt
		}, change: func(t *testing.T, repo, dir, prog string) {
			mustGit(t, repo, "config", "gpg.program", prog)
		}, want: "gpg.program=gpg", kept: true},
		{name: "a linked worktree's .git pointed at another repository", folder: func(t *testing.T, repo, prog string) string {
			wt := filepath.Join(t.TempDir(), "wt")
			mustGit(t, repo, "worktree", "add", "-q", "-b", "pilot/x", wt)
			return wt
		}, change: func(t *testing.T, repo, dir, prog string) {
			other, _ := newRepo(t)
			mustGit(t, other, "config", "core.askPass", prog)
			wt := filepath.Join(filepath.Dir(other), "wt")
			mustGit(t, other, "worktree", "add", "-q", "-b", "pilot/y", wt)
			b, _ := os.ReadFile(filepath.Join(wt, ".git"))
			writeFile(t, filepath.Join(dir, ".git"), string(b))
		}, want: "core.askpass=", kept: true},
		{name: "the folder, a link, pointed at another repository", folder: func(t *testing.T, repo, prog string) string {
			l := filepath.Join(t.TempDir(), "link")
			if err := os.Symlink(repo, l); err != nil {
				t.Fatal(err)
			}
			return l
		}, change: func(t *testing.T, repo, dir, prog string) {
			other, _ := newRepo(t)
			mustGit(t, other, "config", "credential.helper", prog)
			if err := os.Remove(dir); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(other, dir); err != nil {
				t.Fatal(err)
			}
		}, want: "credential.helper=", kept: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			g, reads := countingGit(t, true)
			repo, prog := newRepo(t)
			dir := repo
			if c.folder != nil {
				dir = c.folder(t, repo, prog)
			}
			if _, ran := hardened(t, g, reads, dir); !ran {
				t.Fatal("the first operation read no configuration")
			}
			if args, ran := hardened(t, g, reads, dir); ran || strings.Contains(args, c.want) {
				t.Fatalf("before the change: read again %v, options %s", ran, args)
			}
			c.change(t, repo, dir, prog)
			args, ran := hardened(t, g, reads, dir)
			if !ran || !strings.Contains(args, "-c "+c.want) {
				t.Fatalf("after the change: read %v, options %s: want -c %s", ran, args, c.want)
			}
			if args, ran := hardened(t, g, reads, dir); ran == c.kept || !strings.Contains(args, "-c "+c.want) {
				t.Fatalf("once more: read %v (want %v), options %s", ran, !c.kept, args)
			}
		})
	}
}

// An operation in a folder whose configuration was read, and nothing
// changed since, runs no git at all; one in another folder reads its own.
// On the old gitwt every operation read the configuration.
func TestConfigCacheRunsNoGitWhenNothingChanged(t *testing.T) {
	t.Parallel()
	g, _ := countingGit(t, true)
	runs := func() int {
		b, _ := os.ReadFile(filepath.Join(filepath.Dir(g.Path), "runs"))
		return strings.Count(string(b), "\n")
	}
	ctx := context.Background()
	repo, prog := newRepo(t)
	mustGit(t, repo, "config", "filter.ev.clean", prog)
	other, _ := newRepo(t)
	first, err := g.at(ctx, repo)
	if err != nil || runs() == 0 {
		t.Fatalf("the first read ran %d gits: %v", runs(), err)
	}
	before := runs()
	for range 3 {
		again, err := g.at(ctx, repo)
		if err != nil || runs() != before {
			t.Fatalf("nothing changed, and %d gits ran: %v", runs()-before, err)
		}
		if strings.Join(again.args, " ") != strings.Join(first.args, " ") || !strings.Contains(strings.Join(again.args, " "), "-c filter.ev.clean=") {
			t.Fatalf("kept options %q, first %q", again.args, first.args)
		}
	}
	if _, err := g.at(ctx, other); err != nil || runs() != before+1 {
		t.Fatalf("another folder: %d gits ran, want its configuration read: %v", runs()-before, err)
	}
}

// What depends on more than files, or on files that cannot be known, is
// read again every time.
func TestConfigCacheNeverKeeps(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		folder func(t *testing.T, repo, prog string) string
		fails  bool
	}{
		{"an include of a file not there yet", func(t *testing.T, repo, prog string) string {
			mustGit(t, repo, "config", "include.path", prog+".inc")
			return repo
		}, false},
		{"a conditional include of a file not there yet", func(t *testing.T, repo, prog string) string {
			mustGit(t, repo, "config", "includeIf.onbranch:pilot/**.path", prog+".inc")
			return repo
		}, false},
		{"extensions.worktreeConfig, no config.worktree yet", func(t *testing.T, repo, prog string) string {
			mustGit(t, repo, "config", "extensions.worktreeConfig", "true")
			return repo
		}, false},
		{"no repository", func(t *testing.T, repo, prog string) string { return t.TempDir() }, false},
		{"inside the .git folder", func(t *testing.T, repo, prog string) string { return filepath.Join(repo, ".git") }, false},
		{"a bare repository", func(t *testing.T, repo, prog string) string {
			bare := filepath.Join(t.TempDir(), "bare.git")
			mustGit(t, repo, "clone", "-q", "--bare", repo, bare)
			return bare
		}, false},
		{"a key git's -c cannot carry (refused)", func(t *testing.T, repo, prog string) string {
			mustGit(t, repo, "config", "filter.a=b.clean", prog)
			return repo
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			g, reads := countingGit(t, true)
			repo, prog := newRepo(t)
			dir := c.folder(t, repo, prog)
			for i := range 2 {
				before := reads()
				_, err := g.at(context.Background(), dir)
				if (err != nil) != c.fails || reads() != before+1 {
					t.Fatalf("operation %d: error %v, configuration reads %d, want 1", i+1, err, reads()-before)
				}
			}
		})
	}
}

// With the real clock, the files of this test's new repository were
// written less than racy ago: their stamps cannot vouch for them (a
// rewrite in the same tick of the file system's clock keeps the stamp).
// The first read is not trusted; the second is, its files' content being
// the same before and after it; then their content decides. A rewrite
// that kept the config's whole stamp (made here by setting the kept stamp
// to the new one, as a rewrite in the same tick would) is seen.
func TestConfigCacheRacy(t *testing.T) {
	t.Parallel()
	g, reads := countingGit(t, false)
	repo, prog := newRepo(t)
	cfg := filepath.Join(repo, ".git", "config")
	start := time.Now()
	writeFile(t, cfg, mustRead(t, cfg)+"[filter \"ev\"]\n\tsmudgx = "+prog+"\n")
	for i, want := range []bool{true, true, false} {
		// (On a machine so slow that racy passed, the second may not read.)
		if _, ran := hardened(t, g, reads, repo); ran != want && (i != 1 || time.Since(start) < racy) {
			t.Fatalf("operation %d: read %v, want %v", i+1, ran, want)
		}
	}
	rewriteInPlace(t, cfg, strings.Replace(mustRead(t, cfg), "smudgx", "smudge", 1))
	e := g.cache.entries[cacheKey(g.Path, repo, allowed(repo, nil))]
	i := slices.Index(e.files, cfg)
	if i < 0 || !e.seen[i].racy && time.Since(start) < racy {
		t.Fatalf("the config's stamp vouched for it: %+v", e.seen)
	}
	e.seen[i].stamp, _ = stampOf(cfg)
	if args, ran := hardened(t, g, reads, repo); !ran || !strings.Contains(args, "-c filter.ev.smudge=") {
		t.Fatalf("after the rewrite: read %v, options %s", ran, args)
	}
}

// A file rewritten with the same content (git branch -D rewrites the
// config though the branch had no section in it) is as it was: the
// options are used again, no git runs. Before, every such rewrite cost a
// read, and for racy after it every operation did.
func TestConfigCacheSameContent(t *testing.T) {
	t.Parallel()
	for _, ahead := range []bool{true, false} {
		g, reads := countingGit(t, ahead)
		repo, _ := newRepo(t)
		mustGit(t, repo, "branch", "gone")
		hardened(t, g, reads, repo)
		hardened(t, g, reads, repo)
		before, _ := os.Stat(filepath.Join(repo, ".git", "config"))
		mustGit(t, repo, "branch", "-D", "gone")
		after, _ := os.Stat(filepath.Join(repo, ".git", "config"))
		if os.SameFile(before, after) {
			t.Fatal("git branch -D did not rewrite the config")
		}
		if _, ran := hardened(t, g, reads, repo); ran {
			t.Fatalf("clock ahead %v: the config rewritten with the same content was read again", ahead)
		}
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The machine's own files (global, XDG), absent when read, are stamped:
// when one appears, the next operation reads it (a global
// protocol.<name>.allow is neutralised whoever sets it). Not parallel: it
// sets HOME and XDG_CONFIG_HOME.
func TestConfigCacheSeesTheMachinesFiles(t *testing.T) {
	for _, c := range []struct {
		name string
		file func(home, xdg string) string
		xdg  bool
	}{
		{"~/.gitconfig", func(home, xdg string) string { return filepath.Join(home, ".gitconfig") }, true},
		{"$XDG_CONFIG_HOME/git/config", func(home, xdg string) string { return filepath.Join(xdg, "git", "config") }, true},
		{"~/.config/git/config without XDG_CONFIG_HOME", func(home, xdg string) string { return filepath.Join(home, ".config", "git", "config") }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			home, xdg := t.TempDir(), t.TempDir()
			t.Setenv("HOME", home)
			if c.xdg {
				t.Setenv("XDG_CONFIG_HOME", xdg)
			} else {
				t.Setenv("XDG_CONFIG_HOME", "")
				os.Unsetenv("XDG_CONFIG_HOME")
			}
			g, reads := countingGit(t, true)
			repo, _ := newRepo(t)
			hardened(t, g, reads, repo)
			if _, ran := hardened(t, g, reads, repo); ran {
				t.Fatal("nothing changed, and the configuration was read again")
			}
			writeFile(t, c.file(home, xdg), "[protocol \"ext\"]\n\tallow = always\n")
			if args, ran := hardened(t, g, reads, repo); !ran || !strings.Contains(args, "-c protocol.ext.allow=never") {
				t.Fatalf("after %s appeared: read %v, options %s", c.name, ran, args)
			}
		})
	}
}

// The cache holds at most cacheFolders folders, the least recently used
// going first, and is safe for concurrent use.
func TestConfigCacheBoundedAndConcurrent(t *testing.T) {
	t.Parallel()
	c := newConfigCache(time.Now)
	for i := range cacheFolders + 1 {
		c.store(string(rune('A'+i)), &cached{trusted: true})
		if i == 1 {
			if _, hit, _ := c.lookup("A"); !hit {
				t.Fatal("A is not kept")
			}
		}
	}
	if _, _, e := c.lookup("B"); e != nil || len(c.entries) != cacheFolders {
		t.Fatalf("after %d folders: B kept %v, %d kept", cacheFolders+1, e != nil, len(c.entries))
	}
	if _, hit, _ := c.lookup("A"); !hit {
		t.Fatal("A, used since B was kept, went first")
	}

	g, reads := countingGit(t, true)
	repos := make([]string, 3)
	for i := range repos {
		var prog string
		repos[i], prog = newRepo(t)
		mustGit(t, repos[i], "config", "diff.external", prog)
	}
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			for range 5 {
				r, err := g.at(context.Background(), repos[i%len(repos)])
				if err != nil || !strings.Contains(strings.Join(r.args, " "), "-c diff.external=") {
					t.Errorf("%v %q", err, r.args)
				}
			}
		})
	}
	wg.Wait()
	if n := reads(); n > 12 {
		t.Errorf("%d configuration reads for 60 operations in 3 folders", n)
	}
}

func TestParseSetupAndSystemPath(t *testing.T) {
	t.Parallel()
	s, rest := parseSetup("warning: x\nsetup: git_dir: .git\nsetup: git_common_dir: .git\nsetup: worktree: /r\nsetup: cwd: /r\nsetup: prefix: sub/\n")
	if s != (setup{gitDir: ".git", commonDir: ".git", worktree: "/r", cwd: "/r"}) || rest != "warning: x\n" {
		t.Fatalf("parseSetup = %+v, %q", s, rest)
	}
	if s.abs(".git/config") != "/r/.git/config" || s.abs("/c/config") != "/c/config" {
		t.Fatal(s.abs(".git/config"), s.abs("/c/config"))
	}
	for _, c := range []struct {
		out, stderr string
		err         error
		path        string
		sure        bool
	}{
		{"file:/etc/gitconfig\x00user.name\nx\x00", "", nil, "/etc/gitconfig", true},
		{"", "fatal: unable to read config file '/opt/git/etc/gitconfig': No such file or directory\n", os.ErrInvalid, "/opt/git/etc/gitconfig", true},
		{"", "", nil, "", true}, // there, holding nothing: its path is not said
		{"", "fatal: unable to read config file '/etc/gitconfig': Permission denied\n", os.ErrInvalid, "", false},
		{"", "", context.Canceled, "", false},
	} {
		if path, sure := systemPath(c.out, c.stderr, c.err); path != c.path || sure != c.sure {
			t.Errorf("systemPath(%q, %q) = %q, %v", c.out, c.stderr, path, sure)
		}
	}
}

// configFiles lists the files a read came from and those git would read
// if they appeared, and refuses a setting from any other file, a
// variable that moves git's repository or configuration, or a relative
// path.
func TestConfigFiles(t *testing.T) {
	t.Parallel()
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	found := setup{gitDir: ".git", commonDir: ".git", worktree: top, cwd: top}
	env := []string{"HOME=/home/u", "PATH=/usr/bin", "GIT_AUTHOR_NAME=a"}
	list := parseScoped("system\x00file:/etc/gitconfig\x00a.b\nc\x00global\x00file:/home/u/.gitconfig\x00a.b\nc\x00" +
		"local\x00file:.git/config\x00a.b\nc\x00command\x00command line:\x00core.hookspath\n/dev/null\x00")
	files, ok := configFiles("/usr/bin/git", "/etc/gitconfig", top, env, list, found)
	want := []string{"/usr/bin/git", "/etc/gitconfig", "/home/u/.gitconfig", "/home/u/.config/git/config", top,
		top + "/.git", top + "/.git/HEAD", top + "/.git/commondir", top + "/.git/config", top + "/.git/objects", top + "/.git/refs"}
	if !ok || strings.Join(files, " ") != strings.Join(want, " ") {
		t.Fatalf("configFiles = %q, %v\nwant %q", files, ok, want)
	}
	for name, c := range map[string]struct {
		env  []string
		list []setting
		dir  string
	}{
		"a setting from a file not listed": {env, parseScoped("global\x00file:/home/u/.gitconfig.d/x\x00a.b\nc\x00"), top},
		"a setting from stdin":             {env, parseScoped("command\x00standard input:\x00a.b\nc\x00"), top},
		"GIT_DIR":                          {append(env, "GIT_DIR=/x"), list, top},
		"GIT_CEILING_DIRECTORIES":          {append(env, "GIT_CEILING_DIRECTORIES=/x"), list, top},
		"GIT_CONFIG_PARAMETERS":            {append(env, "GIT_CONFIG_PARAMETERS='a.b=c'"), list, top},
		"a relative GIT_CONFIG_GLOBAL":     {append(env, "GIT_CONFIG_GLOBAL=g"), list, top},
		"no HOME":                          {env[1:], list, top},
		"a relative folder":                {env, list, "."},
		"a folder outside the work tree":   {env, list, t.TempDir()},
	} {
		if files, ok := configFiles("/usr/bin/git", "/etc/gitconfig", c.dir, c.env, c.list, found); ok {
			t.Errorf("%s: kept, stamping %q", name, files)
		}
	}
	if files, ok := configFiles("/usr/bin/git", "/etc/gitconfig", top, append(env, "GIT_CONFIG_GLOBAL=/g", "XDG_CONFIG_HOME=/x"), list[:1], found); !ok ||
		!strings.Contains(strings.Join(files, " "), "/x/git/config /g ") {
		t.Errorf("GIT_CONFIG_GLOBAL and XDG_CONFIG_HOME: %q, %v", files, ok)
	}
}
