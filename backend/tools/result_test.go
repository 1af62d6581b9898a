package tools

import (
	"errors"
	"fmt"
	"testing"

	"pilot/backend/projectroot"
)

// TestResolveErr: the model's mistakes (a mistake or a path error, also
// wrapped) become a Result with IsError; other errors stay errors.
func TestResolveErr(t *testing.T) {
	t.Parallel()
	io := errors.New("disk on fire")
	tests := []struct {
		name    string
		err     error
		want    Result
		wantErr error
	}{
		{"mistake", mistakef("%q is a folder", "src"), Result{Output: `"src" is a folder`, IsError: true}, nil},
		{"wrapped mistake", fmt.Errorf("x: %w", mistake("no such folder")), Result{Output: "no such folder", IsError: true}, nil},
		{"path error", &projectroot.PathError{Msg: "outside the root"}, Result{Output: "outside the root", IsError: true}, nil},
		{"other", io, Result{}, io},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := resolveErr(tt.err)
			if got.Output != tt.want.Output || got.IsError != tt.want.IsError || !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Errorf("resolveErr(%v) = %+v, %v; want %+v, %v", tt.err, got, err, tt.want, tt.wantErr)
			}
		})
	}
}
