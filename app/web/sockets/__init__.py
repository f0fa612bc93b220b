"""The room socket and the lobby socket, and what they share: one base (close codes, the outgoing
queue, the handshake's steps, the receive loop), the handshake's gate, frame refusals, the open
sockets by token."""
