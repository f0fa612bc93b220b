"""The web layer: `create_app` (the one composition root, in `app`), the REST routes, the room and
lobby sockets, the wire schemas (typed messages, parsed at the edge) and the HTTP plumbing
(dependencies, limits, refusals, proxies)."""
