package client

// splitmix64 is the one-step mixer of SplitMix64: a pure function of its input, so a
// client's random draws are a function of its seed and its page-load count only.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// pageKey is the 32 lowercase hex characters drawn once per page load (docs/PEER.md §6.2): the
// middle part of every unkeyed card key of that load, so a key never repeats across
// reloads and an old stored draft never attaches to a new unkeyed card (CARD-3).
func pageKey(seed uint64, load int) string {
	const hex = "0123456789abcdef"
	a := splitmix64(seed ^ splitmix64(uint64(load)))
	b := splitmix64(a)
	var out [32]byte
	for i := 0; i < 16; i++ {
		out[i] = hex[(a>>(60-4*uint(i)))&0xf]
		out[16+i] = hex[(b>>(60-4*uint(i)))&0xf]
	}
	return string(out[:])
}
