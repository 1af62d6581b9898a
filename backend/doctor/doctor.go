// Package doctor checks what Pilot relies on, for `pilot doctor` and the
// window's Settings: the sandbox of commands (bubblewrap, user namespaces,
// Landlock, the proxy's way out of the pod) and the programs Pilot runs.
package doctor

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"pilot/backend/git"
	"pilot/backend/hostexec"
	"pilot/backend/sandbox"
)

// Check is one thing checked, said in a sentence.
type Check struct {
	Name   string `json:"name"`   // sandbox, bubblewrap, user namespaces, landlock, proxy, git, rg
	OK     bool   `json:"ok"`     // ready, or present
	Needed bool   `json:"needed"` // when not OK, Pilot cannot do all it should
	Detail string `json:"detail"` // a sentence: what was found, and what to do when not OK
}

// Report is every check.
type Report struct {
	Ready  bool    `json:"ready"` // every needed check is OK
	Checks []Check `json:"checks"`
}

// proxyReply is what the test proxy answers the pod's connection with.
const proxyReply = "pilot-doctor-proxy-ok"

// Run runs the checks. The proxy check starts a real pod, so the running
// executable must call sandbox.RunPodIfAsked first thing (main does).
func Run(ctx context.Context) Report {
	st := sandbox.ProbeNow()
	var cs []Check
	if st.Ready {
		cs = append(cs, Check{"sandbox", true, true, "The sandbox of commands is ready: run_bash commands run in a bubblewrap pod that can write only the project and its temporary folder, cannot read your secrets, and reaches the network only through Pilot's proxy."})
	} else {
		cs = append(cs, Check{"sandbox", false, true, "The sandbox of commands cannot start, so every command asks before it runs: " + st.Why})
	}
	if st.Bwrap != "" {
		cs = append(cs, Check{"bubblewrap", true, true, fmt.Sprintf("bubblewrap %s is at %s.", orUnknown(st.BwrapVersion), st.Bwrap)})
	} else {
		cs = append(cs, Check{"bubblewrap", false, true, "bubblewrap (bwrap) is not installed: install the package bubblewrap (sudo apt-get install bubblewrap)."})
	}
	cs = append(cs, Check{"user namespaces", st.Ready || strings.HasPrefix(st.UserNS, "User namespaces are available"), true, st.UserNS})
	if st.LandlockABI > 0 {
		cs = append(cs, Check{"landlock", true, false, fmt.Sprintf("Landlock ABI %d is available: the pod also restricts its commands' writes with it, a second kernel layer.", st.LandlockABI)})
	} else {
		cs = append(cs, Check{"landlock", false, false, "Landlock is not available (a kernel older than 5.13, or lsm= at boot without landlock): the sandbox relies on bubblewrap alone, which is enough; add landlock to the kernel's lsm= list for the second layer."})
	}
	cs = append(cs, proxyCheck(ctx, st))
	cs = append(cs, gitCheck(git.Find(ctx)))
	cs = append(cs, program("rg", false, "Pilot's own search does not use it; only `make bench` compares with it"))
	r := Report{Ready: true, Checks: cs}
	for _, c := range cs {
		if c.Needed && !c.OK {
			r.Ready = false
		}
	}
	return r
}

func orUnknown(v string) string {
	if v == "" {
		return "(version unknown)"
	}
	return v
}

// gitCheck says whether git was found (git.Find's answer), its version,
// and whether it is new enough (git.MinVersion: worktrees, and running
// git without the programs a repository names). Not needed: without it
// only worktree sessions, commits and the model's view of git are
// missing.
func gitCheck(g git.Git, err error) Check {
	const why = "worktree sessions need it, and it tells the model the project's branch and status"
	if err != nil {
		return Check{"git", false, false, fmt.Sprintf("%v. Without it there are no worktree sessions, and the model is not told the project's branch and status.", err)}
	}
	return Check{"git", true, false, fmt.Sprintf("git %s is at %s, new enough (%d.%d or newer) for worktrees and for running git without the programs a repository's own configuration names (Pilot's git runs no hook, filter or external diff): %s.", g.Version, g.Path, git.MinVersion[0], git.MinVersion[1], why)}
}

// program checks that a program Pilot runs is on PATH.
func program(name string, needed bool, why string) Check {
	p, err := hostexec.LookPath(name)
	var skip *hostexec.SkippedError
	switch {
	case errors.As(err, &skip):
		return Check{name, false, needed, fmt.Sprintf("%s (%s).", err, why)}
	case err != nil:
		return Check{name, false, needed, fmt.Sprintf("%s is not on PATH: %s.", name, why)}
	}
	return Check{name, true, needed, fmt.Sprintf("%s is at %s: %s.", name, p, why)}
}

// proxyCheck starts a pod with a proxy and has a command reach it through
// the pod's bridge and Pilot's unix socket.
func proxyCheck(ctx context.Context, st sandbox.Status) Check {
	if !st.Ready {
		return Check{"proxy", false, true, "The proxy was not tried: the sandbox cannot start."}
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	dir, err := os.MkdirTemp("", "pilot-doctor-")
	if err != nil {
		return Check{"proxy", false, true, "The proxy was not tried: " + err.Error() + "."}
	}
	defer os.RemoveAll(dir)
	s := sandbox.NewSession(sandbox.Policy{Project: dir, Proxy: func(ctx context.Context, c net.Conn) {
		defer c.Close()
		if _, err := bufio.NewReader(c).ReadString('\n'); err == nil {
			_, _ = io.WriteString(c, proxyReply+"\n")
		}
	}})
	defer s.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		return Check{"proxy", false, true, "The proxy was not tried: " + err.Error() + "."}
	}
	defer pr.Close()
	p, err := s.Start(ctx, sandbox.Cmd{
		Command: `exec 3<>"/dev/tcp/127.0.0.1/${HTTP_PROXY##*:}" && echo ping >&3 && head -n1 <&3`,
		Dir:     dir, Env: []string{"PATH=" + os.Getenv("PATH")}, Output: pw,
	})
	pw.Close()
	if err != nil {
		return Check{"proxy", false, true, fmt.Sprintf("A pod could not be started to try the proxy: %v.", err)}
	}
	out := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(pr, 4096))
		out <- string(b)
	}()
	select {
	case got := <-out:
		_, _ = p.Wait()
		if strings.Contains(got, proxyReply) {
			return Check{"proxy", true, true, "Commands reach Pilot's proxy: a pod's connection to its HTTP_PROXY address came through to Pilot."}
		}
		return Check{"proxy", false, true, fmt.Sprintf("A pod's connection to its HTTP_PROXY address did not reach Pilot; the command said: %s", strings.TrimSpace(got))}
	case <-ctx.Done():
		p.Kill()
		return Check{"proxy", false, true, "A pod's connection to its HTTP_PROXY address got no answer from Pilot within 20 seconds."}
	}
}
