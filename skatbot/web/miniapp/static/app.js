// The Mini App page: plain JavaScript, no build step, nothing from a CDN.
// Telegram opens it with its login (initData) and theme in the URL fragment
// (#tgWebAppData=…&tgWebAppThemeParams=…); telegram-web-app.js is not loaded, so the
// fragment is read here, and window.Telegram.WebApp is used only where a client provides it.
"use strict";

(function () {
  const DEBOUNCE_MS = 250;
  const MOST_MATADORS = { grand: 4 };
  const SUIT_MOST = 11;

  // ---- launch parameters -------------------------------------------------------------

  function hashParams() {
    const params = {};
    const raw = (window.location.hash || "").replace(/^#/, "");
    for (const part of raw.split("&")) {
      if (!part) continue;
      const eq = part.indexOf("=");
      const key = eq < 0 ? part : part.slice(0, eq);
      const value = eq < 0 ? "" : part.slice(eq + 1);
      try {
        params[decodeURIComponent(key)] = decodeURIComponent(value.replace(/\+/g, "%20"));
      } catch (e) {
        params[key] = value;
      }
    }
    return params;
  }

  const launch = hashParams();
  // A web_app button opens /app?start=<token>: every API call passes the token on.
  const startToken = new URLSearchParams(window.location.search).get("start") || "";
  const webApp = window.Telegram && window.Telegram.WebApp ? window.Telegram.WebApp : null;
  const initData = (webApp && webApp.initData) || launch.tgWebAppData || "";

  function themeParams() {
    if (webApp && webApp.themeParams && Object.keys(webApp.themeParams).length) {
      return webApp.themeParams;
    }
    try {
      return launch.tgWebAppThemeParams ? JSON.parse(launch.tgWebAppThemeParams) : {};
    } catch (e) {
      return {};
    }
  }

  const THEME_VARS = {
    bg_color: "--bg",
    text_color: "--text",
    hint_color: "--hint",
    link_color: "--link",
    button_color: "--button",
    button_text_color: "--button-text",
    secondary_bg_color: "--secondary-bg",
    section_bg_color: "--section-bg",
    destructive_text_color: "--destructive",
  };

  function applyTheme() {
    const theme = themeParams();
    const root = document.documentElement.style;
    for (const [key, name] of Object.entries(THEME_VARS)) {
      const colour = theme[key];
      if (typeof colour === "string" && /^#[0-9a-fA-F]{3,8}$/.test(colour)) {
        root.setProperty(name, colour);
      }
    }
    // A theme without a section colour: sections in the page colour
    if (theme.bg_color && !theme.section_bg_color) root.setProperty("--section-bg", theme.bg_color);
  }

  // Without telegram-web-app.js the page talks to the Telegram client itself, as that script
  // would (core.telegram.org/api/web-events): a mobile client's proxy, a desktop client's
  // external.notify, or the web client around its frame.
  function postEvent(type, data) {
    const message = JSON.stringify({ eventType: type, eventData: data });
    try {
      if (window.TelegramWebviewProxy && typeof window.TelegramWebviewProxy.postEvent === "function") {
        window.TelegramWebviewProxy.postEvent(type, JSON.stringify(data));
      } else if (window.external && typeof window.external.notify === "function") {
        window.external.notify(message);
      } else if (window.parent && window.parent !== window) {
        window.parent.postMessage(message, "*");
      }
    } catch (e) {
      // not in Telegram, or a client without this way: the page works without it
    }
  }

  function receiveEvent(type, data) {
    if (type === "theme_changed" && data && data.theme_params) {
      launch.tgWebAppThemeParams = JSON.stringify(data.theme_params);
      applyTheme();
    }
  }

  function listenToClient() {
    window.Telegram = window.Telegram || {};
    window.Telegram.WebView = window.Telegram.WebView || { receiveEvent };
    window.TelegramGameProxy = window.TelegramGameProxy || { receiveEvent };
    window.addEventListener("message", (event) => {
      if (event.source !== window.parent || window.parent === window) return;
      try {
        const parsed = JSON.parse(event.data);
        if (parsed && parsed.eventType) receiveEvent(parsed.eventType, parsed.eventData);
      } catch (e) {
        // not a client's event
      }
    });
  }

  // ---- small helpers -----------------------------------------------------------------

  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function signed(n) {
    if (n > 0) return "+" + n;
    if (n < 0) return "−" + Math.abs(n);
    return "0";
  }

  function number(n) {
    return n < 0 ? "−" + Math.abs(n) : String(n);
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // The 63 real bid values (ISkO 3.3.1), as skatbot.rules.bids computes them.
  function bidValues() {
    const values = new Set([23, 35, 46, 59]);
    for (const base of [9, 10, 11, 12, 24]) {
      const top = base === 24 ? 11 : 18;
      for (let m = 2; m <= top; m++) values.add(base * m);
    }
    return Array.from(values).filter((v) => v >= 18 && v <= 264).sort((a, b) => a - b);
  }

  // ---- the API -----------------------------------------------------------------------

  class LoginError extends Error {}

  const GERMAN_STATUS = {
    401: "Die Anmeldung ist abgelaufen oder ungültig. Bitte die Skatliste im Chat neu öffnen (/app).",
    403: "Diese Liste gehört zu einem Chat, in dem Sie nicht Mitglied sind.",
    404: "Hier gibt es noch keine Liste. Im Chat mit /neu Anna Bernd Carla beginnen.",
    409: "Das ging gerade nicht, die Liste hat sich geändert. Bitte noch einmal versuchen.",
    429: "Zu viele Anfragen. Bitte einen Moment warten.",
  };

  function withStart(path) {
    return startToken ? path + "?start=" + encodeURIComponent(startToken) : path;
  }

  async function call(method, path, body) {
    const headers = { Authorization: "tma " + initData };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let answer;
    try {
      answer = await fetch(withStart(path), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
      });
    } catch (e) {
      throw new Error("Keine Verbindung zum Server. Bitte gleich noch einmal versuchen.");
    }
    let data = null;
    const type = answer.headers.get("Content-Type") || "";
    if (type.includes("application/json")) {
      try {
        data = await answer.json();
      } catch (e) {
        data = null;
      }
    }
    if (answer.status === 401) {
      throw new LoginError((data && data.error) || GERMAN_STATUS[401]);
    }
    if (!answer.ok || (data && data.ok === false && method !== "POST")) {
      const message =
        (data && (data.error || data.message)) ||
        GERMAN_STATUS[answer.status] ||
        "Das hat nicht geklappt (Fehler " + answer.status + "). Bitte noch einmal versuchen.";
      const err = new Error(message);
      err.data = data;
      err.status = answer.status;
      throw err;
    }
    return data;
  }

  const api = {
    list: () => call("GET", "/api/app/list"),
    preview: (text) => call("POST", "/api/app/preview", { text }),
    book: (text, key) => call("POST", "/api/app/book", { text, key }),
    chart: async () => {
      const answer = await fetch(withStart("/api/app/chart.png"), {
        headers: { Authorization: "tma " + initData },
        cache: "no-store",
      });
      if (!answer.ok) return null;
      return answer.blob();
    },
  };

  // ---- the form ----------------------------------------------------------------------

  const form = {
    declarer: null,
    game: null,
    mit: null,
    matadors: null,
    levels: new Set(),
    bid: "",
    result: null,
  };
  let state = null; // the list as the API last gave it
  let key = newKey(); // one booking's idempotency key: a repeated tap books once
  let previewTimer = null;
  let previewSeq = 0;
  let previewOk = false;

  function isNull() {
    return form.game === "null";
  }

  function words() {
    const out = [];
    if (form.declarer) out.push(form.declarer);
    if (form.game) out.push(form.game);
    if (form.game && !isNull() && form.mit && form.matadors) out.push(form.mit + " " + form.matadors);
    const levels = isNull()
      ? ["hand", "ouvert"]
      : ["hand", "schneider", "schneider angesagt", "schwarz", "schwarz angesagt", "ouvert"];
    for (const level of levels) if (form.levels.has(level)) out.push(level);
    if (form.bid) out.push("reiz " + form.bid);
    if (form.result) out.push(form.result);
    return out.join(" ");
  }

  function missing() {
    if (!form.declarer) return "Wer hat gespielt? Bitte den Alleinspieler antippen.";
    if (!form.game) return "Welches Spiel? Bitte Kreuz, Pik, Herz, Karo, Grand oder Null antippen.";
    if (!isNull() && !(form.mit && form.matadors)) return "Mit oder ohne wie viele Spitzen?";
    if (!form.result) return "Gewonnen oder verloren?";
    return null;
  }

  function press(container, attr, value) {
    for (const b of container.querySelectorAll("button")) {
      b.setAttribute("aria-pressed", String(b.getAttribute(attr) === String(value)));
    }
  }

  function renderForm() {
    press($("spiel"), "data-spiel", form.game);
    press($("mitohne"), "data-mit", form.mit);
    press($("spitzen"), "data-zahl", form.matadors);
    press($("ergebnis"), "data-ergebnis", form.result);
    press($("spieler"), "data-name", form.declarer);
    for (const b of $("stufen").querySelectorAll("button")) {
      b.setAttribute("aria-pressed", String(form.levels.has(b.dataset.stufe)));
      b.hidden = isNull() && b.hasAttribute("data-farbe");
    }
    $("spitzen-feld").hidden = isNull();
    const most = MOST_MATADORS[form.game] || SUIT_MOST;
    for (const b of $("spitzen").querySelectorAll("button")) {
      b.hidden = Number(b.dataset.zahl) > most;
    }
    schedulePreview();
  }

  function choose(event, attr, apply) {
    const button = event.target.closest("button");
    if (!button || button.disabled || !button.hasAttribute(attr)) return;
    apply(button.getAttribute(attr));
    $("meldung").textContent = "";
    $("meldung").className = "meldung";
    renderForm();
  }

  function buildMatadorButtons() {
    const box = $("spitzen");
    for (let n = 1; n <= SUIT_MOST; n++) {
      box.append(el("button", { type: "button", "data-zahl": n, "aria-label": n + " Spitzen" }, n));
    }
  }

  function buildBidOptions() {
    const select = $("reiz");
    for (const v of bidValues()) select.append(el("option", { value: v }, v));
  }

  function buildPlayerButtons() {
    const box = $("spieler");
    const players = state.players || [];
    const chosen = form.declarer;
    box.replaceChildren();
    for (const name of players) {
      const sitsOut = players.length === 4 && name === state.dealer;
      box.append(
        el(
          "button",
          { type: "button", "data-name": name, disabled: sitsOut, title: sitsOut ? "gibt und setzt aus" : null },
          name,
          sitsOut ? el("span", { class: "geber-mark" }, " (Geber)") : null,
        ),
      );
    }
    if (chosen && (!players.includes(chosen) || (players.length === 4 && chosen === state.dealer))) {
      form.declarer = null;
    }
  }

  function wire() {
    $("spieler").addEventListener("click", (e) => choose(e, "data-name", (v) => (form.declarer = v)));
    $("spiel").addEventListener("click", (e) =>
      choose(e, "data-spiel", (v) => {
        form.game = v;
        const most = MOST_MATADORS[v] || SUIT_MOST;
        if (form.matadors && Number(form.matadors) > most) form.matadors = null;
        if (v === "null") {
          // Null takes no Spitzen and no Schneider/Schwarz: cleared, so nothing false counts
          for (const l of ["schneider", "schneider angesagt", "schwarz", "schwarz angesagt"]) form.levels.delete(l);
        }
      }),
    );
    $("mitohne").addEventListener("click", (e) => choose(e, "data-mit", (v) => (form.mit = v)));
    $("spitzen").addEventListener("click", (e) => choose(e, "data-zahl", (v) => (form.matadors = v)));
    $("stufen").addEventListener("click", (e) =>
      choose(e, "data-stufe", (v) => (form.levels.has(v) ? form.levels.delete(v) : form.levels.add(v))),
    );
    $("ergebnis").addEventListener("click", (e) => choose(e, "data-ergebnis", (v) => (form.result = v)));
    $("reiz").addEventListener("change", () => {
      form.bid = $("reiz").value;
      renderForm();
    });
    $("eintragen").addEventListener("click", book);
  }

  // ---- value before booking ----------------------------------------------------------

  function showPreview(title, lines, failed) {
    $("ansage").textContent = title;
    $("wert").textContent = lines.join("\n");
    $("vorschau").classList.toggle("fehler", !!failed);
  }

  function schedulePreview() {
    clearTimeout(previewTimer);
    previewOk = false;
    $("eintragen").disabled = true;
    const text = words();
    const gap = missing();
    if (!form.declarer && !form.game) {
      showPreview("Spiel antippen: Alleinspieler, Spiel, Spitzen, Stufen, Ergebnis.", [], false);
      return;
    }
    if (!form.game || (!isNull() && !(form.mit && form.matadors))) {
      showPreview(text, [gap], false);
      return;
    }
    previewTimer = setTimeout(() => runPreview(text, gap), DEBOUNCE_MS);
  }

  function effectLine(effect) {
    const names = (state && state.players) || Object.keys(effect || {});
    return names
      .filter((name) => effect && effect[name] !== undefined)
      .map((name) => name + " " + signed(effect[name]))
      .join(" · ");
  }

  async function runPreview(text, gap) {
    const seq = ++previewSeq;
    try {
      const answer = await api.preview(text);
      if (seq !== previewSeq) return; // a newer choice is on its way
      if (!answer || answer.ok === false) {
        // Not finished yet: say what is missing, not what the rules make of half a game
        if (gap) showPreview(text, [gap], false);
        else showPreview(text, [(answer && answer.error) || "Das Spiel ist so nicht möglich."], true);
        return;
      }
      const lines = [];
      const value = Math.abs(answer.value || 0);
      const lost = answer.won === false;
      lines.push("Spielwert " + value + (lost ? " · verloren" : answer.won ? " · gewonnen" : ""));
      if (answer.overbid) lines.push("überreizt: verloren");
      for (const note of answer.notes || []) lines.push(note);
      const booked = effectLine(answer.points);
      if (booked) lines.push("Buchung: " + booked);
      const effect = effectLine(answer.effect);
      if (effect) lines.push("Seeger-Fabian: " + effect);
      if (gap) lines.push(gap);
      const who = answer.declarer ? answer.declarer + ": " : "";
      showPreview(who + (answer.text || text), lines, false);
      previewOk = !gap;
      $("eintragen").disabled = !previewOk;
    } catch (err) {
      if (seq !== previewSeq) return;
      if (err instanceof LoginError) return loginFailed(err.message);
      showPreview(text, [gap || err.message], !gap);
    }
  }

  async function book() {
    if (!previewOk) return;
    const text = words();
    const button = $("eintragen");
    button.disabled = true;
    $("meldung").className = "meldung";
    $("meldung").textContent = "Wird eingetragen …";
    try {
      const answer = await api.book(text, key);
      key = newKey();
      const first = ((answer && answer.message) || "Eingetragen.").split("\n")[0];
      $("meldung").className = "meldung ok";
      $("meldung").textContent = "✅ " + first.replace(/^✅\s*/, "");
      form.declarer = null;
      form.game = null;
      form.mit = null;
      form.matadors = null;
      form.levels.clear();
      form.bid = "";
      form.result = null;
      $("reiz").value = "";
      if (answer && answer.list) show(answer);
      else await refresh();
    } catch (err) {
      if (err instanceof LoginError) return loginFailed(err.message);
      $("meldung").className = "meldung fehler";
      $("meldung").textContent = err.message;
      button.disabled = false;
    }
  }

  // ---- the list ----------------------------------------------------------------------

  function renderList() {
    const players = state.players || [];
    const table = $("zeilen");
    const head = el(
      "tr",
      {},
      el("th", { class: "nr", scope: "col" }, "Nr"),
      el("th", { class: "text spiel-spalte", scope: "col" }, "Spiel"),
      ...players.map((name) => el("th", { scope: "col" }, name)),
    );
    const body = [];
    const rows = state.rows || [];
    if (!rows.length) {
      body.push(el("tr", { class: "leer" }, el("td", { colspan: players.length + 2 }, "Noch kein Spiel eingetragen.")));
    }
    for (const row of rows) {
      const struck = row.status && row.status !== "valid";
      const cls = struck ? "gestrichen" : "";
      // The game's text twice: its own line in portrait, a column in landscape (app.css)
      body.push(el("tr", { class: "zeilentext " + cls }, el("td", { colspan: players.length + 1 }, describe(row))));
      const cells = players.map((name) => {
        const booked = row.points && Object.prototype.hasOwnProperty.call(row.points, name) ? row.points[name] : null;
        const sum = row.sums && row.sums[name] !== undefined ? row.sums[name] : null;
        const isDealer = row.dealer === name;
        return el(
          "td",
          { class: (booked !== null ? "gebucht " : "") + (sum !== null && sum < 0 ? "minus" : "") },
          booked !== null ? el("small", {}, signed(booked)) : null,
          sum !== null ? number(sum) : "",
          isDealer ? el("span", { class: "geber-mark", title: "Geber" }, "G") : null,
        );
      });
      body.push(
        el(
          "tr",
          { class: cls },
          el("td", { class: "nr" }, row.nr === null || row.nr === undefined ? "–" : row.nr),
          el("td", { class: "text spiel-spalte" }, describe(row)),
          ...cells,
        ),
      );
    }
    table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...body));
    renderTotals();
  }

  function describe(row) {
    const parts = [];
    if (row.declarer) parts.push(row.declarer + ": ");
    parts.push(row.text || (row.kind === "pass" ? "eingepasst" : ""));
    if (row.value) parts.push(" · " + Math.abs(row.value));
    if (row.won === false) parts.push(" verloren");
    const node = el("span", {}, parts.join(""));
    if (row.overbid) node.append(" ", el("span", { class: "ueberreizt" }, "überreizt"));
    return node;
  }

  // Rank as /stand does: score, then more won, then fewer lost (a lot is the bot's business).
  function ranked(closing) {
    return [...closing].sort(
      (x, y) => (y.score || 0) - (x.score || 0) || (y.won || 0) - (x.won || 0) || (x.lost || 0) - (y.lost || 0),
    );
  }

  function renderTotals() {
    const closing = state.closing || [];
    const isko = (state.rules || "isko") === "isko";
    const perLoss = state.table_size === 4 ? 30 : 40;
    const table = $("abschluss");
    const head = el(
      "tr",
      {},
      el("th", { scope: "col" }, "Platz"),
      el("th", { class: "text", scope: "col" }, "Spieler"),
      el("th", { class: "einzeln", scope: "col" }, "Punkte"),
      el("th", { class: "einzeln", scope: "col" }, "gew."),
      el("th", { class: "einzeln", scope: "col" }, "verl."),
      isko ? el("th", { class: "einzeln", scope: "col", title: "verlorene Spiele der anderen" }, "andere verl.") : null,
      el("th", { scope: "col" }, "Wertung"),
    );
    const body = ranked(closing).map((t, i) => {
      const steps = isko
        ? number(t.game_points || 0) +
          " + 50 × (" + (t.won || 0) + " − " + (t.lost || 0) + ") + " + perLoss + " × " + (t.opponents_lost || 0)
        : null;
      return el(
        "tr",
        {},
        el("td", {}, i + 1 + "."),
        el("td", { class: "text" }, t.name, steps ? el("small", { class: "rechnung" }, steps) : null),
        el("td", { class: "einzeln " + ((t.game_points || 0) < 0 ? "minus" : "") }, number(t.game_points || 0)),
        el("td", { class: "einzeln" }, t.won || 0),
        el("td", { class: "einzeln" }, t.lost || 0),
        isko ? el("td", { class: "einzeln" }, t.opponents_lost || 0) : null,
        el("td", { class: "punkte " + ((t.score || 0) < 0 ? "minus" : "") }, number(t.score || 0)),
      );
    });
    table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...body));
  }

  function progress() {
    const players = state.players || [];
    const played = state.games_played || 0;
    if (state.status && state.status !== "open") return "Abgeschlossen · " + played + "/" + state.series_length + " Spiele";
    if (!state.dealer) return "Serie voll: " + played + "/" + state.series_length + " Spiele";
    const seat = players.indexOf(state.dealer);
    const forehand = seat < 0 ? null : players[(seat + 1) % players.length];
    return (
      "Spiel " + (played + 1) + "/" + state.series_length + " · Geber " + state.dealer +
      (forehand ? " · Vorhand " + forehand : "")
    );
  }

  function renderHeader(chat) {
    $("titel").textContent = (chat && chat.title) || "Skatliste";
    $("fortschritt").textContent = progress();
  }

  async function renderChart() {
    const blob = await api.chart().catch(() => null);
    const image = $("bild");
    if (!blob) {
      $("verlauf").hidden = true;
      return;
    }
    if (image.dataset.url) URL.revokeObjectURL(image.dataset.url);
    const url = URL.createObjectURL(blob);
    image.dataset.url = url;
    image.src = url;
    $("verlauf").hidden = false;
  }

  function show(answer) {
    state = answer.list;
    $("laden").hidden = true;
    renderHeader(answer.chat);
    buildPlayerButtons();
    renderForm();
    renderList();
    const writable = answer.may_write !== false && state.status !== "closed" && !!state.dealer;
    $("formular").hidden = !writable;
    $("liste").hidden = false;
    // Why there is no form: said once above the list
    let why = "";
    if (answer.may_write === false) why = "Sie können diese Liste ansehen, aber hier keine Spiele eintragen.";
    else if (state.status !== "open") why = "Diese Liste ist abgeschlossen. Eine neue Serie beginnt im Chat mit /weiter.";
    else if (!state.dealer) why = "Die Serie ist voll. Im Chat mit /serie verlängern oder mit /abschluss abschließen.";
    $("nur-lesen").textContent = why;
    $("nur-lesen").hidden = !why;
    // The chart exists once a game is booked (before, the API has none: 404)
    if ((state.rows || []).some((r) => r.status === "valid" && r.declarer)) renderChart();
    else $("verlauf").hidden = true;
  }

  async function refresh() {
    show(await api.list());
  }

  // ---- start -------------------------------------------------------------------------

  function loginFailed(message) {
    // No data stays on the page after a refused login.
    for (const id of ["formular", "liste", "verlauf", "laden"]) $(id).hidden = true;
    $("zeilen").replaceChildren();
    $("abschluss").replaceChildren();
    $("fortschritt").textContent = "";
    showHint(message);
  }

  function showHint(message) {
    $("hinweis").textContent = message;
    $("hinweis").hidden = false;
  }

  async function start() {
    applyTheme();
    if (webApp) {
      try {
        webApp.ready();
        webApp.expand();
        webApp.onEvent("themeChanged", applyTheme);
      } catch (e) {
        // an older client without these: the page works without them
      }
    } else {
      listenToClient();
      postEvent("web_app_ready");
      postEvent("web_app_expand");
      postEvent("web_app_request_theme");
    }
    buildMatadorButtons();
    buildBidOptions();
    wire();
    if (!initData) {
      $("laden").hidden = true;
      showHint("Diese Seite öffnet sich aus Telegram: im Chat der Skatrunde /app schreiben und den Knopf antippen.");
      return;
    }
    try {
      await refresh();
    } catch (err) {
      // No login, or not this chat's member: nothing of the list is shown
      if (err instanceof LoginError || err.status === 403) return loginFailed(err.message);
      $("laden").hidden = true;
      showHint(err.message);
    }
  }

  document.addEventListener("DOMContentLoaded", start);
})();
