package permission

import "strings"

// A wrapper runs the command that follows its own options. Each entry
// returns the index of that command in the words (len(ws) when there is
// none, more than len(ws) when the wrapper then starts a shell that reads
// its commands from its input). A command name is looked up without its
// folder, so /usr/bin/env is env.
var wrappers = map[string]func(ws []word) int{
	"command": func(ws []word) int {
		i := skipOpts(ws, 1, "")
		for _, a := range ws[1:i] {
			if strings.ContainsAny(a.value, "vV") {
				return len(ws) // command -v only looks the name up
			}
		}
		return i
	},
	"builtin": func(ws []word) int { return skipOpts(ws, 1, "") },
	"exec":    func(ws []word) int { return skipOpts(ws, 1, "a") },
	"nohup":   func(ws []word) int { return skipOpts(ws, 1, "") },
	"setsid":  func(ws []word) int { return skipOpts(ws, 1, "") },
	"nice":    func(ws []word) int { return skipOpts(ws, 1, "n", "adjustment") },
	"ionice":  func(ws []word) int { return skipOpts(ws, 1, "cnp", "class", "classdata", "pid") },
	"time":    func(ws []word) int { return skipOpts(ws, 1, "fo", "format", "output") },
	"stdbuf":  func(ws []word) int { return skipOpts(ws, 1, "ioe", "input", "output", "error") },
	"timeout": func(ws []word) int {
		return min(skipOpts(ws, 1, "sk", "signal", "kill-after")+1, len(ws)) // after the duration
	},
	"xargs": func(ws []word) int {
		return skipOpts(ws, 1, "aEdILnPs", "arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var")
	},
	"env": func(ws []word) int {
		i := skipOpts(ws, 1, "uCS", "unset", "chdir", "split-string")
		for _, a := range ws[1:i] {
			if strings.HasPrefix(a.value, "-S") || strings.HasPrefix(a.value, "--split-string") ||
				(strings.HasPrefix(a.value, "-") && !strings.HasPrefix(a.value, "--") && strings.Contains(a.value, "S")) {
				return len(ws) + 1 // env -S splits a string into a command
			}
		}
		return skipAssigns(ws, i)
	},
	"sudo": func(ws []word) int {
		i := skipOpts(ws, 1, "ugpCDrtUTRh", "user", "group", "prompt", "close-from", "chdir", "role", "type", "other-user", "command-timeout", "host", "chroot")
		for _, a := range ws[1:i] {
			if v := a.value; strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v[1:], "e") {
				return len(ws) // sudo -e edits files and runs nothing
			}
		}
		if i = skipAssigns(ws, i); i == len(ws) && shellFlag(ws[1:], "is") {
			return len(ws) + 1
		}
		return i
	},
	"doas": func(ws []word) int {
		i := skipOpts(ws, 1, "aCu")
		if i == len(ws) && shellFlag(ws[1:], "s") {
			return len(ws) + 1
		}
		return i
	},
}

// shells run code of their own: a -c string or their input.
var shells = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true,
	"yash": true, "posh": true, "fish": true, "csh": true, "tcsh": true, "rbash": true,
}

// skipOpts returns the index of the first word from i on that is not an
// option: short lists the one-letter options that take a value (attached
// or the next word), long the long ones (--name value; --name=value is
// always one word). "--" ends the options; a word that is not literal
// ends them too, so that it is judged as the command.
func skipOpts(ws []word, i int, short string, long ...string) (next int) {
	defer func() { next = min(next, len(ws)) }() // a value the words lack
	for i < len(ws) {
		a := ws[i]
		v := a.value
		if !a.literal || len(v) < 2 || v[0] != '-' {
			return i
		}
		i++
		if v == "--" {
			return i
		}
		if name, ok := strings.CutPrefix(v, "--"); ok {
			if !strings.Contains(name, "=") && contains(long, name) {
				i++
			}
			continue
		}
		for k := 1; k < len(v); k++ {
			if strings.IndexByte(short, v[k]) >= 0 {
				if k == len(v)-1 {
					i++ // the value is the next word
				}
				break
			}
		}
	}
	return i
}

// skipAssigns skips NAME=value words (env and sudo set them).
func skipAssigns(ws []word, i int) int {
	for i < len(ws) && ws[i].literal && isAssign(ws[i].value) {
		i++
	}
	return i
}

func isAssign(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for k, c := range name {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (k == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// shellFlag reports a short option among flags in the options before a
// missing command (sudo -s, sudo -i, doas -s start a shell).
func shellFlag(ws []word, flags string) bool {
	for _, a := range ws {
		if v := a.value; strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v[1:], flags) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
