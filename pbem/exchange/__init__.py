"""Exchange: files as text (armor), files out of what arrives (intake), and the mail loop (mailer, watch)."""
