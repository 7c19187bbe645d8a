package explore

import (
	"math/rand/v2"

	"github.com/twosettle/twosettle/sim"
)

// Rand is all the randomness the generator draws: IntN returns a value in [0, n) for
// n > 0. *rand.Rand is one (the seed's generation stream); BytesRand turns fuzzer bytes
// into one; the rapid properties draw through rapid.T.
type Rand interface{ IntN(n int) int }

// SeedRand is the generation stream of seed (sim.StreamGeneration): the simulator never
// draws from it, so the generator's draws never disturb the schedule, network or fault
// streams of the run.
func SeedRand(seed uint64) *rand.Rand { return sim.NewStreams(seed).Generation }

// BytesRand reads its draws from data (eight bytes a draw, little endian, zero padded),
// then, once data is used up, from a splitmix64 sequence seeded by data, so any input
// (also an empty one) yields a complete scenario and every draw terminates.
func BytesRand(data []byte) *rand.Rand {
	h := uint64(len(data)) * 0x9e3779b97f4a7c15
	for _, b := range data {
		h = (h ^ uint64(b)) * 0x100000001b3
	}
	return rand.New(&byteSource{data: data, x: h})
}

type byteSource struct {
	data []byte
	x    uint64
}

func (s *byteSource) Uint64() uint64 {
	if len(s.data) > 0 {
		var v uint64
		n := min(8, len(s.data))
		for i := 0; i < n; i++ {
			v |= uint64(s.data[i]) << (8 * i)
		}
		s.data = s.data[n:]
		return v
	}
	s.x += 0x9e3779b97f4a7c15
	z := s.x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
