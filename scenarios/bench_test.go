package scenarios

import "testing"

// BenchmarkDecodeLibrary decodes and validates every library scenario once per iteration:
// the cost of reading the format (the key tables, the kinds' decoders and validators).
func BenchmarkDecodeLibrary(b *testing.B) {
	files := Library()
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			if _, err := Decode(f.Path, f.Data); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkEncodeLibrary writes every decoded library scenario once per iteration.
func BenchmarkEncodeLibrary(b *testing.B) {
	files := Library()
	var all []*Scenario
	for _, f := range files {
		s, err := Decode(f.Path, f.Data)
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, s)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range all {
			_ = Encode(s)
		}
	}
}
