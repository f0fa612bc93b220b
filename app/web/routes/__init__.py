"""The REST routes, one router per resource."""
