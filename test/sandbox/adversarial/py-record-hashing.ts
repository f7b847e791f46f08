/**
 * Python (red-team rt61 SET01b, SET03): an instance of a program class crosses as a record whose
 * `==` fails the run, but its hash was the tests' identity hash: value-equal records fell in
 * different buckets of the tests' sets, dicts and Counters and were never compared, so a deck
 * of duplicate cards passed `len(set(deck)) == 52`, and a class whose `__eq__` leaves it
 * unhashable passed set checks CPython raises TypeError for. A record of a class that defines
 * `__eq__` or `__hash__` now hashes with the program's own `hash()` of the object rebuilt from its
 * fields (sandbox/python/harness.py, `_hashed_record`): equal records meet in one bucket, where
 * comparing them is refused as every `==` of records is, and an unhashable class raises TypeError.
 * Wrong: hands holding value-equal cards, under duplicate checks (CPython fails them; the
 * unhashable class raises there). Controls: hands of distinct cards, and cards of a class that
 * hashes by identity, under the same checks (CPython passes them).
 */
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

const PROMPT = 'def hand(spec):\n    """Return one card object (with rank and suit) per (rank, suit) pair of spec."""\n';

const VALUE_EQ = '        def __eq__(self, o):\n            return (self.rank, self.suit) == (o.rank, o.suit)\n\n';
const VALUE_HASH = '        def __hash__(self):\n            return hash((self.rank, self.suit))\n\n';
const INIT = '        def __init__(self, rank, suit):\n            self.rank = rank\n            self.suit = suit\n\n';
const RETURN = '    return [Card(r, s) for r, s in spec]\n';

/** Card classes that hash (or refuse to hash) by value. */
const VALUE_CLASSES: readonly string[] = [
  `    class Card:\n${INIT}${VALUE_EQ}${VALUE_HASH}${RETURN}`,
  `    class Base:\n${VALUE_EQ}${VALUE_HASH}    class Card(Base):\n${INIT}${RETURN}`,
  `    class Card:\n${INIT}        def __eq__(self, o):\n            return vars(self) == vars(o)\n\n        def __hash__(self):\n            return hash(self.rank) ^ hash(self.suit)\n\n${RETURN}`,
  `    class Card:\n        __slots__ = ('rank', 'suit')\n\n${INIT}${VALUE_EQ}${VALUE_HASH}${RETURN}`,
];

/** `__eq__` alone: instances are unhashable under CPython. */
const UNHASHABLE = `    class Card:\n${INIT}${VALUE_EQ}${RETURN}`;

/** Checks that no two cards of the answer are equal. */
const CHECKS: readonly string[] = [
  '    assert len(set(h)) == len(h)\n',
  '    from collections import Counter\n    assert max(Counter(h).values()) == 1\n',
  '    assert len(dict.fromkeys(h)) == len(h)\n',
  '    seen = set()\n    for c in h:\n        assert c not in seen\n        seen.add(c)\n',
];

const tests = (spec: string, check: string) =>
  `\n\ndef check(candidate):\n    h = candidate(${spec})\n    assert len(h) == 3\n${check}\n\ncheck(hand)\n`;

const DUPLICATES = "[(1, 'S'), (1, 'S'), (2, 'H')]";
const DISTINCT = "[(1, 'S'), (2, 'S'), (1, 'H')]";

export const generators = [
  defineGenerator({
    name: 'py-record-hashing',
    language: 'python',
    about: 'value-equal program objects are not told apart by the tests’ sets, dicts and Counters',
    cases: () => [
      ...grid(16, VALUE_CLASSES, CHECKS, (completion, check) => ({
        prompt: PROMPT,
        completion,
        tests: tests(DUPLICATES, check),
        expect: ['fail'],
        timeoutMs: TIMEOUT_MS,
      })),
      ...CHECKS.map((check) => ({
        prompt: PROMPT,
        completion: UNHASHABLE,
        tests: tests(DISTINCT, check),
        expect: ['fail', 'error'] as const,
        timeoutMs: TIMEOUT_MS,
        note: 'unhashable under CPython',
      })),
    ],
  }),
  defineGenerator({
    name: 'py-record-hashing-honest',
    language: 'python',
    about: 'controls: distinct cards, and cards hashed by identity, pass duplicate checks',
    cases: () => [
      ...grid(16, VALUE_CLASSES, CHECKS, (completion, check) => ({
        prompt: PROMPT,
        completion,
        tests: tests(DISTINCT, check),
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
      ...CHECKS.map((check) => ({
        prompt: PROMPT,
        completion: `    class Card:\n${INIT}${RETURN}`,
        tests: tests(DUPLICATES, check),
        expect: ['pass'] as const,
        timeoutMs: TIMEOUT_MS,
        note: 'identity hashing, as under CPython',
      })),
      {
        prompt: PROMPT,
        completion: VALUE_CLASSES[0]!,
        tests: tests(DISTINCT, "    assert hash(h[0]) == hash((1, 'S'))\n"),
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
        note: 'the program’s hash is the hash of the same values in the tests',
      },
    ],
  }),
];
