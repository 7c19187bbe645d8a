package sim

// clock is one client's clock: reading(t) = base + (t - t0) + floor((t - t0)*ppm/1e6)
// for t >= t0. A jump or a drift change rebases it at the current time.
type clock struct {
	base, t0, ppm int64
}

func newClock(c Clock) clock { return clock{base: c.Offset.Ms(), ppm: c.DriftPPM} }

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// at is the client's reading at simulator time t (t >= t0).
func (c *clock) at(t int64) int64 {
	d := t - c.t0
	return c.base + d + floorDiv(d*c.ppm, 1_000_000)
}

// jump moves the clock by by ms at simulator time now.
func (c *clock) jump(now, by int64) {
	c.base = c.at(now) + by
	c.t0 = now
}

// drift sets the rate from now on.
func (c *clock) drift(now, ppm int64) {
	c.base = c.at(now)
	c.t0 = now
	c.ppm = ppm
}

// simTime is the earliest simulator time t >= now at which the clock reads at least d.
func (c *clock) simTime(now, d int64) int64 {
	if c.ppm == 0 { // the usual clock: it reads d at t0 + (d - base)
		return max(now, c.t0+d-c.base)
	}
	if c.at(now) >= d {
		return now
	}
	// Solve base + x*(1e6+ppm)/1e6 >= d for x = t - t0, then correct the rounding.
	rate := 1_000_000 + c.ppm
	x := floorDiv((d-c.base)*1_000_000+rate-1, rate)
	t := c.t0 + x
	if t < now {
		t = now
	}
	for c.at(t) < d {
		t++
	}
	for t > now && c.at(t-1) >= d {
		t--
	}
	return t
}
