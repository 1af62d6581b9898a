package agent

import (
	"embed"
	"strings"
	"text/template"
)

// templateFiles are the prompts written as templates: the system prompt,
// a helper's and a custom agent's.
//
//go:embed agent.md helper.md system.md
var templateFiles embed.FS

var templates = template.Must(template.ParseFS(templateFiles, "*.md"))

// render writes the prompt template named (its file's name) with data.
func render(b *strings.Builder, name string, data any) {
	if err := templates.ExecuteTemplate(b, name, data); err != nil {
		panic(err) // the templates are embedded and tested
	}
}
