package sim

import "math/rand/v2"

// Stream identifiers: each names one independent PCG stream derived from the run's seed.
const (
	StreamSchedule   = 1 // tie-breaking among events due at the same instant
	StreamNetwork    = 2 // latency draws
	StreamFaults     = 3 // random fault times, targets, magnitudes and crash cuts
	StreamGeneration = 4 // reserved for whoever generates configurations (the fuzzer)
)

// Streams are the independent random streams of one seed. A draw in one never changes
// what another yields: each is its own PCG generator seeded from (seed, stream id).
type Streams struct {
	Schedule, Network, Faults, Generation *rand.Rand
}

// NewStreams splits seed into its four streams.
func NewStreams(seed uint64) Streams {
	return Streams{
		Schedule:   rand.New(newPCG(seed, StreamSchedule)),
		Network:    rand.New(newPCG(seed, StreamNetwork)),
		Faults:     rand.New(newPCG(seed, StreamFaults)),
		Generation: rand.New(newPCG(seed, StreamGeneration)),
	}
}

func newPCG(seed, stream uint64) *rand.PCG {
	a, b := streamSeed(seed, stream)
	return rand.NewPCG(a, b)
}

// streamSeed derives the two PCG words of a stream with splitmix64, so that nearby seeds
// and stream ids give unrelated generators.
func streamSeed(seed, stream uint64) (uint64, uint64) {
	x := seed ^ (stream * 0x9e3779b97f4a7c15)
	a := splitmix64(&x)
	b := splitmix64(&x)
	return a, b
}

func splitmix64(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
