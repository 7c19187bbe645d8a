package sim

import (
	"errors"
	"fmt"
	"testing"

	"github.com/twosettle/twosettle/engine/wire"
)

func TestPortLost(t *testing.T) {
	lost := &wire.PortLost{Err: errors.New("the host exited")}
	for _, tc := range []struct {
		name string
		err  error
		want *wire.PortLost
	}{
		{"no error", nil, nil},
		{"a refusal is no lost port", &wire.Error{Name: "Error", Message: "already answered"}, nil},
		{"a plain error is no lost port", errors.New("refused"), nil},
		{"a lost port", lost, lost},
		{"a lost port wrapped", fmt.Errorf("apply: %w", lost), lost},
		{"a lost port joined", errors.Join(errors.New("x"), lost), lost},
		{"a wrapped refusal", fmt.Errorf("apply: %w", errors.New("refused")), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := portLost(tc.err); got != tc.want {
				t.Fatalf("portLost(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
	// The simulator asks this of every refused command (racing answers are refused many
	// times a run): a refusal must not allocate, as errors.As with an escaping target did.
	t.Run("a refusal costs no allocation", func(t *testing.T) {
		var err error = &wire.Error{Name: "Error", Message: "already answered"}
		if n := testing.AllocsPerRun(100, func() { portLost(err) }); n != 0 {
			t.Fatalf("%v allocations a refusal", n)
		}
	})
}
