#!/usr/bin/env node
// A userQuestions projection in JavaScript, served over twosettle-conform/1 in the
// `projection` profile (docs/PROTOCOL.md, "Profiles"). Node's built-ins only: run it as
//
//   conform --profile projection --host 'node examples/node/projection.js'
//
// The fold is written from the rules of the decision and of docs/REQUIREMENTS.md (PROJ-1
// to PROJ-12); the adapter around it is the part a team replaces with a call into its own
// fold. Every request is answered with the view after it:
//
//   → {"type":"fold-start","n":1,"session":"s1","inherited":0}   ← {"type":"view","n":1,"view":{…}}
//   → {"type":"event","n":2,"event":{"seq":0,…}}                   ← {"type":"view","n":2,"view":{…}}
'use strict';

const readline = require('node:readline');

const PROTOCOL = 'twosettle-conform/1';
const TOOL = 'ask_user_question';
const OUTCOME_UNKNOWN = 'TOOL_OUTCOME_UNKNOWN';
// Every reader of the reference stops at this many nested arrays and objects; a deeper
// text is unreadable, as if JSON.parse had rejected it (docs/PEER.md §11.1).
const MAX_DEPTH = 10000;

// ---- the fold -------------------------------------------------------------------------

// A fresh fold: the first `inherited` events were copied from a fork parent and are
// ignored (PROJ-11).
function newFold(inherited) {
  return { inherited, timed: false, active: [], settled: [] };
}

// apply folds one Session event (its neutral JSON form) into f (PROJ-1: the view comes
// from existing events only).
function apply(f, e) {
  if (e.seq < f.inherited) return; // PROJ-11
  switch (e.type) {
    case 'request/header':
      f.timed = headerTimed(e.tools); // PROJ-2: the latest header wins
      return;
    case 'tool/call': {
      if (!f.timed || e.name !== TOOL) return; // PROJ-2: legacy calls are never tracked
      const questions = questionsOf(parse(e.arguments));
      if (questions) putLast(f, { callId: e.callId, questions, state: 'open' }); // PROJ-3
      return;
    }
    case 'tool/result':
      toolResult(f, e);
      return;
    case 'tool/ptc-dispatch': {
      // PROJ-7: a sub-call from run_code enters continued when its result is pending.
      if (e.name !== TOOL || e.isError === true || !isPending(e.text)) return;
      const questions = questionsOf(parse(e.arguments));
      if (questions) putLast(f, { callId: e.subCallId, questions, state: 'continued' });
      return;
    }
    case 'user/message': {
      const m = e.message;
      if (m.source.kind !== 'user-question-reply') return;
      const i = f.active.findIndex((r) => r.callId === m.source.callId);
      if (i < 0) return;
      // PROJ-8: the admitted reply settles with its batch, or an empty one.
      settle(f, i, (!m.noText && readBatch(m.text)) || []);
      return;
    }
    default:
      // agent/inbox/spliced (PROJ-9: a queued reply does not settle), turns, steps.
      return;
  }
}

function toolResult(f, e) {
  const i = f.active.findIndex((r) => r.callId === e.callId);
  if (i < 0) return;
  const unknown = e.error !== undefined && e.error.code === OUTCOME_UNKNOWN;
  if ((!e.noText && isPending(e.text)) || unknown) {
    f.active[i] = { ...f.active[i], state: 'continued' }; // PROJ-4, in place
    return;
  }
  if (e.isError !== true && e.error === undefined && !e.noText) {
    const answers = readBatch(e.text);
    if (answers) {
      settle(f, i, answers); // PROJ-5
      return;
    }
  }
  f.active.splice(i, 1); // PROJ-6: removed, with no settled record
}

// putLast removes any row with the row's call id and appends the row (PROJ-3: a reused
// call id moves to the end).
function putLast(f, row) {
  f.active = f.active.filter((r) => r.callId !== row.callId);
  f.active.push(row);
}

// settle moves active row i to the end of settled (PROJ-10: settled rows stay).
function settle(f, i, answers) {
  const [row] = f.active.splice(i, 1);
  f.settled.push({ callId: row.callId, answers });
}

function view(f) {
  return { active: f.active, settled: f.settled };
}

// ---- readers ----------------------------------------------------------------------------

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

// parse is JSON.parse that gives undefined for text it rejects or nested too deep.
function parse(text) {
  if (typeof text !== 'string') return undefined;
  let v;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  return tooDeep(text) ? undefined : v;
}

