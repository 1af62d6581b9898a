package permission

// Shim for the gate branch: these are provided by the "shell" branch of
// issue 22 with the same signatures; the lead deletes this file at merge.

import "strings"

// NamesHost reports whether r is an allow web_fetch rule that names host
// exactly: no wildcard, the same name (case folded).
func NamesHost(r Rule, host string) bool {
	return r.Effect == Allow && r.Tool == WebFetchTool && host != "" &&
		!strings.ContainsAny(r.Pattern, "*?[]{}\\") && strings.EqualFold(strings.TrimSpace(r.Pattern), host)
}

// RuleStrings renders rules as people read them (Rule.String).
func RuleStrings(rs []Rule) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.String()
	}
	return out
}

// Withholds reports whether a deny rule on tool matches the
// project-relative path rel: a listing of tool leaves it out.
func Withholds(rules []Rule, tool, rel string) bool {
	for _, r := range rules {
		if r.Effect == Deny && r.Tool == tool && matchPath(r.Pattern, rel) {
			return true
		}
	}
	return false
}
