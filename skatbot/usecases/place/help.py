"""/start and /hilfe texts (the command menu is the route table's, see routes.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place, PlaceKind
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.league import roles
from skatbot.usecases.place.words import command_at
from skatbot.usecases.tournament import tables

HELP = """<b>skatbot – die Skatliste im Gruppenchat</b>
/neu Anna Bernd Carla [Dora] [geber Bernd] – neue Liste in Sitzreihenfolge
Namen mit Leerzeichen: /neu "Anna Maria" Bernd Carla oder mit Komma: /neu Anna Maria, Bernd, Carla; ein Kürzel gehört zum Namen davor: /neu Peter M. Peter K. Carla
(„und“ und „&amp;“ trennen nur als eigenes Wort; Tom&amp;Jerry fragt nach) – danach reicht der Anfang: /spiel anna m grand mit 1 g
/spiel – Spiel mit Knöpfen eintragen
/spiel Anna grand ohne 1 hand gewonnen – Spiel per Text eintragen
/eingepasst – alle haben gepasst
/stand – Zwischenstand · /stand bild – als Bild · /liste [alle] – die Zeilen · /anheften – Stand oben anheften
/darstellung tabelle|text – Liste und Stand als Tabelle oder als Text
/korrigieren 7 Anna kreuz mit 2 gewonnen · /storno 7 (ein früheres Spiel: fragt erst; /storno 7 ja)
/rueckgaengig (oder /rückgängig) – letzte Änderung zurücknehmen: Spiel, Streichen oder Korrektur
/korrigieren 7 geber Carla – Geber eines früheren Spiels berichtigen
/geber Bernd · /serie 48 · /umbenennen Anna Annika
/wert grand ohne 1 hand gewonnen – nur rechnen
/app – Mini App: Liste wie auf Papier, Spiel zusammenklicken und eintragen
/export – JSON · /pdf – Liste als PDF · /vordruck 3|4 – leeres Formular
/listen – alle Listen mit Nummer · frühere Liste: /liste 2 · /stand 2 · /pdf 2 · /export 2 · /abrechnung 2
/abschluss – Serie beenden (mit PDF und Bild) · /weiter – neue Serie, gleiche Spieler
/abend – alle Serien des Abends und die Summe je Spieler · /abend pdf – als PDF
/statistik – Statistik und Rekorde des Chats · /statistik Anna – ein Spieler, mit Saisonbild
/oeffnen – abgeschlossene Serie wieder öffnen (Admins oder wer sie angelegt hat)
/einsatz 1 ct [kasse] – um Geld spielen · /abrechnung – wer wem was zahlt (/hilfe geld) · /einsatz 1 ct liste 2 – nur für Liste 2
/ich NAME – das bin ich · /spieler – wer ist wer (zusammen/trennen)
/ich daten – was über dich gespeichert ist (privat) · /ich vergessen – Verknüpfungen löschen
/saison [2026 | märz 2026] [pdf] – Saisontabelle · /saisonregeln · /export saison
/spielabend Di 19:00 – Spielabend planen: Umfrage, zur Uhrzeit Tische und Listen · /spielabend schliessen – früher

