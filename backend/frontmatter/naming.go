package frontmatter

import (
	"fmt"
	"regexp"
)

// Naming is what a definition's name and description must be (an
// agent's, a skill's), and the words that tell a wrong one.
type Naming struct {
	As      string         // what a definition is, with its article: "an agent"
	Plural  string         // several of them: "agents"
	Valid   *regexp.Regexp // the names allowed, at most MaxName long
	Example string         // a valid name: "code-reviewer"
	Says    string         // what the description says: "when to use the agent"
	Details string         // where the details belong: "the prompt"
}

// Check says what is wrong with a definition's name and description, in
// a sentence that says what to fix; nil when both are good.
func (n Naming) Check(name, description string) error {
	switch {
	case len(name) > MaxName || !n.Valid.MatchString(name):
		return fmt.Errorf("its name %q is not %s name: use at most %d lowercase letters, digits and hyphens (like %s)", name, n.As, MaxName, n.Example)
	case description == "":
		return fmt.Errorf("it has no description: add description: to its front matter, saying %s (the model chooses %s by it)", n.Says, n.Plural)
	case len(description) > MaxDescription:
		return fmt.Errorf("its description is %d characters, more than %d: shorten it (the details belong in %s)", len(description), MaxDescription, n.Details)
	}
	return nil
}
