//go:build linux

package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// attempt is one try at getting out of the sandbox. Its script prints
// ESCAPED when the attempt worked; control marks the ones that are safe to
// run outside the sandbox, where they must work (so the check can fail).
type attempt struct {
	name    string
	script  string
	control bool
}

// secrets are the files hidden by default (and by Policy.Hidden and
// PilotHome), each holding the canary, relative to the test home or as
// $PH (PILOT_HOME, outside the home).
var secrets = []string{
	"$H/.ssh/id_ed25519", "$H/.gnupg/private-keys-v1.d/k.key", "$H/.aws/credentials",
	"$H/.config/gcloud/credentials.db", "$H/.kube/config", "$H/.docker/config.json", "$H/.netrc",
	"$H/.local/share/keyrings/login.keyring", "$H/.password-store/site.gpg", "$H/.config/gh/hosts.yml",
	"$PH/pilot.db", "$H/notes/secret.txt",
	// Credentials beyond those (issue 36).
	"$H/.git-credentials", "$H/.config/git/credentials", "$H/.npmrc", "$H/.yarnrc.yml", "$H/.pypirc",
	"$H/.cargo/credentials.toml", "$H/.cargo/credentials", "$H/.claude/.credentials.json", "$H/.codex/auth.json",
	"$H/.bash_history", "$H/.zsh_history", "$H/.local/share/fish/fish_history", "$H/.python_history",
	"$H/.node_repl_history", "$H/.psql_history", "$H/.mysql_history", "$H/.azure/accessTokens.json",
	"$H/.config/hub", "$H/.terraform.d/credentials.tfrc.json", "$H/.gem/credentials", "$H/.pgpass",
	"$H/.vault-token", "$H/.config/containers/auth.json", "$H/.mozilla/firefox/p.default/cookies.sqlite",
	"$H/.config/google-chrome/Default/Login Data", "$H/.gemini/oauth_creds.json",
}

// homeSockets are unix sockets a program of the host listens on under the
// home (and one in the project): container engines' and agents' known
// places, and one only /proc/net/unix finds.
var homeSockets = []string{
	"$H/.docker/run/docker.sock", "$H/.docker/desktop/docker.sock", "$H/.colima/default/docker.sock",
	"$H/.lima/default/sock/lima.sock", "$H/.orbstack/run/docker.sock", "$H/.rd/docker.sock",
	"$H/.1password/agent.sock", "$H/.local/share/some-app/app.sock", "$PROJ/.dev/server.sock",
}

// writeTargets are places outside the project and TMPDIR.
var writeTargets = []string{
	"$H/.bashrc", "$H/.ssh/authorized_keys", "$PH/inject", "$OUT/x", "$TOUT/x", "/tmp/pilot-esc-$RAND",
	"/var/tmp/pilot-esc-$RAND", "$PROJ/../pilot-esc-$RAND", "/etc/pilot-esc-$RAND", "/usr/local/bin/pilot-esc-$RAND",
}