<b>Spielansage</b> (Reihenfolge egal, groß/klein egal):
Spiel: karo herz pik kreuz grand null (auch schellen rot grün eichel)
Spitzen: mit 2 · ohne 1 · m2 · o1
Stufen: hand (h) · schneider (schn) · schneider angesagt (sa) · schwarz (schw) · schwarz angesagt (swa) · ouvert (ouv)
Mitzählen: kreuz ohne 2 spiel 3 hand 4 – ich rechne nach
Reizwert: reiz 30 · gereizt bis 30 · r30
Ergebnis: gewonnen / g / + · verloren / v / - · oder augen 85
Beispiele:
/spiel an kreuz mit 2 r36 g
/spiel bernd null ouvert hand verloren
/spiel carla herz ohne 3 augen 92
Alle Wörter mit Beispielen: /hilfe spiel
Hausregeln (Kontra/Re, Bock, Ramsch): /hilfe haus · Preisskat: /hilfe turnier · Liga: /hilfe liga · Skatzahl: /hilfe rating
/loeschen – alle Daten dieses Chats löschen (nur Admins, mit Bestätigung)
/loeschen liste – nur die letzte Liste löschen (wer sie angelegt hat, oder Admins)"""

HELP_HAUS = """<b>Hausregeln mit 3B3R</b> – einschalten vor dem ersten Spiel: /regeln haus
(/regeln haus runde=geberrunde: eine Runde = jeder gibt einmal; zurück: /regeln isko)
/startpunkte Anna 100 Bernd -20 – Startpunkte (Stand = Start + Buchungen)
Kontra ×2, Re noch einmal ×2: /spiel anna grand mit 1 kontra re g
Verloren mit Skat zählt doppelt, verloren Hand einfach.
<b>3B3R</b>: ausgelöst durch 60:60 verloren (augen 60), Kontra ohne Re verloren, Re,
eine Buchung über 100 (in Bock/Ramsch über 200) oder /bock – dann 3 Spiele Bock (×2),
danach 3 Spiele Ramsch. Was währenddessen ausgelöst wird, steht „ausstehend“ an.
<b>Ramsch</b>: /ramsch Anna 55 [geschoben 1] [jungfrau 1] · Gleichstand: /ramsch Anna Bernd 50
40:40:40 – alle drei verlieren 40: /ramsch Anna Bernd Carla 40
/ramsch durchmarsch Carla – +120 · vorher: alle gesund? /gesund oder /krank NAME
(wer krank ist, spielt Grand Hand; das zählt nicht als Ramsch; einmal pro Ramsch-Phase)
Ein früheres Spiel ändern, ohne Bock und Ramsch umzuwerfen: /korrigieren 7 … wie gespielt
oder /storno 7 wie gespielt – Bock und Ramsch bleiben, wie sie gespielt wurden."""

HELP_TURNIER = """<b>Preisskat</b> – in einem eigenen Chat (oder Thema) der Turnierleitung; die Saison
läuft dort ein Turnier nach dem anderen.
<b>1. Anlegen</b>
/turnier Stadtmeisterschaft 2026 – Turnier anlegen
/teilnehmer Anna, Bernd, Carla, … – eintragen (Komma oder Zeilen); /teilnehmer – anzeigen
/entfernen NAME – vor der ersten Auslosung: streichen
Teams: /teilnehmer Anna [Skatfreunde Nord], Bernd [Skatfreunde Nord], Carla
/team – alle Teams · /team Anna Skatfreunde Nord – setzen/ändern · /team Anna - – entfernen
/teamwertung summe – alle Mitglieder zählen · /teamwertung beste 3 – die besten 3 je Team
/serienlaenge 36 48 – Spiele je Serie am Dreier-/Vierertisch
/turnierregeln summe – eine fehlende Serie zählt 0 (Standard) · /turnierregeln schnitt
mindestens 2 – Schnitt je gespielter Serie, gewertet ab 2 Serien
<b>2. Auslosen</b>
/auslosen [STARTWERT] – Tische der nächsten Serie (nachrechenbar: /hilfe auslosung)
/auslosen setzliste – nach der Rangliste: Platz 1–4 an Tisch 1 …
/auslosen zurück – die letzte Auslosung zurücknehmen, solange an ihren Tischen nichts
gebucht ist (bestätigen: /auslosen zurück ja)
<b>3. Spielen und melden</b>
Tische melden selbst: in einem Forum legt /auslosen je Tisch ein Thema mit seiner Liste an
(Admin-Recht „Themen verwalten“); sonst der Knopf „Tisch N: Gruppe wählen“ der Auslosung
(oder /tisch CODE von der Turnierleitung). Falsch verknüpft: /tisch freigeben N.
Am Tisch: /spiel …, am Ende /abschluss, dann unterschreibt jede Person mit ihrem Knopf
(vorher /ich NAME, bei der Turnierleitung oder am Tisch; ohne Telefon tippt die
Turnierleitung) – das Ergebnis kommt von selbst an die Turnierleitung. Nachricht zum
Unterschreiben weg? /unterschreiben (oder /abschluss) am Tisch zeigt sie wieder, mit wer
noch fehlt. Korrektur: /oeffnen zieht es zurück.
Von Hand: /ergebnis Anna 437 12 3 – Spielpunkte, gewonnen, verloren (mehrere Zeilen erlaubt)
Der angeheftete Zwischenstand folgt jeder Meldung; ist eine Serie komplett: „Nächste Serie
auslosen“ (ein Tipp, nur die Turnierleitung).
/fehlend – fehlende Ergebnisse, und wie weit jeder Tisch ist (Spiele, Unterschriften)
<b>4. Nachmeldungen und Abmeldungen</b> – gelten ab der nächsten Serie, ausgeloste bleiben:
/teilnehmer Zoe – Nachmeldung (zahlt Startgeld) · /entfernen Moritz – abgemeldet (das
Startgeld bleibt; /entfernen Moritz erstatten gibt es zurück). /teilnehmer zeigt jede Änderung.
<b>5. Rangliste und Geld</b>
/rangliste [pdf] · /rangliste serie 2 – eine Serie (Serienpreise) · /urkunden [N] · /export
Gleichstand: mehr gewonnene Spiele, dann weniger verlorene, dann das Los (wird gesagt).
/gebuehren startgeld 10 € · /gebuehren verlust 0,50 € ab 4 1 € · /gebuehren tisch 1 €
/preise 100 € 60 € 40 € oder 50 % 30 % 20 % · /preise serie 20 € 10 €
/abrechnung – wer was zahlt · /kasse – Kassenbericht als PDF (mehr: /hilfe geld)
/leinwand – Link für den Beamer im Saal: Rangliste und Tische, von selbst aktuell
(Turnierleitung) · /leinwand aus – Link sperren
<b>6. Ende und das nächste Turnier</b>
/turnier ende – beenden (Turnierleitung, bestätigen: /turnier ende ja); danach nimmt es
nichts mehr an, auch seine Tische keine Spiele. Dann /turnier NAME – das nächste, hier.
/turniere – alle Turniere hier mit Datum und Sieg; ein früheres lesen: /rangliste turnier 1 ·
/urkunden turnier 1 · /kasse turnier 1 · /export turnier 1 · /saison zählt jede Serie mit.
/loeschen – das neueste Turnier löschen (wer es angelegt hat, oder Admins) · /loeschen turnier 1
· /loeschen alles (nur Admins)"""


HELP_LIGA = """<b>Liga</b> – ein Spieltag wie in der Skat-Bundesliga: je Tisch ein Spieler jeder
Mannschaft, Matchpunkte je Serie. In einem eigenen Chat (oder Thema) der Ligaleitung.
/liga Landesliga Nord – Liga anlegen (3 Serien je Spieltag, 36/48 Spiele)
/liga serien 4 · /liga mindestens 50 (Einzelwertung ab 50 % der Spiele) ·
/liga verlustspiel 0,50 € (Verlustspielgeld an den Ausrichter) ·
/liga reihenfolge spielpunkte (Tabelle erst nach Spielpunkten; Standard: Matchpunkte) ·
/liga wechsel zwischen (nur zwischen den Serien; Standard: auch während, mit Spielnummer) ·
/liga matchpunkte 2 (je geschlagener Mannschaft; Standard 1: 3:0, 2:1, 1:2, 0:3)
/mannschaft Nord: Anna, Bernd, Carla, Dora, Ersatz Erik – eine Zeile je Mannschaft
/kapitaen Nord – als Antwort auf eine Nachricht der Person: ich schicke ihr privat einen
Kapitäns-Code (nur für sie, einmal, 7 Tage) · /kapitaen CODE – damit Kapitän werden
/spieltag 1 Reken – Spieltag anlegen; jede Mannschaft mit ihren ersten 4 Spielern
/aufstellung Nord: Anna, Bernd, Carla, Erik – Aufstellung zur 1. Serie (Kapitän oder
Leitung); mit 3 Spielern geht es auch · /aufstellung Nord fehlt – nicht angetreten
/setzen – die nächste Serie setzen. Die Aufstellung zur 1. Serie legt den Sitzplan des
Tages fest; 4-4-4-3 → drei Vierertische und ein Dreiertisch, 3-3-3-3 → drei Vierertische,
4-4-4-0 → vier Dreiertische. Nachrechenbar aus dem Startwert. /sitzplan 2 – Serie 2 zeigen
/wechsel Nord Erik für Anna – ab der nächsten Serie (frei) · /wechsel Nord Erik für Anna
spiel 17 – während der Serie, vermerkt mit der Spielnummer
/tisch CODE – im Chat eines Tisches (Code aus dem Sitzplan): dort die Liste; /abschluss
meldet das Ergebnis vorläufig an die Ligaleitung
/ergebnis Anna 437 12 3 – Spielpunkte, gewonnen, verloren (Ligaleitung; eine Zeile je Person)
Je Serie: Mannschaftssumme, Matchpunkte nach Platz (1.: 3:0, 2.: 2:1, 3.: 1:2, 4.: 0:3;
gleiche Summe: halbe Punkte). Nicht angetreten: keine Matchpunkte, keine Spielpunkte.
/tabelle – Saisontabelle (Matchpunkte, dann Spielpunkte) · /tabelle 1 – ein Spieltag
/einzelwertung – Schnitt je gespieltem Spiel, ab dem Mindestanteil
/bestaetigen – der Kapitän bestätigt die Ergebnisse des Spieltags
/freigeben – den Spieltag freigeben (Ligaleitung); vorher vorläufig, danach fest.
/tabelle 1 pdf – Spielbericht des Spieltags · /tabelle pdf – Tabelle als PDF
Dezentral: /spieltag 2 Reken 14.03.2027, dann /ausrichter als Antwort auf eine Nachricht
des Ausrichters: ich schicke ihm privat den Code; er sendet /ausrichter CODE an dem Tag in
seinem Chat und führt dort den Spieltag (nur an dem Tag)."""

HELP_AUSLOSUNG = """<b>So wird ausgelost</b> – jeder kann es nachrechnen:
1. Namen sortieren (Groß-/Kleinschreibung egal), die Eingabereihenfolge zählt nicht.
2. Mischen (Fisher–Yates): für i von n−1 bis 1 ist j = die ersten 8 Bytes von
   SHA-256(„STARTWERT/SERIE/0/i“) als Zahl, modulo i+1; dann Platz i und j tauschen.
