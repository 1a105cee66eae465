"use strict";
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const body = document.getElementById("units-body");
  const filterText = document.getElementById("filter-text");
  const filterLabel = document.getElementById("filter-label");
  const filterKind = document.getElementById("filter-kind");
  const count = document.getElementById("shown-count");
  let sortKey = "order", sortDir = 1;

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => { if (k === "text") node.textContent = v; else node.setAttribute(k, v); });
    (children || []).forEach((c) => node.appendChild(c));
    return node;
  }

  function snippetBlock(span, snippet) {
    const pre = el("pre");
    snippet.split("\n").forEach((line, i) => {
      pre.appendChild(el("span", { class: "ln", text: String(span.start_line + i) }));
      pre.appendChild(document.createTextNode(line + "\n"));
    });
    return pre;
  }

  function detail(r) {
    const td = el("td", { colspan: "7" });
    td.appendChild(el("div", { text: "Claim: " + (r.claim_text || r.unit.claim) }));
    if (r.unit.quote) td.appendChild(el("blockquote", { text: r.unit.quote }));
    if (r.reason) td.appendChild(el("div", { text: "Why: " + r.reason }));
    if (r.next_step) td.appendChild(el("div", { class: "next-step", text: "Next step: " + r.next_step }));
    if (r.error) td.appendChild(el("div", { class: "error", text: "Judge error: " + r.error }));
    r.evidence.slice(0, 3).forEach((span) => {
      const where = span.path + ":" + span.start_line + (span.end_line !== span.start_line ? "-" + span.end_line : "");
      td.appendChild(el("div", { text: "Evidence: " + where + (span.symbol ? " in " + span.symbol : "") }));
      const cand = r.candidates.find((c) => c.span.path === span.path && c.span.start_line <= span.start_line && span.start_line <= c.span.end_line);
      const copied = (r.evidence_code || []).find((c) => c.span.path === span.path && c.span.start_line === span.start_line && c.span.end_line === span.end_line);
      if (cand && cand.snippet) {
        const skip = span.start_line - cand.span.start_line;
        const lines = cand.snippet.split("\n").slice(skip, skip + 8).join("\n");
        td.appendChild(snippetBlock({ start_line: span.start_line }, lines));
      } else if (copied && copied.lines.length) {
        td.appendChild(snippetBlock({ start_line: span.start_line }, copied.lines.join("\n")));
        if (copied.more_lines) td.appendChild(el("div", { class: "note", text: "… " + copied.more_lines + " more line(s) in the file" }));
      } else {
        td.appendChild(el("div", { class: "note", text: "Code not shown: " + ((copied && copied.unreadable) || "this report carries no copy of these lines") }));
      }
    });
    const list = el("ul");
    r.verdicts.forEach((v) => {
      const who = v.model || v.judge;
      const rule = v.rule ? " [" + v.rule + "]" : "";
      const text = v.abstained ? who + ": abstained" + rule + (v.error ? " (" + v.error + ")" : "") : who + ": " + v.label + rule + " (confidence " + v.confidence.toFixed(2) + ") " + v.reason;
      list.appendChild(el("li", { text: text }));
    });
    td.appendChild(el("div", { text: "Verdicts:" }));
    td.appendChild(list);
    return el("tr", { class: "detail" }, [td]);
  }

  function row(r, i) {
    const tr = el("tr", { class: "unit", "data-id": r.unit.id, "data-label": r.label });
    const cells = [
      r.unit.id, r.unit.kind, null, r.score === null ? "–" : r.score.toFixed(2),
      r.agreement === null ? "–" : Math.round(r.agreement * 100) + "%", r.unit.section || "", r.claim_text || r.unit.claim,
    ];
    cells.forEach((c, j) => {
      const td = el("td");
      if (j === 2) {
        td.appendChild(el("span", { class: "label " + r.label, text: r.label }));
        if (r.rule_note) td.appendChild(el("span", { class: "rule", text: " (" + r.rule_note + ")" }));
        if (r.needs_review) td.appendChild(el("span", { class: "review", text: " review" }));
        if (r.error) td.appendChild(el("span", { class: "error", text: " error" }));
      } else td.textContent = c;
      tr.appendChild(td);
    });
    let open = null;
    tr.addEventListener("click", () => {
      if (open) { open.remove(); open = null; } else { open = detail(r); tr.after(open); }
    });
    return tr;
  }

  const value = {
    order: (r) => r._order, id: (r) => r.unit.id, kind: (r) => r.unit.kind, label: (r) => r.label,
    score: (r) => (r.score === null ? -1 : r.score), agreement: (r) => (r.agreement === null ? -1 : r.agreement),
    section: (r) => r.unit.section || "", claim: (r) => r.unit.claim,
  };

  function render() {
    const q = filterText.value.toLowerCase();
    const rows = data.results.filter((r) =>
      (!filterLabel.value || r.label === filterLabel.value) &&
      (!filterKind.value || r.unit.kind === filterKind.value) &&
      (!q || (r.unit.id + " " + r.unit.claim + " " + (r.claim_text || "") + " " + (r.unit.quote || "") + " " + (r.reason || "") + " " + (r.rule_note || "")).toLowerCase().includes(q)));
    rows.sort((a, b) => { const x = value[sortKey](a), y = value[sortKey](b); return (x < y ? -1 : x > y ? 1 : 0) * sortDir; });
    body.replaceChildren(...rows.map(row));
    count.textContent = rows.length + " of " + data.results.length + " units";
  }

  data.results.forEach((r, i) => { r._order = i; });
  document.querySelectorAll("th[data-key]").forEach((th) => th.addEventListener("click", () => {
    const key = th.getAttribute("data-key");
    sortDir = key === sortKey ? -sortDir : 1; sortKey = key;
    document.querySelectorAll("th[data-key]").forEach((h) => h.classList.remove("sorted-asc", "sorted-desc"));
    th.classList.add(sortDir > 0 ? "sorted-asc" : "sorted-desc");
    render();
  }));
  [filterText, filterLabel, filterKind].forEach((c) => c.addEventListener("input", render));
  render();
})();
