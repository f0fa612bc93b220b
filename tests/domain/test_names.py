"""What a name looks like: Unicode's default-ignorable code points (variation selectors, the
combining grapheme joiner, Mongolian free variation selectors, format controls, fillers, tags)
draw nothing, so the look-alike skeleton ignores every one of them."""

from __future__ import annotations

from app.domain.names import skeleton, without_ignorables

# One or more code points from each range of Default_Ignorable_Code_Point (Unicode's
# DerivedCoreProperties.txt), the brief's four first.
IGNORABLE = ("\u034f", "\ufe0f", "\u180b", "\U000e0100", "\u00ad", "\u061c", "\u115f", "\u1160", "\u17b4",
             "\u17b5", "\u180c", "\u180d", "\u180e", "\u180f", "\u200b", "\u200c", "\u200d", "\u200e", "\u200f",
             "\u202a", "\u202e", "\u2060", "\u2064", "\u2065", "\u206f", "\u3164", "\ufe00", "\ufeff", "\uffa0",
             "\ufff0", "\ufff8", "\U0001bca0", "\U0001bca3", "\U0001d173", "\U0001d17a", "\U000e0000",
             "\U000e0001", "\U000e0041", "\U000e007f", "\U000e01ef", "\U000e0fff")


def test_default_ignorables_leave_no_trace_in_the_skeleton() -> None:
    for mark in IGNORABLE:
        assert skeleton(f"H{mark}ard bot 2") == "hard bot 2", hex(ord(mark))
        assert skeleton(f"A{mark}nn") == skeleton("Ann"), hex(ord(mark))
        assert without_ignorables(f"A{mark}nn{mark}") == "Ann", hex(ord(mark))


def test_visible_marks_and_letters_stay() -> None:
    for name in ("Zoë", "Zoe\u0308", "Łukasz", "李雷", "ñ", "\u2800x", "A B"):
        assert without_ignorables(name) == name
    assert skeleton("Zoe\u0308") != skeleton("Zoe")  # a diaeresis draws something
