'use strict';
// TimedQuestionWait: the host's foreground wait of one timed question, written the way a
// server on its own timers writes it: Date.now() for the clock, setTimeout/clearTimeout
// for the one timer, AbortController/AbortSignal for the signals. It knows nothing of
// twosettle or of a test harness; wait.js adapts it to the protocol.
//
// The rules (docs/REQUIREMENTS.md, WAIT-1..10):
//  - the deadline is fixed at creation, now + timeoutMs, and never moves;
//  - the timer runs only while no claim is held; losing the last claim re-arms it for the
//    original deadline, at once when it has passed;
//  - a claim exists once the client pulls its first frame: one frame, remainingMs =
//    max(0, deadline - now), then the stream stays open until the claim is released;
//  - claiming with no other claim at or after the deadline expires the wait, no frame;
//    with another claim held it yields remainingMs 0;
//  - claiming with a cancelled client signal, or on a closed wait, ends with no frame and
//    leaves the wait as it is;
//  - expiry aborts only the wait's own signal, with ASK_TIMED_OUT;
//  - the parent's abort closes the wait with the parent's reason;
//  - closing ends every claim, clears the timer, and signals completion exactly once.

class UserQuestionError extends Error {
  constructor(code, message = code) {
    super(message);
    this.name = 'UserQuestionError';
    this.code = code;
  }
}

class TimedQuestionWait {
  // onClose(reason) is called once, when the wait closes.
  constructor({ timeoutMs, parent, onClose }) {
    this.deadline = Date.now() + timeoutMs;
    this.controller = new AbortController();
    this.claims = [];
    this.timer = null;
    this.closed = false;
    this.onClose = onClose;
    this.parent = parent;
    if (parent && parent.aborted) {
      this.close(parent.reason);
      return;
    }
    if (parent) {
      this.onParentAbort = () => this.close(parent.reason);
      parent.addEventListener('abort', this.onParentAbort, { once: true });
    }
    this.arm();
  }

  get signal() {
    return this.controller.signal;
  }

  arm() {
    if (this.closed || this.claims.length > 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.expire();
    }, Math.max(0, this.deadline - Date.now()));
  }

  disarm() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  expire() {
    this.close(new UserQuestionError('ASK_TIMED_OUT', 'the question timed out'));
  }

  // claim is the body of the claim stream, run when the client pulls its first frame.
  // stream is { frame(remainingMs), end() }; the claim returned has release(), or it is
  // null when the stream ended at once.
  claim(clientSignal, stream) {
    if ((clientSignal && clientSignal.aborted) || this.closed) {
      stream.end();
      return null;
    }
    const now = Date.now();
    if (this.claims.length === 0 && now >= this.deadline) {
      this.expire();
      stream.end();
      return null;
    }
    const claim = {
      released: false,
      release: () => this.release(claim),
      stream,
      clientSignal,
    };
    this.claims.push(claim);
    this.disarm();
    if (clientSignal) {
      claim.onClientAbort = () => claim.release();
      clientSignal.addEventListener('abort', claim.onClientAbort, { once: true });
    }
    stream.frame(Math.max(0, this.deadline - now));
    return claim;
  }

  release(claim) {
    if (claim.released) return;
    claim.released = true;
    if (claim.clientSignal) claim.clientSignal.removeEventListener('abort', claim.onClientAbort);
    this.claims = this.claims.filter((c) => c !== claim);
    claim.stream.end();
    this.arm();
  }

  close(reason) {
    if (this.closed) return;
    this.closed = true;
    this.disarm();
    if (this.parent && this.onParentAbort) this.parent.removeEventListener('abort', this.onParentAbort);
    for (const c of [...this.claims]) c.release();
    this.controller.abort(reason);
    if (this.onClose) this.onClose(reason);
  }
}

module.exports = { TimedQuestionWait, UserQuestionError };
