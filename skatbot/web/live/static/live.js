// The hall's live page: asks for /stand every few seconds (the server answers 304 while
// nothing changed) and shows the ranking and the tables. Lists longer than the screen are
// shown a page at a time, turning by themselves.
"use strict";

(() => {
  // the server says how often (WebContext.live_poll_seconds); 3 s if it does not
  const POLL_MS = Number(document.body.dataset.pollMs) || 3000;
  const TURN_MS = 10000;
  const base = location.pathname.replace(/\/+$/, "");
  const $ = (id) => document.getElementById(id);
  let last = "";
  let data = null;
  let turn = 0;

  const points = (n) => (n < 0 ? "\u2212" + String(-n) : String(n));

  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // How many rows like `sample` fit into `box` (a grid), and how many columns it has.
  function capacity(box, sample) {
    box.replaceChildren(sample);
    const style = getComputedStyle(box);
    const gap = parseFloat(style.rowGap) || 0;
    const row = sample.getBoundingClientRect().height + gap;
    const rows = Math.max(1, Math.floor((box.clientHeight + gap) / row));
    const columns = style.gridTemplateColumns.split(" ").filter(Boolean).length || 1;
    return { rows, columns };
  }

  // Show the page `turn` of `items` in `box`; `pager` says "Seite 1/3" when there are more.
  function paged(box, items, make, pager) {
    box.style.gridTemplateRows = "";
    if (!items.length) {
      box.replaceChildren();
      pager.textContent = "";
      return;
    }
    const { rows, columns } = capacity(box, make(items[0]));
    const perPage = rows * columns;
    // a ranking in columns reads down the left first, then on at the top right
    if (box.classList.contains("cols-2")) box.style.gridTemplateRows = `repeat(${rows}, auto)`;
    const pages = Math.ceil(items.length / perPage);
    const page = turn % pages;
    box.replaceChildren(...items.slice(page * perPage, (page + 1) * perPage).map(make));
    pager.textContent = pages > 1 ? `Seite ${page + 1}/${pages}` : "";
  }

  // One column if it holds everyone; else two, in smaller type if names would be cut
  // short; else one column, a page at a time.
  function showRanking(items) {
    const box = $("ranking");
    const pager = $("ranking-page");
    box.style.setProperty("--place", items.length > 99 ? "4.2ch" : "3.2ch");
    box.className = "";
    const one = items.length ? capacity(box, rankingRow(items[0])).rows : 1;
    if (items.length > one) {
      for (const layout of ["cols-2", "cols-2 smaller"]) {
        box.className = layout;
        paged(box, items, rankingRow, pager);
        const names = [...box.querySelectorAll(".name")];
        if (!names.some((n) => n.scrollWidth > n.clientWidth + 1)) return;
      }
      box.className = "";
    }
    paged(box, items, rankingRow, pager);
  }

  function rankingRow(r) {
    const li = el("li", r.place <= 3 ? "top" : "");
    li.append(el("span", "place", r.place + "."), el("span", "name", r.name),
      el("span", "points", points(r.points)));
    return li;
  }

  const STATES = { reported: "gemeldet", signing: "unterschreibt", waiting: "wartet" };

  function tableTile(t) {
    const li = el("li", t.state);
    const count = t.state === "reported" ? "\u2713 gemeldet" : `${t.played}/${t.games}`;
    const row = el("div", "row");
    const bar = el("div", "bar");
    const fill = el("div");
    fill.style.width = `${Math.min(100, (100 * t.played) / Math.max(1, t.games))}%`;
    bar.append(fill);
    if (t.state === "reported") row.append(el("span", "count", count));
    else row.append(bar, el("span", "count", count));
    li.append(el("div", "label", `Tisch ${t.table}`), row);
    if (STATES[t.state]) li.title = STATES[t.state];
    return li;
  }

  function progressLine(series) {
    const box = $("progress");
    box.replaceChildren();
    if (!series.length) {
      box.textContent = "Noch nicht ausgelost";
      return;
    }
    const s = series[series.length - 1];
    const done = s.reported === s.tables;
    box.append(`Serie ${s.number}: `,
      el("span", done ? "done" : "", `${s.reported} von ${s.tables} Tischen gemeldet`));
  }

  function render() {
    if (!data) return;
    document.title = `Leinwand – ${data.name}`;
    $("name").textContent = data.name;
    $("over").hidden = !data.over;
    $("over").textContent = data.final ? "Turnier beendet \u2013 Endstand" : "Turnier beendet";
    progressLine(data.series);
    $("ranking-empty").hidden = data.ranking.length > 0;
    showRanking(data.ranking);
    const current = data.series.length ? data.series[data.series.length - 1].number : null;
    $("tables-box").hidden = !data.tables.length;
    $("tables-title").firstChild.textContent = current ? `Tische der Serie ${current} ` : "Tische ";
    paged($("tables"), data.tables, tableTile, $("tables-page"));
  }

  function status(text, offline) {
    const footer = $("status");
    footer.textContent = text;
    footer.classList.toggle("offline", offline);
  }

  async function poll() {
    try {
      const answer = await fetch(base + "/stand", { cache: "no-cache" });
      if (answer.status === 404) {
        location.reload(); // the server's page says the link is gone
        return;
      }
      if (answer.ok) {
        const text = await answer.text();
        if (text !== last) {
          last = text;
          data = JSON.parse(text);
          render();
        }
        const now = new Date();
        const hh = String(now.getHours()).padStart(2, "0");
        const mm = String(now.getMinutes()).padStart(2, "0");
        status(`Stand ${hh}:${mm} Uhr \u00b7 aktualisiert sich von selbst`, false);
      }
    } catch (e) {
      status("Keine Verbindung \u2013 versuche es weiter \u2026", true);
    }
    setTimeout(poll, POLL_MS);
  }

  setInterval(() => { turn += 1; render(); }, TURN_MS);
  window.addEventListener("resize", render);
  poll();
})();
