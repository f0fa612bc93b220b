"""No English left in the client's JS or HTML outside the English catalogue: every literal that
reads as words a person reads (a capitalised word, or three words, or a sentence's punctuation)
is a finding, in every module and in index.html. Code words (keys, CSS classes, event and
message types, selectors) are not sentences; console messages are for developers."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "static"
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`((?:[^`\\]|\\.)*)`')
COMMENT = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S)
DEVELOPER = re.compile(r"console\.(warn|error|log|info)\([^;]*")
SENTENCE = re.compile(r"\b[A-Z][a-z]{2,}\b.*\b[a-z]{2,}\b|\b[a-z]{2,}\s+[a-z]{2,}\s+[a-z]{2,}\b"
                      r"|[a-z]{2,}[.!?…:]\s*$|[a-z]{2,}[.!?:] [A-Za-z]")
CODE = re.compile(r"^[\w.:#\-\[\]=\"'@/ ,>*()]*$")  # selectors, keys, class lists, ids


def _reads_as_words(text: str) -> bool:
    text = re.sub(r"\$\{[^}]*\}", " ", text)
    if not re.search(r"[A-Za-z]{2,}", text):
        return False
    sentence_like = re.search(r"\b[A-Z][a-z]{2,} [a-z]", text) or re.search(r"[a-z] [a-z]+ [a-z]+ [a-z]", text)
    if CODE.match(text) and not sentence_like:
        return False
    return bool(SENTENCE.search(text))


def findings(path: Path) -> list[str]:
    source = DEVELOPER.sub("", COMMENT.sub("", path.read_text(encoding="utf-8")))
    found = []
    for m in LITERAL.finditer(source):
        text = next(g for g in m.groups() if g is not None)
        if "=>" in text or ";\n" in text:  # not a string: the regex ran over code between two templates
            continue
        if _reads_as_words(text):
            found.append(text)
    return found


# Modules not yet through the catalogue: none any more (each must still hold
# English while listed, and no other may: a new module says its words through the catalogue).
PENDING: set[str] = set()


def test_no_english_in_the_client_outside_the_catalogue() -> None:
    left = {p.name: findings(p) for p in sorted(STATIC.glob("*.js")) if p.name != "types.js"}
    left = {name: texts for name, texts in left.items() if texts}
    assert set(left) - PENDING == set(), "English in the client, not in static/i18n/en.json:\n" + "\n".join(
        f"{name}: {texts}" for name, texts in left.items() if name not in PENDING)
    assert set(left) >= PENDING, f"converted: take {sorted(PENDING - set(left))} off PENDING"


def test_the_page_shell_has_no_english() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    body = re.sub(r"<[^>]+>", "\n", re.sub(r"<head>.*</head>", "", html, flags=re.S))
    words = [line.strip() for line in body.splitlines() if re.search(r"[A-Za-z]{3,}", line)]
    assert not words, f"index.html says {words}"


def test_the_finder_finds_english() -> None:
    """The checks above would see a sentence, a label, a button's word pair."""
    assert _reads_as_words("Your turn (waiting for the server).")
    assert _reads_as_words("Sit here") and _reads_as_words("Play cards to the centre")
    assert not _reads_as_words("card face") and not _reads_as_words("tb.your_turn")
    assert not _reads_as_words(".seat[data-seat] button.primary") and not _reads_as_words("small primary")
