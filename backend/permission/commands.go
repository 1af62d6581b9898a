package permission

import (
	"path"
	"strings"
)

// command looks at a command's name: wrappers, shells and eval.
func (w *walker) command(ws []word) {
	cw := ws[0]
	if !cw.literal {
		w.a.setOpaque("its command name comes from " + cw.raw + ", known only when it runs")
		return
	}
	if cw.glob {
		w.a.setOpaque("its command name " + cw.raw + " is a pattern the shell expands")
		return
	}
	if cw.value == "" {
		return
	}
	name := path.Base(cw.value)
	if skip, ok := wrappers[name]; ok {
		if i := skip(ws); i < len(ws) {
			w.inner(ws[i:])
		} else if i > len(ws) {
			w.a.setOpaque(name + " starts a shell that reads its commands from its input")
		}
		return
	}
	if shells[name] {
		w.shell(name, ws)
		return
	}
	switch name {
	case "eval":
		w.code("eval builds its command when it runs", ws[1:])
	case "source", ".":
		if len(ws) > 1 && !ws[1].literal {
			w.a.setOpaque(name + " reads code from " + ws[1].raw + ", a file named only when it runs")
		} else if len(ws) > 1 && isStream(ws[1].value) {
			w.a.setOpaque(name + " reads code from " + ws[1].value + ", a stream")
		}
	case "trap":
		w.trap(ws[1:])
	case "alias":
		for _, a := range ws[1:] {
			if !a.literal {
				w.a.setOpaque("alias defines a command from " + a.raw + ", known only when it runs")
			} else if _, def, ok := strings.Cut(a.value, "="); ok {
				w.a.setDynamic("alias defines code to run later")
				w.a.parse(def, w.depth+1)
			}
		}
	case "watch":
		i := skipOpts(ws, 1, "ndgqc", "interval", "differences", "equexit")
		w.code("watch runs its command through sh -c", ws[i:])
	case "su", "runuser", "script":
		w.dashC(name, ws)
	case "find":
		w.find(ws)
	case "busybox":
		if len(ws) > 1 && !strings.HasPrefix(ws[1].value, "-") {
			w.inner(ws[1:])
		}
	case "test", "[", "let", "declare", "typeset", "local", "export", "readonly", "printf", "read", "unset", "mapfile", "readarray", "wait":
		for _, a := range ws[1:] {
			if a.literal && hidesCode(a.value) && strings.Contains(a.value, "[") {
				w.a.setOpaque(name + " evaluates a string that holds a command (" + a.raw + ")")
			}
		}
	}
}

// code judges words that are joined and run as shell code.
func (w *walker) code(why string, ws []word) {
	w.a.setDynamic(why)
	vals := make([]string, 0, len(ws))
	for _, a := range ws {
		if !a.literal {
			w.a.setOpaque(why + ", from " + a.raw + ", known only when it runs")
			return
		}
		vals = append(vals, a.value)
	}
	w.a.parse(strings.Join(vals, " "), w.depth+1)
}

// shell judges sh, bash and their kin: -c runs a string, and without a
// script the shell reads its commands from its input.
func (w *walker) shell(name string, ws []word) {
	hasC, stdin, opts := false, false, true
	for i := 1; i < len(ws); i++ {
		a := ws[i]
		if !a.literal {
			w.a.setOpaque(name + " runs " + a.raw + ", known only when it runs")
			return
		}
		v := a.value
		if opts {
			switch {
			case v == "--" || v == "-":
				opts = false
				continue
			case strings.HasPrefix(v, "--"):
				if v == "--rcfile" || v == "--init-file" {
					i++
				}
				continue
			case len(v) > 1 && (v[0] == '-' || v[0] == '+'):
				if v[0] == '-' && strings.Contains(v, "c") {
					hasC = true
				}
				if v[0] == '-' && strings.Contains(v[1:], "s") {
					stdin = true
				}
				if strings.ContainsAny(v[1:], "oO") {
					i++
				}
				continue
			}
		}
		if hasC {
			w.code(name+" -c runs a string as code", ws[i:i+1])
			return
		}
		if isStream(v) {
			w.a.setOpaque(name + " reads its commands from " + v + ", a stream")
			return
		}
		if !stdin {
			return // a script file: judged as the command it is
		}
		break
	}
	if !hasC {
		w.a.setOpaque(name + " reads its commands from its input")
	}
}

// dashC judges su, runuser and script, which run the string after -c.
func (w *walker) dashC(name string, ws []word) {
	for i := 1; i < len(ws); i++ {
		v := ws[i].value
		if v == "-c" || v == "--command" {
			w.code(name+" -c runs a string as code", ws[i+1:min(i+2, len(ws))])
			return
		}
		if s, ok := strings.CutPrefix(v, "--command="); ok {
			w.a.setDynamic(name + " -c runs a string as code")
			w.a.parse(s, w.depth+1)
			return
		}
	}
	if name != "script" {
		w.a.setOpaque(name + " starts a shell that reads its commands from its input")
	}
}

// trap judges the code a trap runs later.
func (w *walker) trap(ws []word) {
	i := skipOpts(ws, 0, "")
	if i >= len(ws) || len(ws)-i < 2 {
		return
	}
	if !ws[i].literal {
		w.a.setOpaque("trap runs " + ws[i].raw + ", known only when it runs")
		return
	}
	if v := ws[i].value; v != "" && v != "-" {
		w.a.setDynamic("trap sets code to run later")
		w.a.parse(v, w.depth+1)
	}
}

// find judges the commands of -exec, -execdir, -ok and -okdir.
func (w *walker) find(ws []word) {
	for i := 1; i < len(ws); i++ {
		switch ws[i].value {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(ws) && ws[j].value != ";" && ws[j].value != "+" {
				j++
			}
			w.inner(ws[i+1 : j])
			i = j
		}
	}
}