func corpus() []attempt {
	var as []attempt
	for i, s := range secrets {
		as = append(as,
			attempt{"cat " + s, `cat "` + s + `" && echo ESCAPED`, true},
			attempt{"python reads " + s, `$PY -c "import sys; print(open(sys.argv[1]).read())" "` + s + `" && echo ESCAPED`, true},
			attempt{"copy into the project " + s, fmt.Sprintf(`cp "%s" "$PROJ/stolen-%d" && cat "$PROJ/stolen-%d" && echo ESCAPED`, s, i, i), true},
			attempt{"a symlink made in the project to " + s, fmt.Sprintf(`ln -sf "%s" "$PROJ/link-%d" && cat "$PROJ/link-%d" && echo ESCAPED`, s, i, i), true},
			attempt{"/proc/self/root to " + s, `cat "/proc/self/root` + s + `" && echo ESCAPED`, true},
		)
	}
	for _, sock := range homeSockets {
		as = append(as,
			attempt{"python connects to " + sock, `$PY -c "
import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print('ESCAPED')" "` + sock + `"`, true},
			attempt{"curl --unix-socket " + sock, `curl -s -m 2 --unix-socket "` + sock + `" http://d/_ping | grep -q pilot-sock-answer && echo ESCAPED`, true},
			attempt{"a link in the project to " + sock, `ln -sf "` + sock + `" "$PROJ/sock-link" && $PY -c "
import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print('ESCAPED')" "$PROJ/sock-link"`, true},
			attempt{"unmount the cover of " + sock, `umount "` + sock + `" 2>/dev/null; $PY -c "
import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print('ESCAPED')" "` + sock + `"`, true},
		)
	}
	for _, w := range writeTargets {
		safe := !strings.HasPrefix(w, "/etc") && !strings.HasPrefix(w, "/usr")
		as = append(as,
			attempt{"append to " + w, `echo owned >> "` + w + `" && echo ESCAPED`, safe},
			attempt{"touch " + w, `touch "` + w + `.t" && echo ESCAPED`, safe},
			attempt{"python writes " + w, `$PY -c "import sys; open(sys.argv[1],'a').write('owned')" "` + w + `.p" && echo ESCAPED`, safe},
		)
	}
	return append(as, []attempt{
		// /proc: the host's processes, Pilot's, the pod's.
		// (PID 1 is the pod inside; outside, the host's init, which this
		// machine's own confinement may hide: no control for those.)
		{"/proc/1/root to the secret", `cat /proc/1/root$H/.ssh/id_ed25519 && echo ESCAPED`, false},
		{"/proc/1/root listing", `ls /proc/1/root/ >/dev/null && echo ESCAPED`, false},
		{"/proc/1/fd of the pod", `readlink /proc/1/fd/* | grep -q . && echo ESCAPED`, false},
		{"/proc/1/environ", `cat /proc/1/environ >/dev/null && echo ESCAPED`, false},
		{"/proc/1/cwd", `ls /proc/1/cwd/ >/dev/null && echo ESCAPED`, false},
		{"/proc/<outside>/root to the secret", `cat /proc/$SPID/root$H/.ssh/id_ed25519 && echo ESCAPED`, true},
		{"/proc/<outside>/cwd", `ls /proc/$SPID/cwd/ >/dev/null && echo ESCAPED`, true},
		{"/proc/<outside>/fd", `readlink /proc/$SPID/fd/* | grep -q . && echo ESCAPED`, true},
		{"/proc/<pilot>/fd", `ls /proc/$HPID/fd/ >/dev/null && echo ESCAPED`, true},
		{"/proc/<pilot>/root", `ls /proc/$HPID/root/ >/dev/null && echo ESCAPED`, true},
		{"/proc/<pilot>/environ", `cat /proc/$HPID/environ >/dev/null && echo ESCAPED`, true},
		{"/proc/<pilot>/mem", `$PY -c "open('/proc/$HPID/mem','rb')" && echo ESCAPED`, true},
		{"/proc/<outside>/cmdline", `cat /proc/$SPID/cmdline >/dev/null && echo ESCAPED`, true},
		{"another process's environ", `cat /proc/$SPID/environ >/dev/null && echo ESCAPED`, true},
		{"a descriptor passed in", `ls /proc/self/fd | grep -qvxE '[0-3]' && echo ESCAPED`, false},
		{"the pod's control socket through /proc/1/fd/3", `exec 9<>/proc/1/fd/3 && echo ESCAPED`, false},
		{"ps sees the host", `ps -e -o pid= | wc -l | { read n; [ "$n" -gt 20 ] && echo ESCAPED; }`, true},
		// Signals and tracing.
		{"kill -0 a process outside", `kill -0 $SPID && echo ESCAPED`, true},
		{"kill -0 Pilot", `kill -0 $HPID && echo ESCAPED`, true},
		{"SIGSTOP a process outside", `kill -STOP $SPID && echo ESCAPED`, false},
		{"kill every process", `kill -9 -1; kill -0 $SPID && echo ESCAPED`, false},
		{"pkill by name", `pkill -x sleep; kill -0 $SPID && echo ESCAPED`, false},
		{"kill the pod", `kill -9 1; kill -TERM 1; sleep 0.1; kill -0 $SPID && echo ESCAPED`, false},
		{"ptrace a process outside", `$PY -c "
import ctypes,sys; l=ctypes.CDLL(None,use_errno=True)
if l.ptrace(0x4206,int(sys.argv[1]),0,0)==0: print('ESCAPED')" $SPID`, true},
		{"ptrace the pod", `$PY -c "
import ctypes; l=ctypes.CDLL(None,use_errno=True)
if l.ptrace(0x4206,1,0,0)==0: print('ESCAPED')"`, false},
		{"strace a process outside", `timeout 5 strace -qq -e trace=none -p $SPID 2>&1 | grep -q 'attach' ; kill -0 $SPID 2>/dev/null && echo ESCAPED`, false},
		{"renice a process outside", `renice -n 5 -p $SPID && echo ESCAPED`, true},
		// Namespaces, mounts, root.
		{"unshare -r", `unshare -r true && echo ESCAPED`, true},
		{"unshare -U", `unshare -U true && echo ESCAPED`, true},
		{"unshare -m", `unshare -m true && echo ESCAPED`, true},
		{"unshare -n", `unshare -n true && echo ESCAPED`, true},
		{"unshare -rm then umount the hidden folder", `unshare -rm sh -c "umount $H/.ssh && cat $H/.ssh/id_ed25519" && echo ESCAPED`, false},
		{"nsenter Pilot's namespaces", `nsenter -t $HPID -m -n true && echo ESCAPED`, true},
		{"nsenter the init's namespaces", `nsenter -t 1 -a true && echo ESCAPED`, false},
		{"nsenter an outside process's namespaces", `nsenter -t $SPID -m -n -p true && echo ESCAPED`, true},
		{"setns through python", `$PY -c "
import ctypes,os,sys; l=ctypes.CDLL(None,use_errno=True)
fd=os.open('/proc/%s/ns/mnt'%sys.argv[1],os.O_RDONLY)
if l.setns(fd,0)==0: print('ESCAPED')" $SPID`, true},
		{"setns into the pod's namespaces", `$PY -c "
import ctypes,os; l=ctypes.CDLL(None,use_errno=True)
fd=os.open('/proc/1/ns/mnt',os.O_RDONLY)
if l.setns(fd,0)==0: print('ESCAPED')"`, false},
		{"chroot", `chroot / true && echo ESCAPED`, true},
		{"pivot_root", `mkdir -p $PROJ/pr/old && pivot_root $PROJ/pr $PROJ/pr/old && echo ESCAPED`, false},
		{"mount a tmpfs", `mkdir -p $PROJ/m && mount -t tmpfs none $PROJ/m && echo ESCAPED`, false},
		{"bind-mount the home", `mkdir -p $PROJ/b && mount --bind $H $PROJ/b && echo ESCAPED`, false},
		{"remount / read-write", `mount -o remount,rw / && echo ESCAPED`, false},
		{"umount the hidden folder", `umount $H/.ssh && cat $H/.ssh/id_ed25519 && echo ESCAPED`, false},
		{"umount -l /tmp", `umount -l /tmp && echo ESCAPED`, false},
		{"umount /run", `umount -l /run && echo ESCAPED`, false},
		{"write uid_map", `echo "0 0 4294967295" > /proc/self/uid_map && echo ESCAPED`, false},
		{"move the project's mount", `mv "$PROJ" "$PROJ.moved" && echo ESCAPED`, false},
		// Privileges: setuid programs, capabilities.
		{"su to root gets capabilities", `su -s /bin/sh -c 'grep -q "^CapEff:[[:space:]]*0*$" /proc/self/status || echo ESCAPED' root`, true},
		{"CapEff", `grep -q "^CapEff:[[:space:]]*0*$" /proc/self/status || echo ESCAPED`, true},
		{"CapPrm", `grep -q "^CapPrm:[[:space:]]*0*$" /proc/self/status || echo ESCAPED`, true},
		{"CapBnd", `grep -q "^CapBnd:[[:space:]]*0*$" /proc/self/status || echo ESCAPED`, true},
		{"capsh --has-p", `capsh --has-p=cap_sys_admin 2>/dev/null && echo ESCAPED`, true},
		{"setuid programs run with their owner's rights", `grep -E "^[0-9]+ [0-9]+ [^ ]+ / / " /proc/self/mountinfo | grep -q nosuid || echo ESCAPED`, true},
		{"a setuid file made in the project", `cp /bin/true "$PROJ/suid" && chmod u+s "$PROJ/suid" && [ -u "$PROJ/suid" ] && echo ESCAPED`, true},
		{"mknod a disk", `mknod "$PROJ/sda" b 8 0 && echo ESCAPED`, true},
		{"chown to another user", `touch "$PROJ/o" && chown 1234 "$PROJ/o" && echo ESCAPED`, true},
		{"change the hostname", `hostname pilot-escaped && echo ESCAPED`, false},
		{"set the clock", `date -s "$(date)" >/dev/null && echo ESCAPED`, false},
		// Devices, /sys, the kernel.
		{"/dev/mem", `head -c1 /dev/mem >/dev/null && echo ESCAPED`, false},
		{"a disk device", `ls /dev/sd? /dev/vd? /dev/nvme?n? 2>/dev/null | grep -q . && echo ESCAPED`, false},
		{"/dev/kmsg", `head -c1 /dev/kmsg >/dev/null && echo ESCAPED`, false},
		{"sysrq-trigger", `echo h > /proc/sysrq-trigger && echo ESCAPED`, false},
		{"a host-wide sysctl (same value)", `v=$(cat /proc/sys/vm/swappiness) && echo $v > /proc/sys/vm/swappiness && echo ESCAPED`, true},
		{"sysctl -w a host-wide one (same value)", `sysctl -qw vm.overcommit_ratio="$(cat /proc/sys/vm/overcommit_ratio)" && echo ESCAPED`, true},
		{"/sys write (same value)", `f=/sys/kernel/mm/transparent_hugepage/enabled; v=$(grep -o '\[[a-z]*\]' $f | tr -d '[]') && echo $v > $f && echo ESCAPED`, true},
		{"cgroup.procs", `echo $$ > /sys/fs/cgroup/cgroup.procs && echo ESCAPED`, false},
		// EPERM, or ENOSYS on a kernel without modules (so no control).
		{"load a kernel module", `$PY -c "
import ctypes; l=ctypes.CDLL(None,use_errno=True)
l.syscall(175,None,0,b'')
if ctypes.get_errno() not in (1,38): print('ESCAPED')"`, false},
		{"modprobe", `modprobe -q dummy && echo ESCAPED`, false},
		{"perf_event_open on every process", `$PY -c "
import ctypes; l=ctypes.CDLL(None,use_errno=True)
a=(ctypes.c_ubyte*128)(); a[0]=1; a[4]=128
if l.syscall(298,a,-1,0,-1,0)>=0: print('ESCAPED')"`, true},
		{"bpf: load a kprobe program", `$PY -c "
import ctypes,struct; l=ctypes.CDLL(None,use_errno=True)
ins=(ctypes.c_ubyte*16)(*struct.pack('<BBhiBBhi',0xb7,0,0,0,0x95,0,0,0))
lic=ctypes.c_char_p(b'GPL')
a=(ctypes.c_ubyte*128)(); struct.pack_into('<IIQQ',a,0,2,2,ctypes.addressof(ins),ctypes.cast(lic,ctypes.c_void_p).value)
if l.syscall(321,5,a,128)>=0: print('ESCAPED')"`, true},
		{"the kernel keyring of the user", `$PY -c "
import ctypes,sys; l=ctypes.CDLL(None,use_errno=True)
if l.syscall(250,10,-4,b'user',sys.argv[1].encode(),0)>0: print('ESCAPED')" $KEYDESC`, true},
		{"TIOCSTI", `$PY -c "
import fcntl,termios; fcntl.ioctl(0,termios.TIOCSTI,b'x'); print('ESCAPED')"`, false},
		{"a controlling terminal", `exec 3</dev/tty && echo ESCAPED`, false},
		// Network: the host, its sockets, the proxy.
		{"TCP to the host's loopback", `exec 3<>/dev/tcp/127.0.0.1/$PORT && echo ESCAPED`, true},
		{"TCP to localhost", `exec 3<>/dev/tcp/localhost/$PORT && echo ESCAPED`, true},
		{"TCP to the host's address", `[ -n "$HOSTIP" ] && exec 3<>/dev/tcp/$HOSTIP/$PORT2 && echo ESCAPED`, true},
		{"python connects to the host", `$PY -c "
import socket,sys; socket.create_connection(('127.0.0.1',int(sys.argv[1])),2); print('ESCAPED')" $PORT`, true},
		// curl's 52/56/28: it connected (the listener closes or stays
		// silent); 7: it could not.
		{"curl to the host", `curl -s -m 2 http://127.0.0.1:$PORT/ >/dev/null; case $? in 28|52|56) echo ESCAPED;; esac`, true},
		{"no proxy variables, then the host", `unset HTTP_PROXY HTTPS_PROXY http_proxy https_proxy; curl -s -m 2 http://127.0.0.1:$PORT/ >/dev/null; case $? in 28|52|56) echo ESCAPED;; esac`, true},
		{"the proxy variable pointed at the host", `http_proxy=http://127.0.0.1:$PORT curl -s -m 2 http://example.com/ >/dev/null; case $? in 28|52|56) echo ESCAPED;; esac`, true},
		{"--noproxy to the host's address", `[ -n "$HOSTIP" ] && { curl --noproxy '*' -s -m 2 http://$HOSTIP:$PORT2/ >/dev/null; case $? in 28|52|56) echo ESCAPED;; esac; }`, true},
		{"UDP to the host", `$PY -c "
import socket,sys; s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM); s.sendto(b'x',('127.0.0.1',int(sys.argv[1]))); s.settimeout(2); s.recv(10); print('ESCAPED')" $UPORT`, true},
		{"only the loopback interface", `ip -o link | grep -v ': lo:' | grep -q . && echo ESCAPED`, true},
		{"add a network interface", `ip link add pilot0 type dummy && echo ESCAPED`, false},
		{"a raw socket", `$PY -c "
import socket; socket.socket(socket.AF_INET,socket.SOCK_RAW,socket.IPPROTO_ICMP); print('ESCAPED')"`, true},
		{"an abstract unix socket of the host", `$PY -c "
import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect('\0'+sys.argv[1]); print('ESCAPED')" $ABS`, true},
		{"the X11 socket", `$PY -c "
import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print('ESCAPED')" $X11`, true},
		{"the D-Bus session bus", `$PY -c "
import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print('ESCAPED')" $BUS`, true},
		{"the D-Bus system bus", `$PY -c "
import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print('ESCAPED')" $SYSBUS`, true},
		{"docker.sock through /var/run", `$PY -c "
import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print('ESCAPED')" $DOCKER`, true},
		{"XDG_RUNTIME_DIR listing", `ls /run/user/ 2>/dev/null | grep -q . && echo ESCAPED; ls $(dirname $BUS) 2>/dev/null | grep -q . && echo ESCAPED`, true},
		// Pilot itself, the pod's own files, links out of the project.
		{"write the pilot binary in the pod", `echo x >> /run/pilot/pod && echo ESCAPED`, false},
		{"write the pilot binary at its path", `echo x >> "$EXE" && echo ESCAPED`, false},
		{"replace the pilot binary", `cp /bin/true /run/pilot/pod && echo ESCAPED`, false},
		{"write in the proxy's folder", `touch /run/pilot/net/x && echo ESCAPED`, false},
		{"remove the proxy's socket", `rm /run/pilot/net/proxy.sock && echo ESCAPED`, false},
		{"a symlink in the project out to a folder", `ln -sfn "$OUT" "$PROJ/out" && touch "$PROJ/out/y" && echo ESCAPED`, true},
		{"a hard link to a file outside", `ln "$H/.bashrc" "$PROJ/hard" && echo owned >> "$PROJ/hard" && echo ESCAPED`, true},
		{"cd .. out of the project and write", `cd "$PROJ/.." && touch pilot-up-$RAND && echo ESCAPED`, true},
		{".. through the project's mount to the home", `cat "$PROJ/../$HOMEREL/.ssh/id_ed25519" && echo ESCAPED`, true},
		{"/proc/self/cwd/.. write", `cd "$PROJ" && touch /proc/self/cwd/../pilot-cwd-$RAND && echo ESCAPED`, true},
		{"TMPDIR/.. write", `touch "$TMPDIR/../pilot-tmp-$RAND" && echo ESCAPED`, false},
		{"/dev/shm reaches the host's", `echo x > /dev/shm/pilot-shm-$RAND; [ -e /proc/$HPID ] && echo ESCAPED; true`, false},
	}...)
}

