"""Use cases of league play (a league's match-day group run from the group leader's chat).

``/liga NAME`` makes the place the league's desk; ``/mannschaft`` enters the teams,
``/kapitaen TEAM`` sends a captain's code to the person the management names
(``roles``: privately, bound to that account) and ``/kapitaen CODE`` binds them, ``/spieltag N [Ort] [Datum]`` opens a match day
with every team's line-up, ``/aufstellung`` changes the line-up for series 1 (which fixes the
seating of the day), ``/setzen`` seats the next series, ``/wechsel`` substitutes between or
during a series, ``/ergebnis`` (at a league desk) takes the results, ``/sitzplan`` shows a
series, ``/bestaetigen`` is a captain's confirmation, ``/freigeben`` approves a day and locks
it. A decentral day's host, named at the desk with ``/ausrichter`` (the code goes to them
alone), links their own chat with ``/ausrichter CODE`` and runs the day
there on its date. The seating, scores, match points and tables are the pure functions of
:mod:`skatbot.rules.league`.

The modules: ``common`` (the desk, a day's state), ``access`` (the checks of the league's
rights, declared in ``common.rights``), ``texts`` (the words of the results), ``setup`` (/liga,
/mannschaft, /kapitaen, /ausrichter), ``roles`` (codes that grant a role: to one person),
``day`` (/spieltag, /aufstellung, /setzen, /sitzplan,
/wechsel), ``results`` (/ergebnis, /bestaetigen, /freigeben and the texts of series and
days), ``documents`` (/tabelle, /einzelwertung and their PDFs) and ``tables`` (tables that
report from their own lists).

Who may do what (the routes declare it: ``LEAGUE_MANAGER``, ``DAY_RUNNER``,
``TEAM_CAPTAIN``): the league's creator and the chat's admins manage everything; a team's
captain may change that team's line-up and substitute its players (the team named in the
request); a host (and the host chat's admins) runs their day; a captain confirms the day for
the teams they captain (checked by ``/bestaetigen`` itself: the asker's own data); reading
is for everyone, also in a chat that hosted a day before.
"""
