"""Commands that choose between a chat, a tournament desk and a table: /export, /abrechnung, closing and documents, deletion (admin), help, typos."""
