"""The people of a chat: who is who across spellings (/ich, /wer, /namen), their own data."""
