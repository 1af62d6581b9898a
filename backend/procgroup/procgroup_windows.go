package procgroup

import (
	"fmt"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Group is a command with everything it starts: its Job Object. The
// command starts suspended, joins the job, and only then runs, so nothing
// it starts can leave before the job holds it.
type Group struct {
	cmd  *exec.Cmd
	dies bool // the job ends its processes when its last handle closes

	mu  sync.Mutex
	job windows.Handle // 0 until Start
}

func (g *Group) attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED}
}

// join makes the job, puts the suspended process in it and resumes it. A
// process that cannot join is killed: it would escape every kill.
func (g *Group) join() error {
	pid := uint32(g.cmd.Process.Pid)
	job, err := newJob(g.dies)
	if err == nil {
		err = assign(job, pid)
		if err == nil {
			err = resume(pid)
		}
		if err != nil {
			windows.CloseHandle(job)
		}
	}
	if err != nil {
		_ = g.cmd.Process.Kill()
		return fmt.Errorf("starting %s in a job of its own: %w", g.cmd.Path, err)
	}
	g.mu.Lock()
	g.job = job
	g.mu.Unlock()
	// The handle is closed with the Group; a job made to die with Pilot
	// kills what is left in it then.
	runtime.AddCleanup(g, func(h windows.Handle) { windows.CloseHandle(h) }, job)
	return nil
}

// Signal ends every process of the group: Windows has no signals, so any
// but 0 ends them, with the exit code a shell gives a killed command (128
// + the signal).
func (g *Group) Signal(sig syscall.Signal) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if sig != 0 && g.job != 0 {
		_ = windows.TerminateJobObject(g.job, 128+uint32(sig))
	}
}

func newJob(dies bool) (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil || !dies {
		return job, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation, uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}

func assign(job windows.Handle, pid uint32) error {
	p, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(p)
	return windows.AssignProcessToJobObject(job, p)
}

// resume resumes the threads of the process pid (a process started
// suspended has one).
func resume(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := false
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		t, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return err
		}
		_, err = windows.ResumeThread(t)
		windows.CloseHandle(t)
		if err != nil {
			return err
		}
		resumed = true
	}
	if !resumed {
		return fmt.Errorf("no thread of process %d to resume", pid)
	}
	return nil
}