// TestEscapeCorpus tries each attempt inside a pod (with a proxy, as a
// session with network has) and checks it failed: no ESCAPED, no canary
// in the output, nothing written outside, no connection to the host's
// listeners, the process outside alive. Then the control: the attempts
// marked safe, run outside the sandbox, must succeed.
func TestEscapeCorpus(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	as := corpus()
	if len(as) < 100 {
		t.Fatalf("the corpus has %d attempts, fewer than 100", len(as))
	}
	v := newEscapeVars(t)
	s := NewSession(Policy{Project: v.proj, Home: v.home, PilotHome: v.ph, Hidden: []string{"~/notes"}, Proxy: v.proxy})
	defer s.Close()
	before := v.snapshot()
	for _, a := range as {
		out, _ := run(t, s, v.proj, v.env(), a.script)
		if strings.Contains(out, "ESCAPED") || strings.Contains(out, v.canary) {
			t.Errorf("escaped from the sandbox: %s:\n%s", a.name, out)
		}
	}
	if after := v.snapshot(); after != before {
		t.Errorf("the host changed under the sandbox:\nbefore %s\nafter  %s", before, after)
	}
	v.noConnections(t)
	if err := syscall.Kill(v.sleep.Process.Pid, 0); err != nil {
		t.Errorf("the process outside is gone: %v", err)
	}
	if st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", v.sleep.Process.Pid)); strings.Contains(string(st), ") T ") || strings.Contains(string(st), ") Z ") {
		t.Errorf("the process outside was stopped or killed: %s", st)
	}

	// The control: outside, the safe attempts work.
	worked := 0
	for _, a := range as {
		if !a.control {
			continue
		}
		cmd := exec.Command("bash", "-c", a.script)
		cmd.Dir, cmd.Env = v.proj, v.env()
		out, _ := cmd.CombinedOutput()
		if !strings.Contains(string(out), "ESCAPED") {
			if os.Getuid() != 0 { // the controls that need root's rights prove nothing for a user, in or out
				t.Logf("control: %q needs root's rights outside the sandbox too (run as uid %d)", a.name, os.Getuid())
				continue
			}
			t.Errorf("control: %q did not work outside the sandbox either, so it proves nothing:\n%s", a.name, out)
			continue
		}
		worked++
	}
	t.Logf("%d attempts failed in the sandbox; %d of them were shown to work outside it", len(as), worked)
}

