package approval

import (
	"fmt"

	"pilot/backend/wire"
)

// check validates a change decision against the change and returns its
// outcome: edited when any file was edited, approved when every hunk of
// every file is approved, rejected when none is, partial otherwise. A file
// the decision leaves out is rejected.
func check(c wire.ChangeView, d wire.ChangeDecision) (wire.ApprovalOutcome, error) {
	byPath := map[string]wire.FileChange{}
	for _, f := range c.Files {
		byPath[f.Path] = f
	}
	decided := map[string]bool{}
	edited := false
	yes, total := 0, 0
	for _, fd := range d.Files {
		f, ok := byPath[fd.Path]
		if !ok {
			return "", fmt.Errorf("%w: %q is not part of the change", ErrBadDecision, fd.Path)
		}
		if decided[fd.Path] {
			return "", fmt.Errorf("%w: %q decided twice", ErrBadDecision, fd.Path)
		}
		decided[fd.Path] = true
		if fd.EditedText != nil {
			edited = true
			continue
		}
		if len(fd.Hunks) != len(f.Hunks) {
			return "", fmt.Errorf("%w: %q has %d hunks, the decision names %d", ErrBadDecision, fd.Path, len(f.Hunks), len(fd.Hunks))
		}
		for _, ok := range fd.Hunks {
			if ok {
				yes++
			}
		}
	}
	for _, f := range c.Files {
		total += len(f.Hunks)
	}
	switch {
	case edited:
		return wire.OutcomeEdited, nil
	case yes == total && len(decided) == len(c.Files):
		return wire.OutcomeApproved, nil
	case yes == 0:
		return wire.OutcomeRejected, nil
	}
	return wire.OutcomePartial, nil
}
