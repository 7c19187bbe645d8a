package timeline

// script is the page's inline script: zoom and pan on the time axis, and the panel a
// click on a mark opens. It reads only the page itself (the data-x/data-x2 base
// positions the renderer wrote, the records' data-k relation keys and data-m message
// partners) and writes text with textContent, never markup: nothing from a scenario or
// a host is ever parsed as HTML. Without it (scripts off) the page is the same picture,
// and every mark still links to its record.
//
// A link can open the page zoomed around a record with its panel open:
// page.html?zoom=4&select=r0042.
//
// The view maps a base x to L + (x - L) * zoom - offset; the lane and call labels sit
// outside the clipped plot and stay put. A run wider than the window opens fitted to it
// (a zoom below 1), and tick labels closer than 48 px are hidden at each zoom (a skewed
// client's clock reading under a tick with it). body data-ready="1" says it ran (the browser
// test reads it), and an uncaught error is written to body data-js-error.
const script = `(function () {
  "use strict";
  window.addEventListener("error", function (e) { document.body.setAttribute("data-js-error", String(e.message)); });
  var svg = document.getElementById("tl"), chart = document.getElementById("chart"), panel = document.getElementById("panel");
  if (!svg || !chart || !panel) { return; }
  var L = +svg.getAttribute("data-left"), R = +svg.getAttribute("data-right"), W = R - L;
  var pad = +svg.getAttribute("width") - R, H = svg.getAttribute("height");
  // a run wider than the window opens fitted to it (zoom below 1); V is the visible plot
  var V = W, zmin = 1;
  function fit() {
    var avail = chart.clientWidth - 2;
    if (avail > 0 && L + W + pad > avail) {
      V = Math.max(avail - L - pad, 100);
      zmin = V / W;
    } else {
      V = W;
      zmin = 1;
    }
    svg.setAttribute("width", (L + V + pad).toFixed(1));
    svg.setAttribute("viewBox", "0 0 " + (L + V + pad).toFixed(1) + " " + H);
  }
  var ticks = [], fineTicks = [], flabels = [], readings = [], subs = [];
  var els = Array.prototype.slice.call(svg.querySelectorAll("[data-x]")).map(function (e) {
    var a = function (n) { var v = e.getAttribute(n); return v === null ? null : +v; };
    return { e: e, t: e.tagName.toLowerCase(), x: a("data-x"), x2: a("data-x2"), y: a("data-y"), minw: a("data-minw") || 0 };
  });
  els.forEach(function (b) {
    var c = b.e.getAttribute("class") || "";
    if (c.split(" ").indexOf("tk") >= 0 || c.indexOf("tkl") >= 0) { (c.indexOf("fine") >= 0 ? fineTicks : ticks).push(b); }
    // a fault label's width: its own text, not its tooltip's
    if (c === "fl") { var t0 = b.e.firstChild; b.w = (t0 && t0.nodeType === 3 ? t0.nodeValue.length : 0) * 5.6 + 4; b.row = b.e.getAttribute("y"); flabels.push(b); }
    if (c === "subl") { subs.push(b); }
    if (c.indexOf("lck") === 0) { b.k = +b.e.getAttribute("data-tick"); b.fine = c.indexOf("fine") > 0; readings.push(b); }
  });
  fit();
  var z = zmin, off = 0;
  function X(x) { return L + (x - L) * z - off; }
  function draw() {
    off = Math.min(Math.max(off, 0), Math.max(0, W * z - V));
    els.forEach(function (b) {
      var e = b.e;
      switch (b.t) {
      case "g": e.setAttribute("transform", "translate(" + X(b.x).toFixed(1) + "," + b.y + ")"); break;
      case "line": e.setAttribute("x1", X(b.x).toFixed(1)); e.setAttribute("x2", X(b.x2 === null ? b.x : b.x2).toFixed(1)); break;
      case "rect":
        var x0 = X(b.x);
        e.setAttribute("x", x0.toFixed(1));
        if (b.x2 !== null) { e.setAttribute("width", Math.max(X(b.x2) - x0, b.minw).toFixed(1)); }
        break;
      case "circle": e.setAttribute("cx", X(b.x).toFixed(1)); break;
      default: e.setAttribute("x", X(b.x).toFixed(1));
      }
    });
    // tick labels at least 48 px apart at this zoom (their rules with them): the
    // labelled ticks first, then the finer ones where they fit between
    var shown = [], last = -1e9, tickShown = [];
    for (var i = 0; i + 1 < ticks.length; i += 2) {
      var x = X(ticks[i].x), show = x - last >= 48;
      ticks[i].e.style.display = ticks[i + 1].e.style.display = show ? "" : "none";
      tickShown.push(show);
      if (show) { last = x; shown.push(x); }
    }
    var fineShown = [];
    for (var j = 0; j + 1 < fineTicks.length; j += 2) {
      var fx = X(fineTicks[j].x), ok = fx >= L && fx <= L + V;
      for (var k = 0; ok && k < shown.length; k++) { if (Math.abs(shown[k] - fx) < 48) { ok = false; } }
      fineTicks[j].e.style.display = fineTicks[j + 1].e.style.display = ok ? "inline" : "none";
      fineShown.push(ok);
      if (ok) { shown.push(fx); }
    }
    // a skewed client's clock reading shows under its tick only
    readings.forEach(function (b) { b.e.style.display = (b.fine ? fineShown : tickShown)[b.k] ? "inline" : "none"; });
    // an instant's bracket on the sequence sub-axis shows once its records are spread
    // wider than its label
    subs.forEach(function (b) {
      var x0 = Math.max(X(b.x), L), x1 = Math.min(X(b.x2), L + V);
      b.e.parentNode.style.display = x1 - x0 >= 110 ? "inline" : "none";
      b.e.setAttribute("x", x0.toFixed(1));
    });
    // fault labels that would overlap the previous one of their row are hidden (the
    // rule and its tooltip stay); one that would run past the plot's right edge ends at
    // its rule instead
    var ends = {};
    flabels.forEach(function (b) {
      var x = X(b.x), left = x + b.w > L + V + pad;
      if (left) { x = X(b.x) - 4 - b.w; }
      b.e.setAttribute("x", (left ? x + b.w : x).toFixed(1));
      b.e.setAttribute("text-anchor", left ? "end" : "start");
      var show = !(b.row in ends) || x >= ends[b.row];
      b.e.style.display = show ? "" : "none";
      if (show) { ends[b.row] = x + b.w; }
    });
    var zl = document.getElementById("zoomlevel");
    if (zl) { zl.textContent = "zoom " + (z < 1 ? z.toFixed(2) : z.toFixed(1)) + "x"; }
  }
  function zoomAt(f, px) {
    var nz = Math.min(Math.max(z * f, zmin), 500);
    off = L + (px + off - L) * nz / z - px;
    z = nz;
    draw();
  }
  function pointer(ev) { return ev.clientX - svg.getBoundingClientRect().left; }
  function centre() { return L + V / 2; }
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    switch (ev.key) {
    case "+": case "=": zoomAt(1.5, centre()); break;
    case "-": case "_": zoomAt(1 / 1.5, centre()); break;
    case "0": z = zmin; off = 0; draw(); break;
    case "ArrowLeft": off -= V * 0.15; draw(); break;
    case "ArrowRight": off += V * 0.15; draw(); break;
    case "Escape": closePanel(); return;
    default: return;
    }
    ev.preventDefault();
  });
  Array.prototype.forEach.call(document.querySelectorAll("[data-zoom]"), function (b) {
    b.addEventListener("click", function () {
      var k = b.getAttribute("data-zoom");
      if (k === "in") { zoomAt(1.5, centre()); } else if (k === "out") { zoomAt(1 / 1.5, centre()); } else { z = zmin; off = 0; draw(); }
    });
  });
  // ctrl/cmd + wheel (and a trackpad pinch) zooms at the pointer, shift + wheel or a
  // sideways wheel pans, a plain wheel scrolls the page as usual
  // a legend entry of a message kind hides or shows its arrows
  Array.prototype.forEach.call(document.querySelectorAll(".legend [data-kinds]"), function (s) {
    s.addEventListener("click", function () {
      var off = !s.classList.contains("off");
      s.classList.toggle("off", off);
      s.getAttribute("data-kinds").split(" ").forEach(function (k) { svg.classList.toggle("hide-" + k, off); });
    });
  });
  chart.addEventListener("wheel", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) {
      zoomAt(Math.exp(-ev.deltaY * 0.0025), pointer(ev));
    } else if (ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) {
      off += ev.deltaX || ev.deltaY;
      draw();
    } else {
      return;
    }
    ev.preventDefault();
  }, { passive: false });
  var drag = null, moved = false;
  chart.addEventListener("mousedown", function (ev) {
    if (ev.button !== 0) { return; }
    drag = { x: ev.clientX, off: off };
    moved = false;
  });
  window.addEventListener("mousemove", function (ev) {
    if (!drag) { return; }
    if (Math.abs(ev.clientX - drag.x) > 3) { moved = true; chart.classList.add("drag"); }
    if (moved) { off = drag.off - (ev.clientX - drag.x); draw(); }
  });
  window.addEventListener("mouseup", function () { drag = null; chart.classList.remove("drag"); });
  window.addEventListener("resize", function () {
    var atZmin = z === zmin;
    fit();
    if (atZmin || z < zmin) { z = zmin; }
    draw();
  });

  var selected = [];
  function clearSel() {
    selected.forEach(function (e) { e.classList.remove("sel"); e.classList.remove("cur"); });
    selected = [];
  }
  function mark(id, cls) {
    Array.prototype.forEach.call(document.querySelectorAll("[data-r='" + id + "'].mk, line.msg[data-r='" + id + "']"), function (e) {
      e.classList.add(cls);
      selected.push(e);
    });
    var d = document.getElementById(id);
    if (d) { d.classList.add("sel"); selected.push(d); }
  }
  function closePanel() { panel.hidden = true; clearSel(); }
  function line(id) {
    var d = document.getElementById(id), a = document.createElement("a");
    a.href = "#" + id;
    a.textContent = d ? d.textContent : id;
    a.style.display = "block";
    return a;
  }
  function heading(t) { var h = document.createElement("h3"); h.textContent = t; return h; }
  function show(id) {
    var d = document.getElementById(id);
    if (!d) { return; }
    clearSel();
    panel.textContent = "";
    var close = document.createElement("button");
    close.className = "close";
    close.type = "button";
    close.textContent = "close (Esc)";
    close.addEventListener("click", closePanel);
    panel.appendChild(close);
    panel.appendChild(heading("record"));
    panel.appendChild(line(id));
    mark(id, "cur");
    var partners = (d.getAttribute("data-m") || "").split(" ").filter(Boolean);
    if (partners.length) {
      panel.appendChild(heading("its message's other end"));
      partners.forEach(function (p) { panel.appendChild(line(p)); mark(p, "sel"); });
    }
    var keys = (d.getAttribute("data-k") || "").split(" ").filter(Boolean);
    var caused = [];
    if (keys.length) {
      for (var n = d.nextElementSibling; n && caused.length < 60; n = n.nextElementSibling) {
        var nk = (n.getAttribute("data-k") || "").split(" ");
        if (keys.some(function (k) { return nk.indexOf(k) >= 0; })) { caused.push(n.id); }
      }
    }
    panel.appendChild(heading("what it caused: later records of the same " + (keys.length ? keys.join(", ") : "call or stream (none)") + " (" + caused.length + (caused.length === 60 ? "+" : "") + ")"));
    caused.forEach(function (c) { panel.appendChild(line(c)); mark(c, "sel"); });
    var before = [];
    if (keys.length) {
      for (var p = d.previousElementSibling; p && before.length < 15; p = p.previousElementSibling) {
        var pk = (p.getAttribute("data-k") || "").split(" ");
        if (keys.some(function (k) { return pk.indexOf(k) >= 0; })) { before.unshift(p.id); }
      }
    }
    if (before.length) {
      panel.appendChild(heading("what led to it: the last " + before.length + " earlier records of the same " + keys.join(", ")));
      before.forEach(function (c) { panel.appendChild(line(c)); });
    }
    panel.hidden = false;
  }
  chart.addEventListener("click", function (ev) {
    if (moved) { ev.preventDefault(); moved = false; return; }
    var t = ev.target.closest ? ev.target.closest("[data-r]") : null;
    if (!t) { return; }
    ev.preventDefault();
    show(t.getAttribute("data-r"));
  });
  // a link can open the page zoomed and with a record's panel open:
  // page.html?zoom=4&select=r0042 (zoomed around that record's mark)
  var q = new URLSearchParams(window.location.search), sel = q.get("select"), zq = parseFloat(q.get("zoom") || "0");
  if (zq > 0) {
    var at = L + W / 2;
    var m = sel ? svg.querySelector("[data-r='" + sel.replace(/[^A-Za-z0-9]/g, "") + "'].mk") : null;
    if (m) { at = +m.getAttribute("data-x"); }
    z = Math.min(Math.max(zq, zmin), 500);
    off = L + (at - L) * z - centre();
  }
  draw();
  if (sel) { show(sel.replace(/[^A-Za-z0-9]/g, "")); }
  document.body.setAttribute("data-ready", "1");
})();
`