// escapeVars are the host things the attempts aim at.
type escapeVars struct {
	t                                  *testing.T
	proj, home, ph, out, tout, canary  string
	rand, py, x11, bus, sysbus, docker string
	abs, keyDesc, hostIP               string
	ln, ln2                            net.Listener
	udp                                net.PacketConn
	sleep                              *exec.Cmd
	proxy                              func(ctx context.Context, c net.Conn)
}

func newEscapeVars(t *testing.T) *escapeVars {
	base := t.TempDir()
	v := &escapeVars{t: t, proj: filepath.Join(base, "proj"), home: filepath.Join(base, "home"), ph: t.TempDir(), tout: t.TempDir()}
	v.rand = fmt.Sprint(time.Now().UnixNano())
	v.canary = "canary-" + v.rand
	for _, d := range []string{v.proj, v.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A folder outside the project that is not under a folder the pod
	// replaces (those are hidden whole): next to the test's sources.
	wd, _ := os.Getwd()
	out, err := os.MkdirTemp(wd, "escape-out-")
	if err != nil {
		t.Fatal(err)
	}
	v.out = out
	t.Cleanup(func() { os.RemoveAll(out) })
	for _, s := range secrets {
		p := v.expand(s)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(v.canary), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(v.home, ".bashrc"), []byte("# the user's\n"), 0o644)
	v.py = realPython(t)
	for _, w := range writeTargets {
		for _, suf := range []string{"", ".t", ".p"} {
			p := v.expand(w) + suf
			if !strings.HasPrefix(p, base) && !strings.HasPrefix(p, v.ph) && !strings.HasPrefix(p, v.out) && !strings.HasPrefix(p, v.tout) {
				t.Cleanup(func() { os.Remove(p) })
			}
		}
	}
	for _, pat := range []string{"pilot-up-", "pilot-cwd-", "pilot-tmp-"} {
		p := filepath.Join(filepath.Dir(v.proj), pat+v.rand)
		t.Cleanup(func() { os.Remove(p) })
	}
	if v.ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.ln.Close() })
	v.hostIP = hostIP()
	if v.hostIP != "" {
		if v.ln2, err = net.Listen("tcp", v.hostIP+":0"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { v.ln2.Close() })
	}
	if v.udp, err = net.ListenPacket("udp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.udp.Close() })
	go func() { // answer, so that the control sees its datagram arrive
		b := make([]byte, 16)
		for {
			_, from, err := v.udp.ReadFrom(b)
			if err != nil {
				return
			}
			v.udp.WriteTo([]byte("pong"), from)
		}
	}()
	v.abs = "pilot-test-" + v.rand
	v.x11 = v.listenUnix(filepath.Join("/tmp/.X11-unix", "X7"+v.rand[len(v.rand)-5:]))
	runDir := filepath.Join("/run", "pilot-test-"+v.rand)
	v.docker = filepath.Join("/var/run", "pilot-test-"+v.rand, "docker.sock")
	if syscall.Access("/run", 2 /* W_OK */) != nil {
		// A user who cannot write /run (the corpus run as non-root): the
		// sockets stand in the system's temporary folder, hidden too.
		runDir = filepath.Join(os.TempDir(), "pilot-test-run-"+v.rand)
		v.docker = filepath.Join(runDir, "docker.sock")
	}
	for _, sock := range homeSockets {
		v.listenUnixHTTP(v.expand(sock))
	}
	v.bus = v.listenUnix(filepath.Join(runDir, "user", "bus"))
	v.sysbus = v.listenUnix(filepath.Join(runDir, "dbus", "system_bus_socket"))
	v.listenUnix(filepath.Join(runDir, "docker.sock"))
	t.Cleanup(func() { os.RemoveAll(runDir) })
	if l, err := net.Listen("unix", "@"+v.abs); err == nil {
		t.Cleanup(func() { l.Close() })
		go acceptAll(l)
	} else {
		t.Fatal(err)
	}
	v.keyDesc = "pilot-test-" + v.rand
	v.addUserKey(t)
	v.sleep = exec.Command("sleep", "3600")
	if err := v.sleep.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { _ = v.sleep.Wait(); close(waited) }()
	t.Cleanup(func() { _ = v.sleep.Process.Kill(); <-waited })
	v.proxy = func(ctx context.Context, c net.Conn) { c.Close() }
	return v
}

