"""The room socket and the lobby socket, and what they share: the handshake, frame refusals, the
open sockets by token."""
