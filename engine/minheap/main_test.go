package minheap

import (
	"testing"

	"github.com/twosettle/twosettle/internal/rapidseed"
)

// TestMain starts the property tests from a fixed seed (internal/rapidseed): go test gives
// one answer for one commit; -rapid.seed=0 explores.
func TestMain(m *testing.M) { rapidseed.Main(m) }