func acceptAll(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		c.Close()
	}
}

// listenUnix listens on a unix socket at p (its folder made, and removed
// at the end when the test made it).
func (v *escapeVars) listenUnix(p string) string {
	dir := filepath.Dir(p)
	if _, err := os.Stat(dir); err != nil {
		if err := os.MkdirAll(dir, 0o1777); err != nil {
			v.t.Fatal(err)
		}
		v.t.Cleanup(func() { os.Remove(dir) })
	}
	l, err := net.Listen("unix", p)
	if err != nil {
		v.t.Fatal(err)
	}
	v.t.Cleanup(func() { l.Close() })
	go acceptAll(l)
	return p
}

// listenUnixHTTP listens on a unix socket at p and answers every
// connection with one HTTP response saying pilot-sock-answer.
func (v *escapeVars) listenUnixHTTP(p string) {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		v.t.Fatal(err)
	}
	l, err := net.Listen("unix", p)
	if err != nil {
		v.t.Fatal(err)
	}
	v.t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_ = c.SetDeadline(time.Now().Add(5 * time.Second))
				_, _ = bufio.NewReader(c).ReadString('\n')
				_, _ = io.WriteString(c, "HTTP/1.0 200 OK\r\nContent-Length: 17\r\n\r\npilot-sock-answer")
			}()
		}
	}()
}

