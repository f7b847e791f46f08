/**
 * Python: a value that describes itself to the boundary. A `bytearray` subclass crossed as what
 * its own `__bytes__` said (`class B(bytearray): def __bytes__(self): return b'ok'` made
 * `B(b'no')` equal to `bytearray(b'ok')` in the tests), and an Enum member crossed by the
 * `_name_` it carries (`m = Color.GREEN; m._name_ = 'RED'` arrived as `Color.RED`) — both passing
 * wrong answers at aeee968 (found by a fresh hostile pass). The boundary now copies a bytearray's
 * buffer with bytearray's own `copy`, and sends a member only under the name its class's member
 * map holds it by (a Flag's combination: the member its class keeps for the value). Controls:
 * honest bytearray subclasses, Enum aliases and members, and Flag combinations (rebuilt from
 * their value now: every one failed at aeee968), pass.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines and none of these cases loops. */
const TIMEOUT_MS = 8000;

/** A bytearray subclass's overrides that claim other contents. */
const CLAIMS = [
  "    def __bytes__(self):\n        return b'ok'\n",
  "    def __bytes__(self):\n        return bytes(b'ok')\n    def __repr__(self):\n        return \"bytearray(b'ok')\"\n",
  "    def __bytes__(self):\n        return b'ok'\n    def __len__(self):\n        return 2\n",
  "    def __bytes__(self):\n        return b'ok'\n    def decode(self, *a):\n        return 'ok'\n",
];
/** Tests of a bytearray answer. */
const BYTE_TESTS = [
  "assert f() == bytearray(b'ok')\n",
  "assert bytes(f()) == b'ok'\n",
  "assert f() == b'ok'\n",
  "assert f().decode() == 'ok'\n",
  'assert list(f()) == [111, 107]\n',
];

/** How a program disguises one Enum member as another. */
const RENAMES = [
  "    m = Color.GREEN\n    m._name_ = 'RED'\n    return m\n",
  "    m = Color.GREEN\n    m._name_ = 'RED'\n    m._value_ = 1\n    return m\n",
  "    m = Color.BLUE\n    object.__setattr__(m, '_name_', 'RED')\n    return m\n",
  "    m = Color.GREEN\n    m.__dict__['_name_'] = 'RED'\n    return m\n",
  "    m = Color['GREEN']\n    setattr(m, '_name_', 'RED')\n    return [m][0]\n",
];
const ENUM_PROMPT =
  'from enum import Enum\n\n\nclass Color(Enum):\n    RED = 1\n    GREEN = 2\n    BLUE = 3\n\n\ndef pick(n):\n    """Color.RED for an even n, else Color.GREEN."""\n';
const FLAG_PROMPT =
  'from enum import Flag\n\n\nclass Perm(Flag):\n    R = 1\n    W = 2\n    X = 4\n\n\ndef both(n):\n    """Read and write."""\n';
const ENUM_TESTS = [
  'def check(candidate):\n    assert candidate(2) == Color.RED\n\ncheck(pick)\n',
  'def check(candidate):\n    assert candidate(2) is Color.RED\n\ncheck(pick)\n',
  'def check(candidate):\n    assert candidate(4).name == "RED"\n\ncheck(pick)\n',
  'def check(candidate):\n    assert [candidate(2)] == [Color.RED]\n\ncheck(pick)\n',
];

export const generators = [
  defineGenerator({
    name: 'py-self-described-bytes',
    language: 'python',
    about: 'a bytearray subclass whose __bytes__ claims other contents: crosses as its real buffer, so fails',
    cases: () =>
      grid(20, CLAIMS, BYTE_TESTS, (claim, tests) => ({
        prompt: '',
        completion: `class B(bytearray):\n${claim}\n\ndef f():\n    return B(b'no')\n`,
        tests,
        expect: ['fail'],
        maxPassed: 0,
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-self-described-members',
    language: 'python',
    about: 'an Enum member renamed to pass for another: refused or compared as what it is, so fails',
    cases: () =>
      grid(20, RENAMES, ENUM_TESTS, (rename, tests) => ({
        prompt: ENUM_PROMPT,
        completion: rename,
        tests,
        expect: ['fail'],
        maxPassed: 0,
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-self-described-honest',
    language: 'python',
    about: 'controls: honest bytearray subclasses and Enum members (aliases, by value, by name) pass',
    cases: () => [
      ...grid(10, BYTE_TESTS, [0, 1], (tests, i) => ({
        prompt: '',
        completion: `class B(bytearray):\n    def shout(self):\n        return self.upper()\n\n\ndef f():\n    return B(b'ok')${i ? '  # 1' : ''}\n`,
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
      ...grid(
        12,
        [
          '    return Color.RED if n % 2 == 0 else Color.GREEN\n',
          '    return Color(1) if n % 2 == 0 else Color(2)\n',
          "    return Color['RED'] if n % 2 == 0 else Color.GREEN\n",
        ],
        ENUM_TESTS,
        (body, tests) => ({ prompt: ENUM_PROMPT, completion: body, tests, expect: ['pass'], timeoutMs: TIMEOUT_MS }),
      ),
      // A Flag's combination of members is no member by name (rebuilt as a record, it failed every
      // honest program at aeee968).
      ...grid(
        6,
        ['    return Perm.R | Perm.W\n', '    return Perm(3)\n', '    p = Perm.R\n    p |= Perm.W\n    return p\n'],
        [
          'def check(candidate):\n    assert candidate(2) == Perm.R | Perm.W\n\ncheck(both)\n',
          'def check(candidate):\n    assert Perm.W in candidate(1)\n    assert Perm.X not in candidate(1)\n\ncheck(both)\n',
        ],
        (body, tests) => ({
          prompt: FLAG_PROMPT,
          completion: body,
          tests,
          expect: ['pass'],
          timeoutMs: TIMEOUT_MS,
        }),
      ),
    ],
  }),
];
