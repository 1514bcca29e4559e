/* endpoints-checker report: filters, sort and URL-hash state for the table marked data-filter-table
   (opening on the checkboxes' defaults: errors, flags and warnings); a link into a closed <details>
   opens it. Progressive enhancement only: without this script every row shows. No network, no eval;
   option labels are set with textContent. */
(function () {
  "use strict";
  /* a link to a rule or section inside a closed <details> (the rule catalogue, skipped checks) opens it */
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && id.indexOf("f:") !== 0 ? document.getElementById(id) : null;
    if (!el) { return; }
    var opened = false;
    for (var d = el.parentElement; d; d = d.parentElement) {
      if (d.tagName === "DETAILS" && !d.open) { d.open = true; opened = true; }
    }
    if (opened) { el.scrollIntoView(); }
  }
  window.addEventListener("hashchange", reveal);
  reveal();
  var form = document.querySelector("form.filters");
  var table = document.querySelector("table[data-filter-table]");
  if (!form || !table) { return; }
  var dataEl = document.getElementById("report-data");
  var data = dataEl ? JSON.parse(dataEl.textContent) : {};
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var texts = rows.map(function (r) { return r.textContent.toLowerCase(); });
  var counter = document.getElementById("filter-count");
  var empty = document.getElementById("filter-empty");
  var clean = document.getElementById("filter-clean");
  var sortState = null;
  /* rows carry status, severity and rule; the family comes from the rule (kept out of every row to keep
     the page small), and status/severity sort by rank, not alphabetically */
  var familyOf = data.rule_family || {};
  var severityOf = data.rule_severity || {};
  var RANK = { 0: { error: 0, flag: 1, warning: 2, skipped: 3, passed: 4 },
    1: { reject: 5, "reject-points": 6, flag: 7, warn: 8 } };

  Array.prototype.forEach.call(form.querySelectorAll("select[data-options]"), function (sel) {
    (data[sel.getAttribute("data-options")] || []).forEach(function (v) {
      var o = document.createElement("option");
      o.value = v; o.textContent = v; sel.appendChild(o);
    });
  });

  /* the filter state; a checkbox group is left out when it is as the page set it (so the link stays
     short), unless ``full`` asks for every group (what apply() filters by) */
  function state(full) {
    var s = {}; var checks = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name) { return; }
      if (el.type === "checkbox") {
        checks[el.name] = checks[el.name] || [];
        if (el.checked) { checks[el.name].push(el.value); }
      } else if (el.value) { s[el.name] = el.value; }
    });
    Object.keys(checks).forEach(function (k) {
      var dflt = Array.prototype.filter.call(form.querySelectorAll('input[type=checkbox][name="' + k + '"]'),
        function (el) { return el.defaultChecked; }).map(function (el) { return el.value; });
      if (full || checks[k].join(",") !== dflt.join(",")) { s[k] = checks[k].join(","); }
    });
    if (sortState) { s.sort = sortState.col + ":" + sortState.dir; }
    return s;
  }

  function setState(s) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name) { return; }
      if (el.type === "checkbox") {
        el.checked = el.name in s ? s[el.name].split(",").indexOf(el.value) >= 0 : el.defaultChecked;
      } else if (el.tagName === "SELECT") {
        var ok = Array.prototype.some.call(el.options, function (o) { return o.value === (s[el.name] || ""); });
        el.value = ok ? (s[el.name] || "") : "";
      } else { el.value = s[el.name] || ""; }
    });
    sortState = null;
    if (s.sort) {
      var p = s.sort.split(":");
      sortState = { col: parseInt(p[0], 10) || 0, dir: p[1] === "desc" ? "desc" : "asc" };
    }
  }

  function apply() {
    var s = state(true); var shown = 0; var link = state(false);
    var q = (s.q || "").toLowerCase();
    rows.forEach(function (r, i) {
      var ok = true;
      Object.keys(s).forEach(function (k) {
        if (!ok || k === "q" || k === "sort") { return; }
        var v = r.getAttribute("data-" + k);
        if (v === null && k === "family") { v = familyOf[r.getAttribute("data-rule")] || null; }
        if (v === null && k === "severity") { v = severityOf[r.getAttribute("data-rule")] || null; }
        if (v === null) { return; }
        ok = s[k].split(",").indexOf(v) >= 0;
      });
      if (ok && q) { ok = texts[i].indexOf(q) >= 0; }
      r.hidden = !ok;
      if (ok) { shown += 1; }
    });
    if (counter) { counter.textContent = "Showing " + shown + " of " + rows.length; }
    var isDefault = Object.keys(link).every(function (k) { return k === "sort"; });
    if (empty) { empty.hidden = shown !== 0 || (isDefault && !!clean); }
    if (clean) { clean.hidden = shown !== 0 || !isDefault; }
    sortRows();
    var params = new URLSearchParams();
    Object.keys(link).sort().forEach(function (k) { params.set(k, link[k]); });
    var h = params.toString();
    var target = h ? "#f:" + h : location.pathname + location.search;
    if ((h ? "#f:" + h : "") !== location.hash && (h || location.hash.indexOf("#f:") === 0)) {
      history.replaceState(null, "", target);
    }
  }

  function key(r, col) {
    var c = r.cells[col];
    if (!c) { return ""; }
    var v = c.getAttribute("data-v");
    if (v === null && RANK[col]) {
      var t = c.textContent.trim();
      if (t in RANK[col]) { return RANK[col][t]; }
    }
    if (v !== null && v !== "" && !isNaN(Number(v))) { return Number(v); }
    return (v !== null ? v : c.textContent).toLowerCase();
  }

  function sortRows() {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      if (!th.querySelector("button")) { return; }
      th.setAttribute("aria-sort", sortState && sortState.col === i ? (sortState.dir === "asc" ? "ascending" : "descending") : "none");
    });
    var order = rows.slice();
    if (sortState) {
      var col = sortState.col; var m = sortState.dir === "desc" ? -1 : 1;
      order.sort(function (a, b) {
        var x = key(a, col); var y = key(b, col);
        if (x < y) { return -m; }
        if (x > y) { return m; }
        return rows.indexOf(a) - rows.indexOf(b);
      });
    }
    order.forEach(function (r) { body.appendChild(r); });
  }

  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
    var b = th.querySelector("button");
    if (!b) { return; }
    b.addEventListener("click", function () {
      if (sortState && sortState.col === i) {
        sortState = sortState.dir === "asc" ? { col: i, dir: "desc" } : null;
      } else { sortState = { col: i, dir: "asc" }; }
      apply();
    });
  });

  function fromHash() {
    if (location.hash.indexOf("#f:") !== 0) { return false; }
    var s = {};
    new URLSearchParams(location.hash.slice(3)).forEach(function (v, k) { s[k] = v; });
    setState(s);
    return true;
  }

  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (ev) { ev.preventDefault(); });
  form.addEventListener("reset", function () { setTimeout(function () { sortState = null; apply(); }, 0); });
  window.addEventListener("hashchange", function () { if (fromHash()) { apply(); } });
  window.addEventListener("beforeprint", function () {
    Array.prototype.forEach.call(document.querySelectorAll("details"), function (d) { d.open = true; });
  });
  form.hidden = false;
  fromHash();
  apply();
}());
