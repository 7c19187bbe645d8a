package timeline

import "strings"

// css is the page's inline style sheet.
const css = `
body{font:13px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:16px;color:#1f2933;background:#fff}
h1{font-size:18px;margin:0 0 2px}
h2.runh{font-size:15px;margin:12px 0 2px}
.tag{display:inline-block;background:#1f2933;color:#fff;border-radius:4px;padding:0 6px;margin-right:4px}
.sub{color:#52606d;margin:0 0 8px}
.meta{color:#52606d;font-size:12px}
.verdict{border-radius:6px;padding:8px 12px;margin:10px 0;border:1px solid}
.verdict.ok{background:#e3f9e5;border-color:#57ae5b}
.verdict.violation{background:#ffe3e3;border-color:#e12d39}
.verdict.unknown,.verdict.none{background:#fff3c4;border-color:#f0b429}
.verdict b{font-size:14px}
.verdict pre{margin:4px 0 0 16px;font-size:11px;white-space:pre-wrap}
.divergence{border-radius:6px;padding:8px 12px;margin:10px 0;border:2px solid #c2255c;background:#fff0f6}
.divergence.same{border-color:#57ae5b;background:#e3f9e5}
.divergence pre{margin:4px 0 0;font:11px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap}
.divergence .minus{background:#ffe3e3}
.divergence .plus{background:#e3f9e5}
.notes{color:#9b1c1c;font-size:12px;margin:4px 0}
details.notes summary{cursor:pointer}
details.notes pre{font-size:11px;white-space:pre-wrap;margin:4px 0 4px 14px}
.tools{margin:4px 0 6px;font-size:12px}
.tools button{font:inherit;min-width:28px;margin-right:4px}
.tools .hint{color:#52606d;margin-left:8px}
.chart{overflow-x:auto;border:1px solid #e4e7eb;border-radius:6px;cursor:grab;user-select:none}
.chart:focus{outline:2px solid #9fb3c8}
.chart.drag{cursor:grabbing}
svg text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:10px;fill:#323f4b}
svg .lbl{font-size:11px;font-weight:600}
svg .skew{font-size:9px;fill:#52606d}
svg .lck{font-size:8px;fill:#7b8794}
svg .runl{font-size:12px;font-weight:700;fill:#1f2933;paint-order:stroke;stroke:#fff;stroke-width:4px;stroke-linejoin:round}
svg .runbg{fill:none;stroke:#9aa5b1;stroke-width:1}
svg .gutter{fill:#fff;fill-opacity:.85}
svg .ql{font-family:system-ui,sans-serif;font-size:11px;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
svg .tk{fill:#616e7c}
svg .fine{display:none}
svg .brk{fill:#f5f7fa}
svg .brkl{fill:#9aa5b1;font-size:9px}
svg .subax{display:none}
svg .subb{stroke:#7b8794;stroke-width:1}
svg .subl{fill:#52606d;font-size:9px}
svg .lane0{fill:#fafbfc}
svg .lane1{fill:#f0f4f8}
svg .rule{stroke:#cbd2d9;stroke-width:1}
svg .fault{stroke:#d64545;stroke-width:1;stroke-dasharray:4 3}
svg .fault.armed{stroke:#f29b9b;stroke-dasharray:1 3}
svg .fl{fill:#ab091e;font-size:9px}
svg .viol{stroke:#e12d39;stroke-width:2}
svg .divrule{stroke:#c2255c;stroke-width:2.5;stroke-dasharray:6 3}
svg .divring{fill:none;stroke:#c2255c;stroke-width:2.5}
svg .m{stroke:#1f2933;stroke-width:.6}
svg .m.in{fill:#fff}
svg .m.out{fill:#3e4c59}
svg .m.fault{fill:#e12d39}
svg .m.drop{fill:#f0b429}
svg .m.reject{fill:#cf1124}
svg .m.probe{fill:#a368fc}
svg .m.sched,svg .m.note{fill:#9aa5b1;stroke:none}
svg .ring{fill:none;stroke:#e12d39;stroke-width:2}
svg .ring.wit{stroke:#f0b429;stroke-width:1.5}
svg .mk.sel .m{stroke:#c2255c;stroke-width:2.2}
svg .mk.cur .m{stroke:#000;stroke-width:3}
svg .msg{stroke:#b8c2cc;stroke-width:.8;fill:none}
svg .msg.delivery{stroke:#2f6fde;stroke-width:1.3}
svg .msg.cancel{stroke:#d64545;stroke-width:1.3}
svg .msg.result{stroke:#2d8a5f;stroke-width:1.3}
svg .msg.rpc,svg .msg.reply{stroke:#8e44ad;stroke-width:1.2}
svg .msg.failure{stroke:#e8590c;stroke-width:1.2;stroke-dasharray:3 2}
svg .msg.claim,svg .msg.release{stroke:#14919b;stroke-width:1.1}
svg .msg.connect{stroke:#9aa5b1;stroke-dasharray:2 2}
svg .msg.lost{stroke:#cf1124;stroke-dasharray:4 2;stroke-width:1.3}
svg .msg.delayed{stroke:#e8590c;stroke-width:3}
svg .msg.inflight{stroke-dasharray:1 3}
svg .msg.sel{stroke:#c2255c;stroke-width:2.5}
svg .ahp{fill:#52606d}
svg .lostx path{stroke:#cf1124;stroke-width:2.2}
svg .dly{fill:#e8590c;font-size:9px;font-weight:700;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
svg .ph.open{fill:#5b9cf5}
svg .ph.continued{fill:#f7b23b}
svg .end.settled{fill:#3f9142}
svg .end.removed,svg .end.ended{fill:#7b8794}
svg .dl{stroke:#cf1124;stroke-width:2}
svg .tm{stroke:#cf1124;stroke-width:1;stroke-dasharray:2 2}
svg .ans{fill:#102a43}
svg .exp{stroke:#cf1124;stroke-width:1.5}
svg .exp.cdx{stroke-width:2.4}
svg .cls{fill:#52606d}
svg .claim{fill:#27ab83;opacity:.85}
svg .claim.open{fill:#8eedc7}
svg .cd.running{fill:#4dabf7}
svg .cd.paused{fill:#a5d8ff}
svg .cd.frozen{fill:#adb5bd}
svg .cd.held{fill:#9775fa}
svg .cddue{stroke:#cf1124;stroke-width:2}
svg a:hover .m,svg a:hover .claim,svg a:hover .ph,svg a:hover .cd{stroke:#000;stroke-width:1.5}
.legend{font-size:12px;color:#52606d;margin:6px 0 8px}
.legend span{margin-right:14px;white-space:nowrap;display:inline-block}
.legend i{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:4px;vertical-align:-1px;border:1px solid #1f2933}
.legend .kind{cursor:pointer}
.legend .kind.off{opacity:.35;text-decoration:line-through}
.legend b.ln{display:inline-block;width:18px;height:0;border-top:2px solid;margin-right:4px;vertical-align:3px}
.panel{position:fixed;right:16px;bottom:16px;max-width:min(760px,60vw);max-height:45vh;overflow:auto;background:#fff;border:1px solid #9aa5b1;border-radius:6px;box-shadow:0 4px 16px rgba(0,0,0,.18);padding:8px 10px;font:11px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre}
.panel h3{font:600 12px system-ui,sans-serif;margin:4px 0}
.panel .close{float:right;font:inherit}
.records{font:11px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre;overflow-x:auto;border:1px solid #e4e7eb;border-radius:6px;padding:6px 8px}
.records div:target{background:#fff3c4}
.records .hit{background:#ffe3e3;font-weight:700}
.records .wit{background:#fff8e1}
.records .div{background:#fcc2d7;font-weight:700}
.records .sel{background:#fff0f6}
details{margin:8px 0}
summary{cursor:pointer;font-weight:600}
`

// messageKinds are the kinds of message arrows (message.kind); a legend entry hides
// or shows its kinds (the script toggles hide-KIND on the picture).
var messageKinds = []string{"delivery", "frame", "cancel", "result", "rpc", "reply", "failure", "claim", "release", "connect"}

// kindCSS hides each kind's arrows while the picture has its hide- class.
var kindCSS = func() string {
	var b strings.Builder
	for _, k := range messageKinds {
		b.WriteString("svg.hide-" + k + " .m-" + k + "{display:none}\n")
	}
	return b.String()
}()