// tooDeep reports whether the valid JSON text nests more than MAX_DEPTH arrays and
// objects. It reads the text, not the parsed value: a duplicate key's earlier value counts.
function tooDeep(text) {
  let level = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '[' || c === '{') {
      if (++level > MAX_DEPTH) return true;
    } else if (c === ']' || c === '}') {
      level--;
    }
  }
  return false;
}

// headerTimed: the tools are an array with an ask_user_question entry whose parameters'
// properties declare timeout (PROJ-2). Anything else (a placeholder string, null, an
// object, text that is not JSON, the legacy schema) is not timed.
function headerTimed(tools) {
  const v = parse(tools);
  return Array.isArray(v) && v.some((t) => isObject(t) && t.name === TOOL &&
    isObject(t.parameters) && isObject(t.parameters.properties) && has(t.parameters.properties, 'timeout'));
}

// isPending: the text is a JSON object whose pending is true (callId not required).
function isPending(text) {
  const v = parse(text);
  return isObject(v) && v.pending === true;
}

// questionsOf reads model-facing arguments {questions:[{id, question, header?, options?,
// multi_select?}]} into the service vocabulary; undefined when unreadable. Extra keys are
// dropped; a wrong type anywhere makes the whole call unreadable.
function questionsOf(args) {
  if (!isObject(args) || !Array.isArray(args.questions) || args.questions.length === 0) return undefined;
  const out = [];
  for (const item of args.questions) {
    if (!isObject(item) || typeof item.id !== 'string' || typeof item.question !== 'string') return undefined;
    const q = { id: item.id, question: item.question };
    if (has(item, 'header')) {
      if (typeof item.header !== 'string') return undefined;
      q.header = item.header;
    }
    if (has(item, 'options')) {
      if (!Array.isArray(item.options)) return undefined;
      const options = [];
      for (const o of item.options) {
        if (!isObject(o) || typeof o.label !== 'string') return undefined;
        const opt = { label: o.label };
        if (has(o, 'description')) {
          if (typeof o.description !== 'string') return undefined;
          opt.description = o.description;
        }
        options.push(opt);
      }
      q.options = options; // an empty list stays present (docs/PEER.md §11.3)
    }
    if (has(item, 'multi_select')) {
      if (typeof item.multi_select !== 'boolean') return undefined;
      q.multiSelect = item.multi_select;
    }
    out.push(q);
  }
  return out;
}

// readBatch reads an answer batch: an object whose answers is an array of strict items
// {id: string, selected: string[], custom?: string}; undefined when unusable.
function readBatch(text) {
  const v = parse(text);
  if (!isObject(v) || !Array.isArray(v.answers)) return undefined;
  const out = [];
  for (const a of v.answers) {
    if (!isObject(a) || typeof a.id !== 'string' || !Array.isArray(a.selected)) return undefined;
    if (Object.keys(a).some((k) => k !== 'id' && k !== 'selected' && k !== 'custom')) return undefined;
    if (!a.selected.every((s) => typeof s === 'string')) return undefined;
    const item = { id: a.id, selected: a.selected };
    if (has(a, 'custom')) {
      if (typeof a.custom !== 'string') return undefined;
      item.custom = a.custom;
    }
    out.push(item);
  }
  return out;
}

// ---- the adapter: twosettle-conform/1, projection profile --------------------------------

function send(msg) {
  process.stdout.write(JSON.stringify(msg) + '\n');
}

let hello = false;
let fold = null;
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch (err) {
    process.stderr.write(`projection.js: a request that is not JSON: ${err.message}\n`);
    process.exit(2);
  }
  if (!hello) {
    hello = true;
    if (req.type !== 'hello' || req.protocol !== PROTOCOL) {
      process.stderr.write(`projection.js: expected a ${PROTOCOL} hello, got ${line}\n`);
      process.exit(2);
    }
    send({ type: 'hello', protocol: PROTOCOL, name: 'twosettle-node-projection', version: '1', profiles: ['projection'] });
    return;
  }
  switch (req.type) {
    case 'bye':
      rl.close();
      return;
    case 'fold-start':
      fold = newFold(req.inherited);
      send({ type: 'view', n: req.n, view: view(fold) });
      return;
    case 'event':
      if (fold === null) {
        send({ type: 'error', n: req.n, message: 'event before fold-start' });
        return;
      }
      apply(fold, req.event);
      send({ type: 'view', n: req.n, view: view(fold) });
      return;
    default:
      send({ type: 'error', n: req.n, message: `unknown request type ${JSON.stringify(req.type)}` });
  }
});