3. Der Reihe nach in Tische teilen: erst Vierertische, der Rest Dreiertische (13 → 4+3+3+3).
Ab Serie 2 werden bis zu 20 Mischungen (…/SERIE/k/i) probiert und durch Tauschen verbessert,
damit möglichst niemand wieder am selben Tisch sitzt – ebenfalls ohne Zufall.
Mit Teams: jedes Team als Block, Plätze reihum verteilt (erst Platz 1 an allen Tischen,
dann Platz 2 …) – so sitzen Mitglieder eines Teams an verschiedenen Tischen, solange ein
Team nicht mehr Mitglieder als Tische hat; das Tauschen bringt nie zwei zusammen.
<b>Setzliste</b> (/auslosen setzliste, ab Serie 2): keine Auslosung, sondern nach der Rangliste
der vollständigen Serien (Zählweise des Turniers): Platz 1–4 an Tisch 1, 5–8 an Tisch 2 …,
erst die Vierer-, dann die Dreiertische; wer noch keinen Platz hat (Nachmeldung), sitzt dahinter
in der Reihenfolge des Loses (SHA-256 aus Turnier-Startwert und Name, wie beim Gleichstand).
Mit Teams: sitzen zwei eines Teams an einem Tisch, tauscht der schlechter Platzierte mit dem
bestplatzierten passenden Platz am nächsten Tisch dahinter (sonst davor). Gleiche Rangliste →
gleiche Tische.
Nachmeldungen und Abmeldungen: gelost wird aus den Teilnehmern dieser Serie – wer nachgemeldet
ist, ab seiner Serie; wer abgemeldet ist, bis zu ihr. Die Namen jeder Serie stehen in /export
(„participants“ der Serie): mit Startwert und Seriennummer ergibt das dieselben Tische.
Ein Python-Beispiel zum Nachrechnen steht in der Anleitung von skatbot (docs/preisskat.md)."""

HELP_GELD = """<b>Geld</b> – Beträge mit Einheit: 1 ct · 0,5 ct · 0,50 € · 1.234,50 €
<b>Am Tisch</b>: /einsatz 1 ct – gilt für die laufende Liste und alle folgenden in diesem Chat,
bis ihr ihn ändert; frühere Listen behalten ihren Einsatz. /einsatz aus – ohne Geld.
· paarweise (Standard): jeder zahlt jedem Besseren die Differenz × Einsatz
· /einsatz 1 ct kasse – jeder zahlt pro Minuspunkt in die Kasse
· /einsatz 50 ct verlustspiel – jedes verlorene Spiel kostet 50 ct für die Kasse
/abrechnung – Saldo je Spieler und die wenigsten Überweisungen (auch im PDF und im /export)
/abrechnung abend – alle Serien des Abends (/abend) zusammen abgerechnet
Abgerechnet wird, was gespielt wurde: Startpunkte (Hausregeln) bewegen kein Geld –
mitzählen: /einsatz 1 ct startpunkte · frühere Liste: /einsatz 1 ct liste 2
<b>Preisskat</b> (Turnierleitung):
/gebuehren startgeld 10 € – einmal pro Teilnehmer
/gebuehren verlust 0,50 € ab 4 1 € – je Serie: 1.–3. verlorenes Spiel 0,50 €, ab dem 4. 1 €
/gebuehren verlust vierer 0,50 € ab 5 1 € – nur für Vierertische (dreier: nur Dreiertische)
/gebuehren tisch 1 € – Tischgeld pro Person und Serie (auch: tisch vierer 0,50 €)
/preise 100 € 60 € 40 € – feste Preise · /preise 50 % 30 % 20 % – Anteile am Topf (zusammen 100 %)
/preise serie 20 € 10 € – für die Besten jeder Serie · Topf = Einnahmen − Serienpreise
/abrechnung – was jeder zahlt und bekommt · /kasse – Kassenbericht (PDF)
Die Preise stehen auf den Urkunden (/urkunden)."""


HELP_RATING = """<b>Die Skatzahl</b> – eine Wertungszahl für das Können am Skattisch
Jede abgeschlossene Serie ist ein Wettkampf ihrer 3 oder 4 Spieler (beim Preisskat: jeder
Tisch einer Serie). Die Reihenfolge der Serie (Seeger-Fabian, dann mehr gewonnene, dann
weniger verlorene Spiele) verändert zwei Werte je Spieler (openskill, Plackett-Luce):
das <b>Können</b> (Start 25) und die <b>Unsicherheit</b> (Start 8,3).
Skatzahl = 1000 + 40 × (Können − 3 × Unsicherheit), gerundet.
• Neu: 1000. Mit jeder Serie wird die Unsicherheit kleiner; wohin die Zahl geht, entscheiden
  die Plätze – wer oft hinten landet, sinkt, auch wenn er regelmäßig spielt.
