package permission

import (
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
	plain  string   // canonical without the redirections that neither feed nor write (2>&1, 2>/dev/null)
	raw    string   // the source text
	deny   []string // what a deny rule is also matched against
	words  []word   // the words, for the rest of what a deny rule matches
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
		if p.allowS == nil {
			p.allowS = []string{}
		}
	}
	return p.allowS
}

// denySubjects are what a deny rule is matched against.
func (p *part) denySubjects() []string {
	if p.denyS == nil {
		forms := append([]string{p.text, p.raw}, p.deny...)
		if p.words != nil {
			forms = append(forms, denyForms(p.words)...)
		}
		p.denyS = subjects(forms)
		if p.denyS == nil {
			p.denyS = []string{}
		}
	}
	return p.denyS
}

// subjects makes distinct subjects of forms.
func subjects(forms []string) []string {
	out := make([]string, 0, len(forms))
	for i, f := range forms {
		if slices.Contains(forms[:i], f) {
			continue
		}
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

// parsed keeps the analyses of the latest command lines. The gate judges
// a line up to three times a call (Check, AlwaysAllow, Check of those
// rules), and models often run the same command again. A kept analysis is
// never changed: its parts' subjects are worked out before it is kept,
// and each caller gets its own copy to compile its rules into.
var parsed = struct {
	sync.Mutex
	m     map[string]*analysis
	order []string
}{m: map[string]*analysis{}}

// parsedMax is how many command lines parsed keeps.
const parsedMax = 64

// analyse parses a run_bash command line.
func analyse(cmd string) *analysis {
	parsed.Lock()
	a, ok := parsed.m[cmd]
	parsed.Unlock()
	if !ok {
		a = &analysis{line: subject(cmd), parts: make([]part, 0, 8)}
		a.parse(cmd, 0)
		for i := range a.parts {
			a.parts[i].allowSubjects()
			a.parts[i].denySubjects()
		}
		parsed.Lock()
		if _, dup := parsed.m[cmd]; !dup {
			if len(parsed.order) >= parsedMax {
				delete(parsed.m, parsed.order[0])
				parsed.order = parsed.order[1:]
			}
			parsed.m[cmd] = a
			parsed.order = append(parsed.order, cmd)
		}
		parsed.Unlock()
	}
	c := *a
	return &c
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
		w.add(part{text: joinNonEmpty(raw, rd.text), plain: joinNonEmpty(raw, rd.input), raw: w.slice(s), deny: []string{raw}, writes: rd.writes})
		for _, as := range c.Args {
			if as.Value == nil {
				continue
			}
			if v := w.word(as.Value).value; hidesCode(v) && strings.Contains(v, "[") {
				w.a.setOpaque("it assigns a string that holds a command to be evaluated (" + w.slice(as) + ")")
			}
		}
	case *syntax.LetClause:
		raw := w.slice(c)
		w.add(part{text: joinNonEmpty(raw, rd.text), plain: joinNonEmpty(raw, rd.input), raw: w.slice(s), deny: []string{raw}, writes: rd.writes})
	case nil:
		if rd.text != "" {
			w.add(part{text: rd.text, plain: rd.input, raw: w.slice(s), deny: []string{rd.text}, writes: rd.writes})
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
	text   string   // all of them
	input  string   // those that feed the command (<, <<, <<<): they stay in its plain text
	writes []string // the files written
}

// harmless are files a redirection may write without being judged.
var harmless = map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true}

func (w *walker) redirs(rs []*syntax.Redirect) redirections {
	var out redirections
	var texts, inputs []string
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
		text := n + op + sep + target.canon
		if r.Hdoc != nil {
			// The body is part of the command: a rule for one here-document
			// must not allow another.
			text += "\n" + w.slice(r.Hdoc)
		}
		texts = append(texts, text)
		switch r.Op {
		case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			inputs = append(inputs, text)
		}
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
	out.text, out.input = strings.Join(texts, " "), strings.Join(inputs, " ")
	return out
}

// writes reports whether a redirection opens a file for writing; a
// duplication of a descriptor (2>&1, >&-) writes none.
func writes(op syntax.RedirOperator, target word) bool {
	switch op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrInOut, syntax.RdrAll, syntax.AppAll,
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
	words := joinNonEmpty(strings.Join(assigns, " "), canonOf(ws))
	p := part{
		text:   joinNonEmpty(words, rd.text),
		plain:  joinNonEmpty(words, rd.input),
		raw:    w.spanOf(c, rd),
		writes: rd.writes,
	}
	p.words = ws
	if len(ws) == 0 {
		p.deny = []string{words}
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
	w.add(part{text: c, plain: c, raw: rawOf(ws), words: ws})
	w.command(ws)
}

func (w *walker) add(p part) {
	if p.text != "" {
		w.a.parts = append(w.a.parts, p)
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
	out := []string{strings.Join(vals, " ")}
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
