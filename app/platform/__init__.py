"""What every feature runs on: settings, the bus between instances, socket mailboxes, logs and
metrics, the background job queue (reviews) and the notification outbox's senders (push, email)."""
