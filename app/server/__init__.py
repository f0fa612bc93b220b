"""The HTTP and WebSocket face of the server: REST routers, the room socket, auth, pages."""
