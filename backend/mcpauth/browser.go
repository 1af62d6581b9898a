package mcpauth

import (
	"fmt"
	"os/exec"
	"strings"
)

// Browser is the command that opens u: the first entry of $BROWSER (a
// list separated by ':', as xdg-open reads it; "%s" in an entry stands
// for the address, else the address comes last), else xdg-open. The
// command runs without a shell.
func Browser(u string, getenv func(string) string) (*exec.Cmd, error) {
	for _, entry := range strings.Split(getenv("BROWSER"), ":") {
		f := strings.Fields(entry)
		if len(f) == 0 {
			continue
		}
		if strings.Contains(entry, "%s") {
			for i := range f {
				f[i] = strings.ReplaceAll(f[i], "%s", u)
			}
		} else {
			f = append(f, u)
		}
		return exec.Command(f[0], f[1:]...), nil
	}
	path, err := exec.LookPath("xdg-open")
	if err != nil {
		return nil, fmt.Errorf("no browser to open: set $BROWSER or install xdg-open, or open the address yourself")
	}
	return exec.Command(path, u), nil
}
