package tools

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// compileGrep compiles a grep pattern in multi-line mode (^ and $ match at
// line boundaries). A pattern RE2 cannot take comes back as a message for
// the model: the RE2 error, why, and a fixed pattern where one is obvious.
func compileGrep(pattern string) (*regexp.Regexp, string) {
	if pattern == "" {
		return nil, "The pattern is empty. Give an RE2 regular expression, for example \"func main\" or \"TODO|FIXME\"."
	}
	re, err := regexp.Compile("(?m)" + pattern)
	if err == nil {
		return re, ""
	}
	msg := fmt.Sprintf("Invalid regular expression %q: %v. grep uses RE2 (Go's regexp syntax).", pattern, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	var se *syntax.Error
	if errors.As(err, &se) {
		if why := regexWhy(pattern, se); why != "" {
			msg += " " + why
		}
	}
	if fix := regexFix(pattern, se); fix != "" {
		msg += fmt.Sprintf(" Fixed version: %q.", fix)
	}
	if lit := regexp.QuoteMeta(pattern); lit != pattern {
		msg += fmt.Sprintf(" To search for the text literally, use %q.", lit)
	}
	return nil, msg
}

// regexWhy explains the RE2 features models most often miss.
func regexWhy(pattern string, se *syntax.Error) string {
	switch {
	case strings.Contains(pattern, "(?=") || strings.Contains(pattern, "(?!") ||
		strings.Contains(pattern, "(?<=") || strings.Contains(pattern, "(?<!"):
		return "RE2 has no look-around ((?=...), (?!...), (?<=...), (?<!...)). A positive look-around can be matched as plain text, since grep reports whole lines; for a negative one, search for the positive part and read the lines."
	case backref.MatchString(pattern):
		return "RE2 has no backreferences (\\1); match the repeated text explicitly."
	case se != nil && se.Code == syntax.ErrInvalidRepeatOp && strings.ContainsAny(se.Expr, "+*?}"):
		return "RE2 has no possessive quantifiers (a++, a*+) and a quantifier cannot follow another."
	case se != nil && se.Code == syntax.ErrMissingRepeatArgument:
		return "A quantifier (*, +, ?) needs something before it; to match the character itself, escape it. For file names, use the file_pattern parameter or the glob tool."
	case se != nil && (se.Code == syntax.ErrMissingParen || se.Code == syntax.ErrUnexpectedParen || se.Code == syntax.ErrMissingBracket):
		return "Brackets and parentheses are regex syntax; escape them (\\(, \\[) to match them as text."
	}
	return ""
}

var backref = regexp.MustCompile(`\\[1-9]`)

// regexFix rewrites a pattern RE2 refused into one it accepts, when the
// intent is clear; "" when there is no such rewrite.
func regexFix(pattern string, se *syntax.Error) string {
	fix := pattern
	// Positive look-around becomes a plain group: same matching lines.
	fix = strings.ReplaceAll(fix, "(?<=", "(")
	fix = strings.ReplaceAll(fix, "(?=", "(")
	// PCRE spellings with an RE2 equivalent.
	fix = strings.NewReplacer(`\Z`, `\z`, `\h`, `[ \t]`, `++`, `+`, `*+`, `*`, `?+`, `?`).Replace(fix)
	if se != nil && se.Code == syntax.ErrMissingRepeatArgument && strings.HasPrefix(se.Expr, "*") {
		fix = `\` + fix // "*foo": the star was meant literally
	}
	if fix != pattern {
		if _, err := regexp.Compile("(?m)" + fix); err == nil {
			return fix
		}
	}
	// Unbalanced brackets: escape them.
	if se != nil && (se.Code == syntax.ErrMissingParen || se.Code == syntax.ErrUnexpectedParen || se.Code == syntax.ErrMissingBracket) {
		fix = strings.NewReplacer("(", `\(`, ")", `\)`, "[", `\[`, "]", `\]`).Replace(pattern)
		if _, err := regexp.Compile("(?m)" + fix); err == nil {
			return fix
		}
	}
	return ""
}