• Wer vorn landet, gewinnt Können – gegen starke Gegner mehr als gegen schwache.
• Lange Pause: nach 60 Tagen wächst die Unsicherheit wieder (nach gut einem Jahr wie neu),
  die Skatzahl sinkt, bis wieder gespielt wird.
Nichts davon wird gespeichert: die Zahl wird aus den Listen nachgerechnet (auch nach
/korrigieren oder /spieler zusammen). Zu sehen in /saison; die Rohwerte in /export saison."""

HELP_SPIEL = """<b>/spiel – so trägst du ein Spiel ein</b>
Am schnellsten: /spiel ohne Worte öffnet die Knöpfe (Spieler, Spiel, Spitzen, Stufen,
Ergebnis, Eintragen). Oder per Text: /spiel NAME ANSAGE – Reihenfolge und groß/klein egal.

<b>Name</b>: der Anfang reicht, wenn er eindeutig ist (an → Anna); ohne Umlaute und
  Akzente geht auch (juergen → Jürgen, lukasz → Łukasz), ein „:“ dahinter stört nicht;
  Bindestrich, Leerzeichen, groß/klein egal (hans peter → Hans-Peter).
<b>Spiel</b>: karo · herz · pik · kreuz · grand · null
  auch deutsches Blatt: schellen = karo · rot = herz · grün/gruen = pik · eichel = kreuz
