package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"pilot/backend/wire"
)

// importedLines are the settings files' rules and ignored entries as
// `pilot rules list --json` prints them, after the stored rules.
func importedLines(im wire.ImportedRules) []wire.RuleLine {
	var out []wire.RuleLine
	for _, r := range im.Rules {
		out = append(out, wire.RuleLine{Effect: r.Effect, Tool: r.Tool, Pattern: r.Pattern, Entry: r.Entry, File: r.File, Scope: r.Scope, NotApplied: r.NotApplied})
	}
	for _, ig := range im.Ignored {
		out = append(out, wire.RuleLine{Effect: wire.RuleEffect(ig.Effect), Invalid: true, Reason: ig.Reason, Entry: ig.Entry, File: ig.File, Scope: ig.Scope})
	}
	return out
}

// printImported writes the settings files' rules, a table per file, and
// the entries ignored with their reasons.
func printImported(w io.Writer, im wire.ImportedRules) {
	file := ""
	var table bytes.Buffer
	var tw *tabwriter.Writer
	flush := func() {
		if tw == nil {
			return
		}
		tw.Flush()
		for _, line := range strings.Split(strings.TrimSuffix(table.String(), "\n"), "\n") {
			fmt.Fprintln(w, strings.TrimRight(line, " "))
		}
		table.Reset()
	}
	for _, r := range im.Rules {
		pattern := r.Pattern // %q shows it escaped
		r := lineFields(r)   // the file's entry, every character visible
		if r.File != file {
			flush()
			file = r.File
			fmt.Fprintf(w, "\nFrom %s (%s):\n", r.File, r.Scope)
			tw = tabwriter.NewWriter(&table, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "EFFECT\tTOOL\tPATTERN\tENTRY\t")
		}
		note := ""
		if !r.Applies {
			note = "NOT APPLIED: untrusted"
		}
		fmt.Fprintf(tw, "%s\t%s\t%q\t%s\t%s\n", r.Effect, r.Tool, pattern, r.Entry, note)
	}
	flush()
	untrusted := false
	for _, r := range im.Rules {
		untrusted = untrusted || !r.Applies
	}
	if untrusted {
		fmt.Fprintln(w, "Allow rules of a project's settings file apply only once you trust it as it is: pilot trust.")
	}
	if len(im.Ignored) > 0 {
		fmt.Fprintln(w, "\nIgnored entries of settings files:")
	}
	for _, ig := range im.Ignored {
		ig := lineFields(ig)
		what := ig.Entry
		if ig.Effect != "" {
			what = ig.Effect + " " + what
		}
		if what == "" {
			what = "the whole file"
		}
		fmt.Fprintf(w, "  %s (%s): %s\n", what, ig.File, ig.Reason)
	}
}
