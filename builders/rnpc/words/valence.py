"""Valence: whether a word or a sentence speaks well or ill of what it is about, read with VADER
(Hutto and Gilbert, ICWSM 2014; the ``vaderSentiment`` package, MIT licence), a published
lexicon of 7,500 English words rated from -4 (most negative) to +4 by ten people each.

RNPC's EPC reads an event's valence against the noun's: a privative takes away what makes an N
an N, so an event in keeping with N's nature (a painting is admired, a gun kills) becomes less
plausible and one against it (a painting has little value, a gun is harmless) more.
"""

from __future__ import annotations

import re
from functools import cache

from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

# VADER's own cut-off: a compound score within ±0.05 of 0 is neutral (its README).
NEUTRAL_BAND = 0.05


@cache
def _analyzer() -> SentimentIntensityAnalyzer:
    return SentimentIntensityAnalyzer()  # reads its lexicon file once


def word_valence(text: str) -> float:
    """The summed lexicon ratings of the words of ``text`` (0 for words VADER does not rate)."""
    lexicon = _analyzer().lexicon
    return sum(lexicon.get(word, 0.0) for word in re.findall(r"[a-z'-]+", text.lower()))


def sentence_valence(sentence: str) -> int:
    """-1, 0 or +1: VADER's compound score of the sentence (negation and intensifiers read),
    neutral within its ±0.05 band."""
    compound = _analyzer().polarity_scores(sentence)["compound"]
    return (compound > NEUTRAL_BAND) - (compound < -NEUTRAL_BAND)
