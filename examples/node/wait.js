#!/usr/bin/env node
'use strict';
// A host of the twosettle-conform/1 `wait` profile (docs/PROTOCOL.md, "Profiles"): the
// runner sends one wait step per line, the host answers with what its TimedQuestionWait
// did. The wait is timed-wait.js, an implementation on setTimeout/clearTimeout that knows
// nothing of the runner.
//
//   node wait.js                 time from the runner: @sinonjs/fake-timers replaces
//                                setTimeout, clearTimeout and Date, and each step first
//                                moves the fake clock to the step's "now"
//   node wait.js --real-timers   the real timers, for `conform --realtime`: "now" is
//                                ignored and a timer that fires between two steps is
//                                reported with the next reply
//
//   conform --profile wait --host 'node examples/node/wait.js'
//   conform --profile wait --realtime --host 'node examples/node/wait.js --real-timers'

const readline = require('node:readline');
const FakeTimers = require('@sinonjs/fake-timers');

const realTimers = process.argv.includes('--real-timers');
const PROTOCOL = 'twosettle-conform/1';

let clock = null; // the fake clock (fake timers only)
let t0 = 0; // Date.now() at the last reset: event times are since then

// Install the fake clock before the implementation is loaded, as a test would.
function resetClock(now) {
  if (realTimers) {
    t0 = Date.now();
    return;
  }
  if (clock) clock.uninstall();
  clock = FakeTimers.install({ now, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  t0 = 0;
}
resetClock(0);

const { TimedQuestionWait, UserQuestionError } = require('./timed-wait.js');

// The host's state for one script.
let waits, parents, streams, events;
function reset() {
  for (const w of waits ? waits.values() : []) w.close(new UserQuestionError('ASK_ABORTED'));
  waits = new Map();
  parents = new Map();
  streams = new Map();
  events = [];
}
reset();

const at = () => Date.now() - t0;
const reasonText = (r) => (r && typeof r === 'object' && typeof r.code === 'string' ? r.code : String(r));

function parent(name) {
  let p = parents.get(name);
  if (!p) {
    p = new AbortController();
    parents.set(name, p);
  }
  return p;
}

// The number of timers armed: the fake clock's count, or the process's live Timeouts.
function timers() {
  if (!realTimers) return clock.countTimers();
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}

function step(req) {
  switch (req.op) {
    case 'create': {
      if (waits.has(req.wait)) break;
      const name = req.wait;
      // set before the constructor runs: a wait under an aborted parent closes in it
      waits.set(name, null);
      const w = new TimedQuestionWait({
        timeoutMs: req.timeoutMs,
        parent: req.parent ? parent(req.parent).signal : undefined,
        onClose: (reason) => events.push({ event: 'closed', wait: name, reason: reasonText(reason), at: at() }),
      });
      waits.set(name, w);
      break;
    }
    case 'attach': {
      if (streams.has(req.claim)) break;
      const client = new AbortController();
      if (req.cancelled) client.abort(new UserQuestionError('ASK_CANCELLED'));
      streams.set(req.claim, { wait: req.wait, client, pulled: false, ended: false, claim: null });
      break;
    }
    case 'pull': {
      const s = streams.get(req.claim);
      if (!s || s.pulled) break;
      s.pulled = true;
      const sink = {
        frame: (remainingMs) => events.push({ event: 'frame', claim: req.claim, remainingMs, at: at() }),
        end: () => {
          if (s.ended) return;
          s.ended = true;
          events.push({ event: 'end', claim: req.claim, at: at() });
        },
      };
      const w = waits.get(s.wait);
      if (!w) sink.end();
      else s.claim = w.claim(s.client.signal, sink);
      break;
    }
    case 'return': {
      const s = streams.get(req.claim);
      if (!s) break;
      if (!s.pulled) {
        s.pulled = s.ended = true;
        break;
      }
      if (s.claim) s.claim.release();
      break;
    }
    case 'cancel': {
      const s = streams.get(req.claim);
      if (s) s.client.abort(new UserQuestionError('ASK_CANCELLED'));
      break;
    }
    case 'abort':
      parent(req.parent).abort(new UserQuestionError(req.reason));
      break;
    case 'close': {
      const w = waits.get(req.wait);
      if (w) w.close(new UserQuestionError(req.reason));
      break;
    }
    case 'advance':
      break;
    default:
      throw new Error(`unknown op ${JSON.stringify(req.op)}`);
  }
}

const out = (msg) => process.stdout.write(JSON.stringify(msg) + '\n');

const rl = readline.createInterface({ input: process.stdin, terminal: false });
let hello = false;
rl.on('line', (line) => {
  const req = JSON.parse(line);
  if (!hello) {
    hello = true;
    if (req.type !== 'hello' || req.protocol !== PROTOCOL) {
      process.stderr.write(`wait.js: the runner's first message is not a ${PROTOCOL} hello\n`);
      process.exit(2);
    }
    out({ type: 'hello', protocol: PROTOCOL, name: 'twosettle-node-example', version: '0.1.0', profiles: ['wait'] });
    return;
  }
  if (req.type === 'bye') {
    rl.close();
    process.exit(0);
  }
  if (req.type !== 'wait') {
    out({ type: 'error', n: req.n, message: `the wait profile has no request ${JSON.stringify(req.type)}` });
    return;
  }
  try {
    if (req.op === 'reset') {
      reset();
      resetClock(req.now);
      events = [];
    } else {
      // Fake timers: the timers due by the runner's now fire first, each at its own time.
      if (clock && !realTimers && req.now > clock.now) clock.tick(req.now - clock.now);
      step(req);
      // A timer re-armed for a passed deadline is due now: it fires within the step.
      if (clock && !realTimers) clock.tick(0);
    }
    out({ type: 'waited', n: req.n, events, timers: timers() });
    events = [];
  } catch (err) {
    out({ type: 'error', n: req.n, message: String((err && err.stack) || err) });
  }
});
