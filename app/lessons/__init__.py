"""Lessons: learning to play by playing, on fixed positions built through the engine
(docs/lessons.md). `core/` is pure (the lessons, their goals, a lesson being worked through);
`shell/` keeps a learner's progress and serves a lesson room over the room socket."""
