package oracle

import "strconv"

// INV-CLAIM-END-IGNORED (CLAIM-6, with CLAIM-3 and WAIT-4): a claim stream stays open for
// the claim's lifetime, and the host ends one that yielded its frame only when the claim's
// wait ends (docs/PEER.md §3 step 4: closing ends every claim; the causes CLAIM-6 names are
// host expiry, a turn abort and an unload, and foreground completion, CLAIM-3) or when its
// client no longer holds the request. When the stream ends before the client answered,
// the client's listener ends with the plain rejection "the foreground question wait
// ended" (docs/PEER.md §8.11), and the host ignores that outcome: so by the end of the
// Apply that ended the stream, the wait has ended or the request is finished at that
// client (no longer held), and the rejection finds nothing to settle. A stream the client
// cancelled, or one a disconnect or a restart ended, is ended by a command, not by the
// host, and is not judged here.

// hostEndedClaim notes a claim stream the host ended with a StreamEnd frame.
func (c *Checker) hostEndedClaim(st *stream) {
	if st != nil && st.claim && !st.endByCmd {
		c.ap.claimEnds = append(c.ap.claimEnds, st)
	}
}

// claimEndIgnored checks, at the end of an Apply, the claim streams the host ended in it.
func (c *Checker) claimEndIgnored() {
	if !c.on(invClaimEndIgnored) {
		return
	}
	for _, st := range c.ap.claimEnds {
		fg := st.fg
		if fg == nil || !fg.open() || fg.parentAbortRec >= 0 || fg.expiryRec >= 0 {
			continue
		}
		k := connKey{st.key.client, st.key.gen}
		if ev := fg.event; ev == nil || ev.finished || ev.holds(k) < 0 {
			continue
		}
		c.fail(invClaimEndIgnored, st.endRec, fg.key.session+"/"+fg.key.callID+": the host ended claim stream "+st.key.id+" of "+
			k.String()+" (t="+strconv.FormatInt(c.recs[st.endRec].Time, 10)+") while its wait was open and "+k.String()+
			" still held ev="+fg.event.id+": the listener's rejection would settle the request", st.itemRec)
		return
	}
}
