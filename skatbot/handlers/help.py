"""/start and /hilfe texts, and the command menu."""

from __future__ import annotations

from sqlalchemy.orm import Session

from skatbot.handlers.reply import Command, Reply

COMMANDS: list[tuple[str, str]] = [
    ("neu", "Neue Liste: /neu Anna Bernd Carla [Dora]"),
    ("spiel", "Spiel eintragen – ohne Worte mit Knöpfen, oder: /spiel Anna grand ohne 1 hand g"),
    ("eingepasst", "Alle haben gepasst"),
    ("stand", "Serienabschluss mit Rechenweg"),
    ("anheften", "Stand anheften – wird nach jedem Spiel aktualisiert"),
    ("liste", "Die letzten Zeilen der Liste"),
    ("korrigieren", "Spiel N korrigieren: /korrigieren 7 Anna …"),
    ("storno", "Spiel N streichen: /storno 7"),
    ("geber", "Nächsten Geber festlegen"),
    ("serie", "Serienlänge ändern: /serie 48"),
    ("umbenennen", "Anzeigenamen ändern"),
    ("wert", "Spielwert berechnen, ohne einzutragen"),
    ("export", "Liste als JSON"),
    ("pdf", "Liste als PDF"),
    ("abschluss", "Serie abschließen (mit PDF)"),
    ("weiter", "Neue Serie mit denselben Spielern"),
    ("vordruck", "Leere Liste zum Ausdrucken: /vordruck 3 oder 4"),
    ("hilfe", "Hilfe und Beispiele – /hilfe spiel: alle Wörter der Spielansage"),
]

HELP = """<b>skatbot – die Skatliste im Gruppenchat</b>
/neu Anna Bernd Carla [Dora] [geber Bernd] – neue Liste in Sitzreihenfolge
/spiel – Spiel mit Knöpfen eintragen
/spiel Anna grand ohne 1 hand gewonnen – Spiel per Text eintragen
/eingepasst – alle haben gepasst
/stand – Serienabschluss · /liste [alle] – die Zeilen · /anheften – Stand oben anheften
/korrigieren 7 Anna kreuz mit 2 gewonnen · /storno 7
/geber Bernd · /serie 48 · /umbenennen Anna Annika
/wert grand ohne 1 hand gewonnen – nur rechnen
/export – JSON · /pdf – Liste als PDF · /vordruck 3|4 – leeres Formular
/abschluss – Serie beenden (mit PDF) · /weiter – neue Serie, gleiche Spieler

<b>Spielansage</b> (Reihenfolge egal, groß/klein egal):
Spiel: karo herz pik kreuz grand null (auch schellen rot grün eichel)
Spitzen: mit 2 · ohne 1 · m2 · o1
Stufen: hand · schneider · schneider angesagt (sa) · schwarz · schwarz angesagt (swa) · ouvert
Reizwert: reiz 30 · r30
Ergebnis: gewonnen / g / + · verloren / v / - · oder augen 85
Beispiele:
/spiel an kreuz mit 2 r36 g
/spiel bernd null ouvert hand verloren
/spiel carla herz ohne 3 augen 92
Alle Wörter mit Beispielen: /hilfe spiel"""

HELP_SPIEL = """<b>/spiel – so trägst du ein Spiel ein</b>
Am schnellsten: /spiel ohne Worte öffnet die Knöpfe (Spieler, Spiel, Spitzen, Stufen,
Ergebnis, Eintragen). Oder per Text: /spiel NAME ANSAGE – Reihenfolge und groß/klein egal.

<b>Name</b>: der Anfang reicht, wenn er eindeutig ist (an → Anna).
<b>Spiel</b>: karo · herz · pik · kreuz · grand · null
  auch deutsches Blatt: schellen = karo · rot = herz · grün/gruen = pik · eichel = kreuz
<b>Spitzen</b> (nicht beim Null): mit 2 · ohne 1 · auch mit2 · m2 · o1
  Farbspiel 1 bis 11, Grand 1 bis 4
<b>Stufen</b>: hand · schneider · schwarz · ouvert (auch offen)
  schneider angesagt (sa) · schwarz angesagt (swa) – ansagen geht nur mit hand
  ouvert im Farbspiel/Grand ist immer Hand mit Schneider und Schwarz angesagt
  Null: nur hand und ouvert (Null 23 · Hand 35 · ouvert 46 · ouvert Hand 59)
<b>Reizwert</b> (freiwillig): reiz 30 · gereizt 30 · r30 – zu hoch gereizt = überreizt
<b>Ergebnis</b>: gewonnen · g · + oder verloren · v · -
  oder augen 85 (Augen des Alleinspielers; ab 61 gewonnen, ab 90 Schneider)
<b>Hausregeln</b>: zusätzlich kontra · re
<b>Eingepasst</b>: /eingepasst oder /spiel passe

<b>Beispiele</b>
/spiel anna grand ohne 1 hand gewonnen → 72
/spiel bernd kreuz mit 2 r36 g → 36
/spiel carla herz ohne 3 augen 92 → Schneider, 50
/spiel an null ouvert hand verloren → −118
/spiel be pik mit 1 hand sa g → 55
/spiel ca eichel ohne 2 swa hand g → Schwarz angesagt, 96
/spiel anna karo mit 1 reiz 30 g → überreizt, −72

<b>Danach</b>: /korrigieren 7 Anna kreuz mit 2 gewonnen · /storno 7 – oder die Knöpfe
unter der Buchung (Korrigieren, Stornieren, Stand)."""


def start(_session: Session, cmd: Command) -> Reply:
    if cmd.chat_id > 0:  # private chat
        return Reply(
            "Hallo! Ich führe eure Skatliste im Gruppenchat.\n"
            "Füge mich einer Gruppe hinzu (Gruppeninfo → Mitglieder hinzufügen → skatbot) und "
            "startet dort mit /neu Anna Bernd Carla.\n\n" + HELP
        )
    return Reply(HELP)


def hilfe(_session: Session, cmd: Command) -> Reply:
    if cmd.args and cmd.args[0].casefold().lstrip("/") == "spiel":
        return Reply(HELP_SPIEL)
    return Reply(HELP)
