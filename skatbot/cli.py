"""Command line: ``skatbot [run|webhook|console|wert|sicherung|wiederherstellen|umzug]``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from skatbot.rules import RuleError, contract_text, evaluate
from skatbot.rules.grammar import parse_with_notes


def cmd_wert(words: Sequence[str], as_json: bool) -> int:
    """Compute one game without storing it (docs/rules.md §1)."""
    try:
        announcement, notes = parse_with_notes(words)
        result = evaluate(announcement)
    except RuleError as err:
        print(f"Fehler: {err}", file=sys.stderr)
        return 2
    a = result.announcement
    outcome = "gewonnen" if result.won else "verloren"
    if result.overbid:
        outcome += " (überreizt)"
    print(contract_text(a, schneider=result.schneider, schwarz=result.schwarz))
    for note in notes:
        print(note)
    print(result.breakdown)
    print(f"{outcome}: {result.booking}")
    if as_json:
        print(
            json.dumps(
                {
                    "value": result.value,
                    "score": result.score,
                    "won": result.won,
                    "overbid": result.overbid,
                }
            )
        )
    return 0


class GermanHelp(argparse.RawDescriptionHelpFormatter):
    """argparse's help in German: "Aufruf:" instead of "usage:"."""

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, "Aufruf: " if prefix is None else prefix)


WERT_EPILOG = """\
Beispiele:
  skatbot wert grand ohne 1 hand gewonnen
  skatbot wert karo mit 1 reiz 30 gewonnen --json
  skatbot wert null ouvert verloren

Wörter (Reihenfolge egal, Groß-/Kleinschreibung auch):
  Spiel       karo herz pik kreuz grand null (schellen rot grün eichel)
  Spitzen     mit 2 / ohne 1 / m2 / o1 / ohne eins
  Stufen      hand schneider sa (Schneider angesagt) schwarz swa ouvert
  Reizwert    reiz 30 / r30
  Ergebnis    gewonnen g + / verloren v - / augen 85"""


def _parser(prog: str, **kwargs: Any) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, formatter_class=GermanHelp, add_help=False, **kwargs
    )
    _german_sections(parser)
    return parser


def _german_sections(parser: argparse.ArgumentParser) -> None:
    parser._positionals.title = "Befehle" if parser.prog == "skatbot" else "Argumente"
    parser._optionals.title = "Optionen"
    parser.add_argument("-h", "--help", action="help", help="diese Hilfe zeigen und beenden")


def build_parser() -> argparse.ArgumentParser:
    parser = _parser(
        "skatbot",
        description="Skat-Liste für Telegram. Ohne Befehl: mit TELEGRAM_BOT_TOKEN wie "
        "`skatbot run`, sonst wie `skatbot console`.",
        epilog="Hilfe zu einem Befehl: skatbot BEFEHL --help",
    )
    # "BEFEHL", not the list of names: seven of them would wrap the usage line.
    sub = parser.add_subparsers(dest="command", metavar="BEFEHL")

    def command(name: str, help: str, **kwargs: Any) -> argparse.ArgumentParser:
        child = sub.add_parser(
            name, help=help, description=help, formatter_class=GermanHelp, add_help=False, **kwargs
        )
        _german_sections(child)
        return child

    command("run", "Telegram abfragen (Long Polling, TELEGRAM_BOT_TOKEN)")
    hook = command("webhook", "Telegram-Webhooks bedienen (mehrere Instanzen)")
    hook.add_argument("--listen", default="0.0.0.0", help="Adresse (Standard 0.0.0.0)")
    hook.add_argument("--port", type=int, default=8443, help="Port (Standard 8443)")
    hook.add_argument("--url", required=True, help="öffentliche HTTPS-URL des Webhooks")
    # The secret comes from SKATBOT_WEBHOOK_SECRET: a command line is visible to every user
    # of the machine (ps). --secret is still recognised, to refuse it with that reason.
    hook.add_argument("--secret", help=argparse.SUPPRESS)
    hook.add_argument(
        "--no-set-webhook", action="store_true", help="setWebhook nicht aufrufen (andere Instanz)"
    )
    console = command("console", "dieselben Befehle im Terminal")
    console.add_argument("--out", default="skatbot-out", help="Ordner für Dokumente")
    wert = command(
        "wert",
        "ein Spiel berechnen, ohne es einzutragen",
        epilog=WERT_EPILOG,
        usage="skatbot wert [-h] [--json] ANSAGE...",
    )
    wert.add_argument("--json", action="store_true", help="Ergebnis als JSON (letzte Zeile)")
    wert.add_argument(
        "words", nargs=argparse.REMAINDER, metavar="ANSAGE", help="z. B. grand ohne 1 hand gewonnen"
    )
    backup = command(
        "sicherung",
        "die Datenbank sichern, während der Bot läuft (docs/backup.md)",
        epilog="Beispiel:\n  skatbot sicherung /srv/skatbot/sicherungen/skatbot-2026-12-06.db",
    )
    backup.add_argument("file", metavar="DATEI", help="Ziel: eine neue SQLite-Datei")
    backup.add_argument("--ersetzen", action="store_true", help="eine vorhandene DATEI ersetzen")
    restore = command(
        "wiederherstellen",
        "eine Sicherung in die Datenbank (SKATBOT_DATABASE_URL) zurückspielen; "
        "den Bot vorher anhalten",
        epilog="Beispiel:\n  skatbot wiederherstellen /srv/skatbot/sicherungen/skatbot-2026-12-06.db",
    )
    restore.add_argument("file", metavar="DATEI", help="die Sicherung")
    restore.add_argument(
        "--ersetzen",
        action="store_true",
        help="eine nicht leere Datenbank ganz durch die Sicherung ersetzen",
    )
    move = command(
        "umzug",
        "alles in eine andere, leere Datenbank kopieren (z. B. SQLite → PostgreSQL); "
        "den Bot vorher anhalten",
        epilog="Beispiel:\n  skatbot umzug postgresql+psycopg://skatbot@localhost/skatbot",
    )
    move.add_argument("url", metavar="ZIEL-URL", help="die Datenbank-URL des Ziels")
    return parser


