"""HTTP plumbing the routes share: dependencies, rate limits, refusals in the caller's language,
error responses, trusted proxies, passwords and sign-in limits, graceful shutdown."""
