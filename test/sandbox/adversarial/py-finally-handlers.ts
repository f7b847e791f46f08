/**
 * Python (red-team rt7-py F02, F05–F07, K04_h/K05_h/K11_h/K12_h), beside py-finally-jumps.ts: more
 * shapes of a `finally` that returns, breaks or continues on a `try` *with* typed handlers, none of
 * which matches what the program raises (a flag-guarded `break` under `except ZeroDivisionError`, a
 * re-raising handler under `finally: continue`, a per-case helper with `else` and a returning
 * `finally`, `except*` per case, a `while` loop, a generator of outcomes, nested `try`s). Attacks:
 * the raising `fact` fails with no site passed. Wrong twins: a wrong value on the same shapes scores
 * no site either. Controls: the same shapes on an honest `fact`, and expected raises judged by the
 * handlers (`except ValueError: assert bad`) under a jumping `finally`.
 */
import { factCases, honestFact, raisingShapes, wrongShapes } from './fact-programs.ts';
import { defineGenerator, type Rng } from './framework.ts';

const SHAPES: ReadonlyArray<(rng: Rng) => string> = [
  // F05: the tests guard one error class; the finally stops the loop on anything else.
  (rng) => {
    const done = rng.pick(['completed', 'finished', 'ran']);
    return `for n, w in ${factCases(rng, true)}:\n    ${done} = False\n    try:\n        got = fact(n)\n        assert got == w, (n, got)\n        ${done} = True\n    except ZeroDivisionError:\n        print('division error on', n)\n        ${done} = True\n    finally:\n        if not ${done}:\n            print('aborting at', n)\n            break\n`;
  },
  // F02: the handler re-raises, the finally continues.
  (rng) =>
    `for n, w in ${factCases(rng, true)}:\n    try:\n        assert fact(n) == w, n\n    except AssertionError:\n        print('wrong answer for', n)\n        raise\n    finally:\n        continue\n`,
  // F06: a per-case helper with else and a returning finally, called by check(candidate).
  (rng) => {
    const one = rng.pick(['one', 'run_one', 'case']);
    return `def ${one}(candidate, n, w):\n    try:\n        got = candidate(n)\n    except AssertionError:\n        return False\n    else:\n        assert got == w, (n, got)\n        return True\n    finally:\n        return True\n\ndef check(candidate):\n    good = [${one}(candidate, n, w) for n, w in ${factCases(rng, true)}]\n    print(good)\n\ncheck(fact)\n`;
  },
  // F07: except* per case, the finally returns None.
  (rng) =>
    `def run_case(n, w):\n    try:\n        got = fact(n)\n        assert got == w, (n, got)\n    except* AssertionError:\n        print('mismatch', n)\n    finally:\n        return None\n\nfor n, w in ${factCases(rng, true)}:\n    run_case(n, w)\n`,
  // A while loop over an index; the finally breaks when the case did not finish.
  (rng) =>
    `cases = ${factCases(rng, true)}\ni = 0\nwhile i < len(cases):\n    n, w = cases[i]\n    ok = False\n    try:\n        assert fact(n) == w\n        ok = True\n    except (AssertionError, LookupError) as e:\n        print('bad case', n, e)\n        raise\n    finally:\n        if not ok:\n            break\n    i += 1\n`,
  // A generator of outcomes whose finally returns (ending the iteration).
  (rng) =>
    `def outcomes():\n    for n, w in ${factCases(rng, true)}:\n        try:\n            got = fact(n)\n            assert got == w\n            yield n\n        except AssertionError:\n            yield -n\n        finally:\n            if n > 1:\n                return\n\nprint(list(outcomes()))\n`,
  // Nested: an inner try with a typed handler and a jumping finally inside an outer loop's try.
  (rng) =>
    `def tally():\n    count = 0\n    for n, w in ${factCases(rng, true)}:\n        try:\n            try:\n                assert fact(n) == w\n                count += 1\n            except AssertionError:\n                print('miss', n)\n            finally:\n                if n > 1:\n                    return count\n        except ArithmeticError:\n            pass\n    return count\n\nprint(tally())\n`,
];

/** Expected raises judged by the handlers, under a finally that jumps (honest programs pass). */
const JUDGED: ReadonlyArray<(rng: Rng) => string> = [
  // K11_h: a helper that reports the raise; the finally passes.
  (rng) => {
    const m = -rng.int(1, 9);
    return `def raises(n):\n    try:\n        fact(n)\n    except ValueError:\n        return True\n    finally:\n        pass\n    return False\nassert raises(${m})\nassert not raises(${rng.int(0, 6)})\nassert fact(4) == 24\n`;
  },
  // K05_h: expected ValueError caught under finally: continue.
  (rng) =>
    `for n in [${-rng.int(1, 4)}, ${-rng.int(5, 9)}]:\n    try:\n        fact(n)\n        assert False, 'should raise'\n    except ValueError:\n        pass\n    finally:\n        continue\nassert fact(3) == 6\n`,
  // K12_h: the handler's assert judges the raise; finally: continue.
  (rng) =>
    `for n, bad in [(${-rng.int(1, 9)}, True), (3, False)]:\n    try:\n        got = fact(n)\n        assert not bad and got == 6\n    except ValueError as e:\n        assert bad, e\n    finally:\n        continue\n`,
  // K04_h: finally: return ok on an honest program, every case ok.
  (rng) =>
    `def run_case(n, w):\n    ok = False\n    try:\n        assert fact(n) == w\n        ok = True\n    except AssertionError:\n        print('MISMATCH')\n    finally:\n        return ok\nassert all([run_case(n, w) for n, w in ${factCases(rng, true)}])\n`,
  // An expected raise judged in a method whose finally returns the verdict.
  (rng) =>
    `class Probe:\n    def rejects(self, n):\n        seen = False\n        try:\n            fact(n)\n        except ValueError:\n            seen = True\n        finally:\n            return seen\np = Probe()\nassert p.rejects(${-rng.int(1, 9)})\nassert not p.rejects(${rng.int(0, 5)})\n`,
];

const NAME = 'py-finally-handlers';

export const generators = [
  raisingShapes(
    'python',
    NAME,
    'more jumping finally shapes on a try with typed handlers, none matching the raise: fail, no site passed',
    SHAPES,
  ),
  wrongShapes('python', NAME, SHAPES),
  defineGenerator({
    name: `${NAME}-honest`,
    language: 'python',
    about: 'controls: the shapes and expected raises judged by handlers under a jumping finally, on an honest fact',
    cases: (rng) => {
      const tests = [...SHAPES, ...JUDGED, ...JUDGED].map((shape) => shape(rng));
      return honestFact('python', `${NAME}-honest`, '', tests.length * 2, tests).cases(rng);
    },
  }),
];
