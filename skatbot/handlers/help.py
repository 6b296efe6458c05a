"""/start and /hilfe texts, and the command menu."""

from __future__ import annotations

from sqlalchemy.orm import Session

from skatbot.handlers.reply import Command, Reply

COMMANDS: list[tuple[str, str]] = [
    ("neu", "Neue Liste: /neu Anna Bernd Carla [Dora]"),
    ("spiel", "Spiel eintragen: /spiel Anna grand ohne 1 hand gewonnen"),
    ("eingepasst", "Alle haben gepasst"),
    ("stand", "Serienabschluss mit Rechenweg"),
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
    ("hilfe", "Hilfe und Beispiele"),
]

HELP = """<b>skatbot – die Skatliste im Gruppenchat</b>
/neu Anna Bernd Carla [Dora] [geber Bernd] – neue Liste in Sitzreihenfolge
/spiel Anna grand ohne 1 hand gewonnen – Spiel eintragen
/eingepasst – alle haben gepasst
/stand – Serienabschluss · /liste [alle] – die Zeilen
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
/spiel carla herz ohne 3 augen 92"""


def start(_session: Session, cmd: Command) -> Reply:
    if cmd.chat_id > 0:  # private chat
        return Reply(
            "Hallo! Ich führe eure Skatliste im Gruppenchat.\n"
            "Füge mich einer Gruppe hinzu (Gruppeninfo → Mitglieder hinzufügen → skatbot) und "
            "startet dort mit /neu Anna Bernd Carla.\n\n" + HELP
        )
    return Reply(HELP)


def hilfe(_session: Session, _cmd: Command) -> Reply:
    return Reply(HELP)