<b>Spitzen</b> (nicht beim Null): mit 2 · ohne 1 · auch mit2 · m2 · o1 · mit zwei ·
  mit vieren · ohne einem – Farbspiel 1 bis 11, Grand 1 bis 4
<b>Stufen</b>: hand · schneider · schwarz · ouvert (auch offen)
  schneider angesagt (sa) · schwarz angesagt (swa) – angesagt ist immer Hand
  ouvert im Farbspiel/Grand ist immer Hand mit Schneider und Schwarz angesagt
  Null: nur hand und ouvert (Null 23 · Hand 35 · ouvert 46 · ouvert Hand 59)
<b>Mitzählen</b> wie am Tisch: kreuz ohne 2 spiel 3 hand 4 · schneider 4 angesagt 5
  – ich rechne nach; zählt ihr anders, sage ich es und trage nichts ein.
<b>Reizwert</b> (freiwillig): reiz 30 · gereizt 30 · gereizt bis 30 · bis 30 · reizwert 30 ·
  r30 – zu hoch gereizt = überreizt
<b>Ergebnis</b>: gewonnen · gew · g · + oder verloren · verl · v · -
  (Punkte und Kommas vom Handy stören nicht: „gew.“, „g!“)
  oder augen 85 · 85 augen (Augen des Alleinspielers; ab 61 gewonnen, ab 90 Schneider)
