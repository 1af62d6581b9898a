package tools

import (
	"fmt"
	"strings"

	"pilot/backend/toolname"
)

// ReportFindingTool is the reviewer's tool (backend/review runs it).
const ReportFindingTool = toolname.ReportFinding

// FindingParams is the input of report_finding.
type FindingParams struct {
	Path string `json:"path" desc:"The file, relative to the reviewed folder, as the diff names it."`
	Line int    `json:"line" desc:"The line's number in the file as it is now: a + or context line of the diff."`
	Text string `json:"text" desc:"What is wrong and why, and what to do about it: a sentence or two."`
}

// NewReportFinding is report_finding's definition; the reviewer's loop
// runs it (it is in no session's registry).
func NewReportFinding() Tool {
	return loopTool(ReportFindingTool, func(p FindingParams) string {
		return fmt.Sprintf("→ Finding on %s:%d", truncate(strings.TrimSpace(p.Path), 120), p.Line)
	})
}
