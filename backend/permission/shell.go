package permission

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// A command line is judged by its bash syntax tree, never by its
// characters: every simple command in it becomes a part, wherever it
// stands (lists, pipelines, subshells, braces, if/for/while/until/case
// bodies, function bodies, time and coproc, and command and process
// substitutions, also those inside parameter expansions, arithmetic,
// test clauses, assignments and here-documents). Wrappers are looked
// through: the command a wrapper runs is one more part.
//
// A line the parser cannot read, or one that builds code at run time,
// is marked dynamic: no allow rule lets it run. When the code it runs
// cannot be seen at all (a variable as the command name, eval of an
// expansion, a shell reading its commands from a pipe), it is also
// opaque: every deny rule on run_bash refuses it, since no rule can tell
// that it does not match.

// part is one simple command as rules judge it.
type part struct {
	text   string   // canonical: assignments, words, redirections
	plain  string   // canonical without redirections
	raw    string   // the source text
	deny   []string // what a deny rule is also matched against
	writes []string // the files it writes through redirections

	allowS, denyS []string // the above as patterns match them, once
}

// allowSubjects are what an allow rule is matched against.
func (p *part) allowSubjects() []string {
	if p.allowS == nil {
		forms := []string{p.text, p.raw}
		if len(p.writes) == 0 {
			forms = append(forms, p.plain)
		}
		p.allowS = subjects(forms)
	}
	return p.allowS
}

// denySubjects are what a deny rule is matched against.
func (p *part) denySubjects() []string {
	if p.denyS == nil {
		p.denyS = subjects(append([]string{p.text, p.raw}, p.deny...))
	}
	return p.denyS
}

// subjects makes distinct subjects of forms.
func subjects(forms []string) []string {
	out := make([]string, 0, len(forms))
	for _, f := range forms {
		if s := subject(f); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// allowForm is what an allow rule must match, and what "always allow"
// stores: a command that writes through a redirection keeps it.
func (p part) allowForm() string {
	if len(p.writes) > 0 || p.plain == "" {
		return p.text
	}
	return p.plain
}

// analysis is a parsed command line.
type analysis struct {
	parts   []part
	dynamic string // why no rule may allow the line; "" when one may
	opaque  string // why a deny rule cannot rule it out; "" when it can

	line string        // the whole line as a subject
	pats []*cmdPattern // the run_bash rules' patterns, by rule index (nil for others)
}

// compile makes the patterns of the rules about run_bash ready.
func (a *analysis) compile(rules []Rule) {
	a.pats = make([]*cmdPattern, len(rules))
	for i, r := range rules {
		if r.Tool == BashTool {
			a.pats[i] = compileCommand(r.Pattern)
		}
	}
}

func (a *analysis) setDynamic(why string) {
	if a.dynamic == "" {
		a.dynamic = why
	}
}

func (a *analysis) setOpaque(why string) {
	a.setDynamic(why)
	if a.opaque == "" {
		a.opaque = why
	}
}

// maxDepth bounds code nested in strings (sh -c 'eval "sh -c ..."').
const maxDepth = 5

var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// analyse parses a run_bash command line.
func analyse(cmd string) *analysis {
	a := &analysis{line: subject(cmd), parts: make([]part, 0, 8)}
	a.parse(cmd, 0)
	return a
}

func (a *analysis) parse(src string, depth int) {
	if depth > maxDepth {
		a.setOpaque("it nests code in strings too deeply to read")
		return
	}
	p := parsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(src), "")
	parsers.Put(p)
	if err != nil {
		a.setOpaque("the shell parser cannot read it (" + err.Error() + ")")
		return
	}
	w := &walker{a: a, src: src, depth: depth}
	syntax.Walk(f, w.visit)
}

// walker collects the parts of one parsed source.
type walker struct {
	a     *analysis
	src   string
	depth int
}

func (w *walker) slice(n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(w.src) || s > e {
		return ""
	}
	return w.src[s:e]
}

func (w *walker) visit(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Stmt:
		w.stmt(n)
	case *syntax.ArithmExp:
		w.evaluated(n)
	case *syntax.ArithmCmd:
		w.evaluated(n)
	case *syntax.LetClause:
		w.evaluated(n)
	case *syntax.TestClause:
		w.evaluated(n)
	case *syntax.ParamExp:
		if n.Index != nil {
			w.evaluated(n.Index)
		}
	}
	return true
}

// evaluated refuses a quoted string holding a command substitution in
// arithmetic or a test clause: bash evaluates such a string's array
// subscript, and so runs the command in it ([[ 'a[$(cmd)]' -eq 1 ]]).
func (w *walker) evaluated(n syntax.Node) {
	syntax.Walk(n, func(m syntax.Node) bool {
		var v string
		switch m := m.(type) {
		case *syntax.SglQuoted:
			v = m.Value
		case *syntax.Lit:
			v = m.Value
		}
		if hidesCode(v) {
			w.a.setOpaque("it hands arithmetic a string that holds a command (" + v + ")")
		}
		return true
	})
}

// isStream reports a file name that is a stream, not a script on disk.
func isStream(name string) bool {
	return strings.HasPrefix(name, "/dev/") || strings.HasPrefix(name, "/proc/")
}

func hidesCode(v string) bool { return strings.Contains(v, "$(") || strings.Contains(v, "`") }