// addUserKey adds a key to the user keyring of the host (removed at the end).
func (v *escapeVars) addUserKey(t *testing.T) {
	typ, _ := syscall.BytePtrFromString("user")
	desc, _ := syscall.BytePtrFromString(v.keyDesc)
	payload := []byte(v.canary)
	keySpecUserKeyring := -4
	ring := uintptr(keySpecUserKeyring)
	id, _, errno := syscall.Syscall6(syscall.SYS_ADD_KEY, uintptr(unsafe.Pointer(typ)), uintptr(unsafe.Pointer(desc)),
		uintptr(unsafe.Pointer(&payload[0])), uintptr(len(payload)), ring, 0)
	if errno != 0 {
		t.Fatalf("add_key: %v", errno)
	}
	t.Cleanup(func() {
		const keyctlRevoke, keyctlUnlink = 3, 9
		syscall.Syscall(syscall.SYS_KEYCTL, keyctlUnlink, id, ring)
		syscall.Syscall(syscall.SYS_KEYCTL, keyctlRevoke, id, 0)
	})
}

func (v *escapeVars) expand(s string) string {
	r := strings.NewReplacer("$H", v.home, "$PH", v.ph, "$OUT", v.out, "$TOUT", v.tout, "$RAND", v.rand, "$PROJ", v.proj)
	return filepath.Clean(r.Replace(s))
}

