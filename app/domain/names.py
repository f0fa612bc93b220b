"""What a name looks like, not what it is made of: `skeleton` maps each character that can pass
for a Latin letter or digit (Unicode's confusables, TR 39, through `confusable_homoglyphs`) to
it, after NFKC and casefolding, so `Аnn` (Cyrillic А) and `Ann`, or `Hard bοt 2` (Greek ο) and
`Hard bot 2`, have one skeleton; Unicode's default-ignorable code points (variation selectors,
the combining grapheme joiner, format controls, fillers, tags: they draw nothing) are no part of
a skeleton, so `A\u034fnn` looks like `Ann` too. `invisible` tells a name with no visible letter
or digit (only fillers such as U+3164 or U+2800, or marks) from one a person can read. Pure: data
only."""

from __future__ import annotations

import functools
import unicodedata

import regex
from confusable_homoglyphs.confusables import confusables_data

# The whole Default_Ignorable_Code_Point property (as the `regex` module's Unicode data has it,
# newer than this Python's `unicodedata`), not a hand-kept list.
IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}+")

# Printable characters that draw nothing: Hangul fillers, Khmer inherent vowels, the Mongolian
# vowel separator, the Braille blank, the Halfwidth Hangul filler.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u17b4\u17b5\u180e\u2800")


@functools.cache
def _prototype(char: str) -> str:
    if char.isascii():
        return char
    for glyph in confusables_data.get(char, ()):
        if len(glyph["c"]) == 1 and glyph["c"].isascii() and glyph["c"].isalnum():
            return str(glyph["c"])
    return char


def without_ignorables(text: str) -> str:
    """`text` without its default-ignorable code points (what draws nothing)."""
    return IGNORABLE.sub("", text)


def skeleton(name: str) -> str:
    """The name as it looks: confusable letters folded to Latin, what draws nothing dropped, case
    and spacing ignored."""
    normal = without_ignorables(unicodedata.normalize("NFKC", without_ignorables(name)))
    folded = "".join(_prototype(c) for c in normal)
    return " ".join(folded.casefold().split())


def invisible(name: str) -> bool:
    """Whether the name has no letter or digit a reader would see."""
    return not any(unicodedata.category(c)[0] in "LN" and c not in BLANKS for c in name)


def has_blanks(name: str) -> bool:
    return any(c in BLANKS for c in name)
