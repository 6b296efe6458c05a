"""The web application: one Starlette app on uvicorn serving the webhook, the Mini App and its
JSON API, the live pages for the hall, and the health and metrics endpoints.

It sits above the Telegram adapters (``skatbot.handlers``): a web request is one more way in,
handled through the same runtime and use cases as a chat message.
"""