// stmt records the simple command of a statement, or refuses rules for a
// compound command that writes through a redirection.
func (w *walker) stmt(s *syntax.Stmt) {
	rd := w.redirs(s.Redirs)
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		w.call(c, rd)
	case *syntax.DeclClause:
		raw := w.slice(c)
		w.add(part{text: joinNonEmpty(raw, rd.text), plain: raw, raw: w.slice(s), deny: []string{raw}, writes: rd.writes})
		for _, as := range c.Args {
			if as.Value != nil && hidesCode(w.word(as.Value).value) && strings.Contains(w.word(as.Value).value, "[") {
				w.a.setOpaque("it assigns a string that holds a command to be evaluated (" + w.slice(as) + ")")
			}
		}
	case *syntax.LetClause:
		raw := w.slice(c)
		w.add(part{text: joinNonEmpty(raw, rd.text), plain: raw, raw: w.slice(s), deny: []string{raw}, writes: rd.writes})
	case nil:
		if rd.text != "" {
			w.add(part{text: rd.text, raw: w.slice(s), deny: []string{rd.text}, writes: rd.writes})
		}
	default:
		if len(rd.writes) > 0 {
			w.a.setDynamic("it writes to " + rd.writes[0] + " through a redirection on a compound command")
		}
	}
}

// redirections is the canonical text of a statement's redirections and
// the files they write.
type redirections struct {
	text   string
	writes []string
}

// harmless are files a redirection may write without being judged.
var harmless = map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true}

func (w *walker) redirs(rs []*syntax.Redirect) redirections {
	var out redirections
	var texts []string
	for _, r := range rs {
		op := r.Op.String()
		n := ""
		if r.N != nil {
			n = r.N.Value
		}
		var target word
		if r.Word != nil {
			target = w.word(r.Word)
		}
		sep := " "
		if r.Op == syntax.DplIn || r.Op == syntax.DplOut {
			sep = ""
		}
		texts = append(texts, n+op+sep+target.canon)
		if !writes(r.Op, target) {
			continue
		}
		if !target.literal {
			w.a.setDynamic("it writes through a redirection to " + target.raw + ", a name known only when it runs")
			out.writes = append(out.writes, target.raw)
			continue
		}
		if !harmless[target.value] {
			out.writes = append(out.writes, target.value)
		}
	}
	out.text = strings.Join(texts, " ")
	return out
}

// writes reports whether a redirection opens a file for writing; a
// duplication of a descriptor (2>&1, >&-) writes none.
func writes(op syntax.RedirOperator, target word) bool {
	switch op {
	case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrInOut, syntax.RdrAll, syntax.AppAll,
		syntax.RdrAllClob, syntax.AppAllClob, syntax.AppClob:
		return true
	case syntax.DplOut:
		return !target.literal || (target.value != "-" && strings.Trim(target.value, "0123456789-") != "")
	}
	return false
}

// call records a simple command and the commands it runs.
func (w *walker) call(c *syntax.CallExpr, rd redirections) {
	var assigns []string
	for _, as := range c.Assigns {
		assigns = append(assigns, w.slice(as))
	}
	ws := make([]word, len(c.Args))
	for i, a := range c.Args {
		ws[i] = w.word(a)
	}
	prefix := strings.Join(assigns, " ")
	plain := joinNonEmpty(prefix, canonOf(ws))
	p := part{
		text:   joinNonEmpty(plain, rd.text),
		plain:  plain,
		raw:    w.spanOf(c, rd),
		writes: rd.writes,
	}
	p.deny = denyForms(ws)
	if len(ws) == 0 {
		p.deny = []string{plain}
	}
	w.add(p)
	if len(ws) > 0 {
		w.command(ws)
	}
}

// spanOf is the source text of a call with its redirections.
func (w *walker) spanOf(c *syntax.CallExpr, rd redirections) string {
	raw := w.slice(c)
	if rd.text == "" {
		return raw
	}
	return raw + " " + rd.text
}

// inner records the command a wrapper runs.
func (w *walker) inner(ws []word) {
	if len(ws) == 0 {
		return
	}
	c := canonOf(ws)
	w.add(part{text: c, plain: c, raw: rawOf(ws), deny: denyForms(ws)})
	w.command(ws)
}

func (w *walker) add(p part) {
	if p.text != "" {
		w.a.parts = append(w.a.parts, p)
	}
}

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

// denyForms are the renderings of a command a deny rule is matched
// against besides its text: the unquoted words, and the same with the
// command's leading folder taken off and its name in lower case (/bin/rm
// and, on a case-insensitive disk, RM are rm).
func denyForms(ws []word) []string {
	vals := make([]string, len(ws))
	for i, a := range ws {
		vals[i] = a.value
		if !a.literal {
			vals[i] = a.raw
		}
	}
	out := []string{strings.Join(vals, " "), canonOf(ws)}
	if len(ws) > 0 && ws[0].literal {
		if name := strings.ToLower(path.Base(ws[0].value)); name != ws[0].value {
			vals[0] = name
			out = append(out, strings.Join(vals, " "))
		}
	}
	return out
}

func canonOf(ws []word) string {
	s := make([]string, len(ws))
	for i, a := range ws {
		s[i] = a.canon
	}
	return strings.Join(s, " ")
}

func rawOf(ws []word) string {
	s := make([]string, len(ws))
	for i, a := range ws {
		s[i] = a.raw
	}
	return strings.Join(s, " ")
}

func joinNonEmpty(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// describe names what a command line holds, for a Decision's Reason.
func (a *analysis) describe() string {
	if a.dynamic != "" {
		return fmt.Sprintf("no rule can allow this command, as %s", a.dynamic)
	}
	return ""
}
