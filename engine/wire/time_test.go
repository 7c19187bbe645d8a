package wire

import (
	"fmt"
	"testing"
)

func TestVirtualTime(t *testing.T) {
	t.Run("CD-1 an instant plus a span, and the span between two instants", func(t *testing.T) {
		at := Time(5010)
		if got := at.Add(-10); got != 5000 {
			t.Fatalf("Add: %d", got)
		}
		if got := Time(5000).Sub(at); got != -10 {
			t.Fatalf("Sub: %d", got)
		}
		if got := at.Add(at.Sub(200)); got != 9820 {
			t.Fatalf("Add(Sub): %d", got)
		}
	})
	t.Run("the canonical text is the milliseconds in decimal, as trace records show them", func(t *testing.T) {
		if s := fmt.Sprint(Time(5010), " ", Duration(-250)); s != "5010 -250" {
			t.Fatalf("%q", s)
		}
		if Time(7).Ms() != 7 || Duration(-3).Ms() != -3 {
			t.Fatal("Ms")
		}
	})
}
