"""Everything the bot says leaves through a per-chat outbox, paced to Telegram's limits.

An update's effect is committed before anything is sent; then its reply is handed to the
outbox and the update counts as done. The parts, in the order a reply passes them:

* ``handoff``: the application's outbox (``BotState.outbox``); queueing replies and the
  stored rows of an update; ``resume`` after a restart.
* ``queues``: the ``Outbox``, one queue per chat and lane worked in order; every request
  paced by the ``pacer``, 429s waited out, 5xx and network errors retried.
* ``delivery``: the ``Delivery`` of one reply (or of a stored row): its messages, then
  ``on_sent``, its edits, forum topics and posts; ``sender``: what goes on the wire
  (messages, documents, rich messages (``rich``), edits, pins); ``steps``: each send of a
  stored row recorded, so after a restart what Telegram accepted is not sent again.
* ``coalesce``: which edit of a message goes out; ``topics``: notes for a closed topic or a
  failed file; ``target``: where a reply goes; ``transport``: the Bot API calls used.

Replies are durable: the update's transaction stores them in the outbox table
(``handlers.durable``, ``storage.outbox``) and a row is deleted once Telegram accepted all of
it.
"""
