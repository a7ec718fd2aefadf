#!/usr/bin/env python3
"""gen-names.py — writes examples/names.txt: 400 invented first names for the
makemore-style example (examples/names.ag).

The names are made, not copied: syllables drawn with a fixed seed from small
hand-written tables of onsets, vowels and endings, so the file is the same on
every run and holds no list from elsewhere. Usage: python3 tools/gen-names.py"""
import random

ONSETS = ["b", "br", "c", "ch", "d", "el", "f", "g", "h", "j", "k", "l", "m", "n",
          "p", "r", "s", "sh", "t", "th", "v", "w", "z", "m", "l", "j", "a", "e"]
VOWELS = ["a", "e", "i", "o", "u", "a", "e", "i", "o", "a", "e", "y", "ia", "ea"]
MIDDLES = ["l", "r", "n", "m", "s", "v", "d", "th", "nd", "ll", "rr", "t", "k", "b"]
ENDINGS = ["", "", "", "n", "n", "s", "l", "r", "lyn", "na", "en", "h", "th", "nne",
           "tte", "ra", "la", "ley", "son", "el"]


def name(rng):
    parts = [rng.choice(ONSETS), rng.choice(VOWELS)]
    for _ in range(rng.choice([0, 1, 1, 2])):
        parts += [rng.choice(MIDDLES), rng.choice(VOWELS)]
    parts.append(rng.choice(ENDINGS))
    return "".join(parts)


def main():
    rng = random.Random(2024)
    names = []
    seen = set()
    while len(names) < 400:
        n = name(rng)
        vowel_run = any(all(c in "aeiouy" for c in n[i:i + 3]) for i in range(len(n) - 2))
        if 3 <= len(n) <= 9 and n not in seen and not vowel_run:
            seen.add(n)
            names.append(n)
    with open("examples/names.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main()
