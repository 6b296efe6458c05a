"""Command line: ``skatbot [run|webhook|console|wert]``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from skatbot.rules import RuleError, contract_text, evaluate
from skatbot.rules.grammar import parse_with_notes


def cmd_wert(words: Sequence[str], as_json: bool) -> int:
    """Compute one game without storing it (SPEC §1)."""
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="skatbot", description="Skat-Liste für Telegram")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="Telegram long polling (TELEGRAM_BOT_TOKEN)")
    hook = sub.add_parser("webhook", help="Telegram-Webhooks bedienen (mehrere Instanzen)")
    hook.add_argument("--listen", default="0.0.0.0", help="Adresse (Standard 0.0.0.0)")
    hook.add_argument("--port", type=int, default=8443, help="Port (Standard 8443)")
    hook.add_argument("--url", required=True, help="öffentliche HTTPS-URL des Webhooks")
    # The secret comes from SKATBOT_WEBHOOK_SECRET: a command line is visible to every user
    # of the machine (ps). --secret is still recognised, to refuse it with that reason.
    hook.add_argument("--secret", help=argparse.SUPPRESS)
    hook.add_argument(
        "--no-set-webhook", action="store_true", help="setWebhook nicht aufrufen (andere Instanz)"
    )
    console = sub.add_parser("console", help="dieselben Befehle im Terminal")
    console.add_argument("--out", default="skatbot-out", help="Ordner für Dokumente")
    wert = sub.add_parser("wert", help="ein Spiel berechnen, ohne es einzutragen")
    wert.add_argument("--json", action="store_true", help="Ergebnis als JSON (letzte Zeile)")
    wert.add_argument("words", nargs=argparse.REMAINDER, help="z. B. grand ohne 1 hand gewonnen")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "wert":
        # `--json` may stand anywhere among the words; argparse REMAINDER would swallow it.
        words = [w for w in args_list[1:] if w != "--json"]
        return cmd_wert(words, as_json="--json" in args_list[1:])
    args = build_parser().parse_args(args_list)
    from skatbot import app  # imported late: `wert` must not pay for Telegram/SQLAlchemy

    if args.command == "console":
        return app.run_console_mode(out_dir=args.out)
    token = os.environ.get("TELEGRAM_BOT_TOKEN", "").strip()
    if args.command == "webhook":
        if not token:
            print("TELEGRAM_BOT_TOKEN fehlt.", file=sys.stderr)
            return 2
        from skatbot.webhook import run_webhook_mode, valid_secret

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
        return run_webhook_mode(
            token,
            listen=args.listen,
            port=args.port,
            url=args.url,
            secret=secret,
            set_webhook=not args.no_set_webhook,
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