<b>Abkürzungen</b>: gr Grand · kr Kreuz · pi Pik · he Herz · ka Karo · nu Null ·
  h Hand · schn Schneider · schw Schwarz · ang angesagt · ouv ouvert · sp Spiel
<b>Hausregeln</b>: zusätzlich kontra · re
<b>Eingepasst</b>: /eingepasst oder /spiel passe

<b>Beispiele</b>
/spiel anna grand ohne 1 hand gewonnen → 72
/spiel anna kreuz ohne 2 spiel 3 hand 4 gewonnen → 48
/spiel bernd gr m1 h schn g → 96
/spiel bernd kreuz mit 2 r36 g → 36
/spiel carla herz ohne 3 augen 92 → Schneider, 50
/spiel an null ouvert hand verloren → −118
/spiel be pik mit 1 hand sa g → 55
/spiel ca eichel ohne 2 swa hand g → Schwarz angesagt, 96
/spiel anna karo mit 1 reiz 30 g → überreizt, −72

<b>Nur rechnen</b>: /wert kreuz mit 2 – ohne Ergebnis beide Buchungen (gewonnen, verloren)

<b>Danach</b>: /korrigieren 7 Anna kreuz mit 2 gewonnen (auch /korrigieren Spiel 7 …) ·
/storno 7 – oder die Knöpfe
unter der Buchung (Korrigieren, Stornieren, Stand). Vertan? /rueckgaengig nimmt die letzte
Änderung zurück (wer sie gemacht hat, oder ein Admin). Falscher Geber in Spiel 7:
/korrigieren 7 geber Carla (auch zusammen mit dem Spiel: … gewonnen geber Carla).
/geber NAME legt nur den nächsten Geber fest."""


_AT_TABLE = """<b>skatbot – am Tisch {what}</b>
/spiel – Spiel mit Knöpfen eintragen · /spiel Anna grand ohne 1 hand gewonnen – per Text
/eingepasst – alle haben gepasst
/stand – der Stand · /liste – die Zeilen · /pdf – Liste als PDF
/korrigieren 7 Anna kreuz mit 2 gewonnen · /storno 7
{close}
/ich NAME – das bin ich (ein Mitspieler bestätigt)
Die nächste Serie: /tisch CODE {next}.
Alle Wörter der Spielansage: /hilfe spiel · {more}"""
# At a table no line names /neu or /weiter: its next list comes from the next draw or seating.
HELP_TOURNAMENT_TABLE = _AT_TABLE.format(
    what="eines Turniers",
    close="/abschluss – Serie beenden, dann unterschreibt jede Person am Tisch\n"
    "/unterschreiben – die Nachricht zum Unterschreiben noch einmal (wer fehlt noch?)",
    next="aus der nächsten Auslosung (oder ihr Knopf)",
    more="Preisskat: /hilfe turnier",
)
HELP_LEAGUE_TABLE = _AT_TABLE.format(
    what="eines Spieltags",
    close="/abschluss – Serie beenden, das Ergebnis geht an die Ligaleitung",
    next="aus dem Sitzplan",
    more="Liga: /hilfe liga",
)
_TABLE_HELP: Final = {
    PlaceKind.TOURNAMENT_TABLE: HELP_TOURNAMENT_TABLE,
    PlaceKind.LEAGUE_TABLE: HELP_LEAGUE_TABLE,
}


@dataclass(frozen=True)
class Start:
    """``/start`` and the one word of a deep link (``tisch_…``, ``code_…``), if any."""

    payload: str | None


def parse_start(cmd: Command) -> Start:
    return Start(cmd.args[0] if len(cmd.args) == 1 else None)


def start(session: Session, place: Place, request: Start) -> Reply:
    """Telegram's "Start": in a private chat the welcome (or a role's code), in a group the
    help - or a table's deep link, which the tables' own code takes."""
    telegram_chat = place.telegram_chat_id or place.id
    payload = request.payload
    if payload is not None and telegram_chat < 0:
        invite = tables.INVITE_DATA.fullmatch(payload)
        if invite is not None:  # the draw's deep link: "add to group" sent /start tisch_…
            return tables.join(session, command_at(place, "start", (payload,)), invite.group(1))
    if telegram_chat > 0:  # a private chat (a topic's place is no chat)
        token = roles.TOKEN_DATA.fullmatch(payload) if payload is not None else None
        if token is not None:  # "Code abholen": a role's code, for the person named only
            return roles.fetch(session, command_at(place, "start", (token[0],)), token.group(1))
        return Reply(
            "Hallo! Ich führe eure Skatliste im Gruppenchat.\n"
            "Füge mich einer Gruppe hinzu (Gruppeninfo → Mitglieder hinzufügen → skatbot) und "
            "startet dort mit /neu Anna Bernd Carla.\n\n" + HELP
        )
    return Reply(_TABLE_HELP.get(place.kind, HELP))


@dataclass(frozen=True)
class Topic:
    """``/hilfe THEMA``: the topic's word, "" for the overview."""

    word: str


def parse_topic(cmd: Command) -> Topic:
    return Topic(cmd.args[0].casefold().lstrip("/") if cmd.args else "")


_TOPICS: Final = {
    "spiel": HELP_SPIEL,
    "haus": HELP_HAUS,
    "hausregeln": HELP_HAUS,
    "ramsch": HELP_HAUS,
    "turnier": HELP_TURNIER,
    "liga": HELP_LIGA,
    "mannschaft": HELP_LIGA,
    "preisskat": HELP_TURNIER,
    "auslosung": HELP_AUSLOSUNG,
    "auslosen": HELP_AUSLOSUNG,
    "geld": HELP_GELD,
    "einsatz": HELP_GELD,
    "abrechnung": HELP_GELD,
    "kasse": HELP_GELD,
    "rating": HELP_RATING,
    "skatzahl": HELP_RATING,
    "saison": HELP_RATING,
}


def hilfe(_session: Session, place: Place, request: Topic) -> Reply:
    """``/hilfe [THEMA]``; the overview at a table says what a table does. Only the asker
    needs it: asked as an ephemeral command, only they see the answer."""
    return Reply(_TOPICS.get(request.word, _TABLE_HELP.get(place.kind, HELP)), for_asker=True)