func (v *escapeVars) env() []string {
	rel, _ := filepath.Rel(filepath.Dir(v.proj), v.home)
	exe, _ := os.Executable()
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + v.home, "LANG=C", "H=" + v.home, "PH=" + v.ph, "OUT=" + v.out, "TOUT=" + v.tout,
		"RAND=" + v.rand, "PROJ=" + v.proj, "PY=" + v.py, "HPID=" + fmt.Sprint(os.Getpid()), "SPID=" + fmt.Sprint(v.sleep.Process.Pid),
		"PORT=" + fmt.Sprint(v.ln.Addr().(*net.TCPAddr).Port), "PORT2=" + port(v.ln2), "UPORT=" + fmt.Sprint(v.udp.LocalAddr().(*net.UDPAddr).Port),
		"HOSTIP=" + v.hostIP, "X11=" + v.x11, "BUS=" + v.bus, "SYSBUS=" + v.sysbus, "DOCKER=" + v.docker, "ABS=" + v.abs,
		"KEYDESC=" + v.keyDesc, "EXE=" + exe, "HOMEREL=" + rel,
	}
}

func port(l net.Listener) string {
	if l == nil {
		return "0"
	}
	return fmt.Sprint(l.Addr().(*net.TCPAddr).Port)
}

// snapshot describes what the attempts could change on the host: the
// write targets and the folders around the project.
func (v *escapeVars) snapshot() string {
	var b strings.Builder
	for _, w := range writeTargets {
		for _, suf := range []string{"", ".t", ".p"} {
			p := v.expand(w) + suf
			c, err := os.ReadFile(p)
			fmt.Fprintf(&b, "%s=%q/%v ", p, c, err != nil)
		}
	}
	for _, d := range []string{filepath.Dir(v.proj), v.out, v.tout, v.ph} {
		ents, _ := os.ReadDir(d)
		fmt.Fprintf(&b, "%s:%d ", d, len(ents))
	}
	_, err := os.Stat("/dev/shm/pilot-shm-" + v.rand) // the host's /dev/shm is shared: only this name
	fmt.Fprintf(&b, "shm:%v", err == nil)
	return b.String()
}

// noConnections fails when a host listener got a connection.
func (v *escapeVars) noConnections(t *testing.T) {
	for _, l := range []net.Listener{v.ln, v.ln2} {
		if l == nil {
			continue
		}
		_ = l.(*net.TCPListener).SetDeadline(time.Now())
		if c, err := l.Accept(); err == nil {
			c.Close()
			t.Errorf("the host's listener %s got a connection from the sandbox", l.Addr())
		}
		_ = l.(*net.TCPListener).SetDeadline(time.Time{})
	}
	go acceptAll(v.ln) // the control's connections
	if v.ln2 != nil {
		go acceptAll(v.ln2)
	}
}

// hostIP is a non-loopback IPv4 address of the host ("": none).
func hostIP() string {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			return n.IP.String()
		}
	}
	return ""
}

// realPython is python3's real executable (not a shim that reads $HOME).
func realPython(t *testing.T) string {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Skip("python3 is needed by the escape corpus")
	}
	return strings.TrimSpace(string(out))
}