HELP_FLAGS = {"-h", "--help"}


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "wert":
        if HELP_FLAGS & set(args_list[1:]):
            args_list = ["wert", "--help"]  # anywhere among the words, like --json
        else:
            # `--json` may stand anywhere among the words; argparse REMAINDER would swallow it.
            words = [w for w in args_list[1:] if w != "--json"]
            return cmd_wert(words, as_json="--json" in args_list[1:])
    try:
        args = build_parser().parse_args(args_list)
    except SystemExit as done:  # --help (0) or a usage error (2, message already printed)
        return done.code if isinstance(done.code, int) else 2
    from skatbot.storage.database import DatabaseSetupError

    try:
        return run(args)
    except DatabaseSetupError as err:
        print(err, file=sys.stderr)
        return 2


def run_backup_command(args: argparse.Namespace) -> int:
    """sicherung, wiederherstellen, umzug: 0 done and checked, 1 failed (nothing half
    written), 2 refused as asked (the message names the fix)."""
    from pathlib import Path

    from skatbot.storage.backup import (
        BackupError,
        BackupRefused,
        move_database,
        restore_backup,
        take_backup,
    )
    from skatbot.storage.database import DEFAULT_URL, sync_url

    url = os.environ.get("SKATBOT_DATABASE_URL") or DEFAULT_URL
    try:
        if args.command == "sicherung":
            done = take_backup(url, Path(args.file), replace=args.ersetzen)
            print(
                f"Sicherung geschrieben: {args.file} ({done.rows} Zeilen in {done.tables} "
                f"Tabellen, Stand {done.revision}). Geprüft: gleich der Datenbank."
            )
        elif args.command == "wiederherstellen":
            done = restore_backup(Path(args.file), url, replace=args.ersetzen)
            print(
                f"Wiederhergestellt aus {args.file}: {done.rows} Zeilen in {done.tables} "
                "Tabellen. Geprüft: gleich der Sicherung."
            )
        else:
            done = move_database(url, args.url)
            target = sync_url(args.url).render_as_string(hide_password=True)
            print(
                f"Umgezogen nach {target}: {done.rows} Zeilen in {done.tables} Tabellen. "
                "Geprüft: gleich der Quelle. Jetzt SKATBOT_DATABASE_URL auf das Ziel setzen "
                "und den Bot starten."
            )
    except BackupRefused as err:
        print(err, file=sys.stderr)
        return 2
    except (BackupError, OSError) as err:
        print(f"Fehlgeschlagen: {err}", file=sys.stderr)
        return 1
    return 0


def run(args: argparse.Namespace) -> int:
    if args.command in ("sicherung", "wiederherstellen", "umzug"):
        return run_backup_command(args)
    from skatbot import app  # imported late: `wert` must not pay for Telegram/SQLAlchemy

    if args.command == "console":
        return app.run_console_mode(out_dir=args.out)
    token = os.environ.get("TELEGRAM_BOT_TOKEN", "").strip()
    if args.command == "webhook":
        if not token:
            print("TELEGRAM_BOT_TOKEN fehlt.", file=sys.stderr)
            return 2
        from skatbot.web.webhook import parse_sources, run_webhook_mode, valid_secret

        if args.secret is not None:
            print(
                "--secret gibt es nicht mehr: auf der Kommandozeile sieht jeder das Geheimnis "
                "(ps). Setze stattdessen SKATBOT_WEBHOOK_SECRET.",
                file=sys.stderr,
            )
            return 2
        secret = os.environ.get("SKATBOT_WEBHOOK_SECRET", "").strip()
        if not valid_secret(secret):
            print(
                "SKATBOT_WEBHOOK_SECRET fehlt oder ist ungültig: 1–256 Zeichen aus A-Z, a-z, "
                "0-9, _ und -.",
                file=sys.stderr,
            )
            return 2
        try:
            sources = parse_sources(os.environ.get("SKATBOT_WEBHOOK_SOURCES", ""))
        except ValueError as err:
            print(
                f"SKATBOT_WEBHOOK_SOURCES: „{err}“ ist weder eine Adresse noch ein Netz "
                "(z. B. 149.154.160.0/20) noch „telegram“.",
                file=sys.stderr,
            )
            return 2
        return run_webhook_mode(
            token,
            listen=args.listen,
            port=args.port,
            url=args.url,
            secret=secret,
            set_webhook=not args.no_set_webhook,
            sources=sources,
        )
    if args.command == "run" or token:
        if not token:
            print(
                "TELEGRAM_BOT_TOKEN fehlt – ohne Token startet `skatbot console`.", file=sys.stderr
            )
            return 2
        return app.run_telegram_mode(token)
    print("Kein TELEGRAM_BOT_TOKEN gesetzt – starte die Konsole (lokale Bot-API, SQLite).")
    return app.run_console_mode(out_dir="skatbot-out")
