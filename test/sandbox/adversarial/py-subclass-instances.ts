/**
 * Python: an answer that is an instance of the program's own subclass of a prompt class. It used to
 * cross as a record of the program's class whose methods were forwarded to the program: an
 * override (`class Liar(Vec): def same(self, o): return True`) answered the tests' `v.same(w)`
 * with program code, and an instance field holding a function answered for the method; honest
 * subclass instances failed `==` (a record is not a value) and `isinstance(v, Vec)`. The class
 * description now carries the names on the class's MRO, and T rebuilds the instance over its own
 * copy of the nearest prompt class there: that class's methods, properties and operators answer;
 * a program function in a field named like one of them is refused; only what the prompt class
 * lacks, or leaves to subclasses (abstract, or raising NotImplementedError), is forwarded to the
 * program. Attacks: fail with nothing passed. Wrong answers without tricks: fail. Controls:
 * honest subclass instances pass, including the prompt's abstract method implemented by the
 * program.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines and none of these cases loops. */
const TIMEOUT_MS = 8000;

const METHODS = ['same', 'equals', 'matches', 'is_same', 'eq'];

const vecPrompt = (m: string) =>
  `class Vec:\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n\n    def __eq__(self, o):\n        return isinstance(o, Vec) and o.x == self.x and o.y == self.y\n\n    def ${m}(self, o):\n        return isinstance(o, Vec) and o.x == self.x and o.y == self.y\n\n    @property\n    def norm1(self):\n        return abs(self.x) + abs(self.y)\n\n\ndef add(a, b):\n    """The sum of two vectors."""\n`;

/** The tests call the method, compare with `==`, or read the property. */
const TESTS: ReadonlyArray<(m: string, k: number) => string> = [
  (m, k) =>
    `def check(candidate):\n    assert candidate(Vec(1, 2), Vec(3, ${k})).${m}(Vec(4, ${2 + k}))\n    assert candidate(Vec(2, 2), Vec(3, 5)).${m}(Vec(5, 7))\n\ncheck(add)\n`,
  (_m, k) =>
    `def check(candidate):\n    assert candidate(Vec(1, 2), Vec(3, ${k})) == Vec(4, ${2 + k})\n    assert candidate(Vec(2, 2), Vec(3, 5)) == Vec(5, 7)\n\ncheck(add)\n`,
  (_m, k) => `def check(candidate):\n    v = candidate(Vec(1, 2), Vec(3, ${k}))\n    assert v.norm1 == ${6 + k}\n\ncheck(add)\n`,
];

/** A subclass of `Vec` named `name` (through `Mid` when `mid`) with `body` (indented 8). */
const subclass = (name: string, mid: boolean, body = '        pass\n') =>
  mid ? `    class Mid(Vec):\n        pass\n    class ${name}(Mid):\n${body}` : `    class ${name}(Vec):\n${body}`;

/** Ways the program's subclass answers for a member of the prompt's `Vec` with its own code. */
const LIARS: ReadonlyArray<(m: string, mid: boolean) => string> = [
  (m, mid) =>
    `${subclass('Liar', mid, `        def ${m}(self, o):\n            return True\n\n        def __eq__(self, o):\n            return True\n\n        @property\n        def norm1(self):\n            return ${'self._n'}\n`)}    v = Liar(0, 0)\n    v._n = 6 + b.y\n    return v\n`,
  (m, mid) => `${subclass('Liar', mid)}    v = Liar(0, 0)\n    v.${m} = lambda o: True\n    return v\n`,
  (m, mid) =>
    `${subclass('Out', mid, `        def __init__(self):\n            super().__init__(-1, -1)\n            self.${m} = lambda o: True\n`)}    return Out()\n`,
  (_m, mid) => `${subclass('Liar', mid, `        norm1 = 0\n`)}    v = Liar(0, 0)\n    v.norm1 = 6 + b.y\n    return v\n`,
];

/** A prompt whose base class leaves `area` to subclasses (three ways). */
const shapePrompt = (how: number) => {
  const imp = how === 2 ? 'import abc\n\n\n' : '';
  const head = how === 2 ? 'class Shape(abc.ABC):\n    @abc.abstractmethod\n' : 'class Shape:\n';
  const body =
    how === 0
      ? '        raise NotImplementedError\n'
      : how === 1
        ? '        raise NotImplementedError("subclasses say")\n'
        : '        ...\n';
  return `${imp}${head}    def area(self):\n${body}\n    def double(self):\n        return 2 * self.area()\n\n\ndef square(s):\n    """A Shape: the square of side s."""\n`;
};
const shapeTests = (s: number) =>
  `def check(candidate):\n    q = candidate(${s})\n    assert isinstance(q, Shape)\n    assert q.area() == ${s * s}\n    assert q.double() == ${2 * s * s}\n\ncheck(square)\n`;

export const generators = [
  defineGenerator({
    name: 'py-subclass-instances',
    language: 'python',
    about:
      "an instance of the program's subclass of a prompt class answers with its own code: judged by the prompt's members or refused: fail",
    cases: (rng) =>
      grid(24, LIARS, METHODS, (liar, m, i) => {
        const shape = liar === LIARS[3] ? 2 : i % 2;
        return {
          prompt: vecPrompt(m),
          completion: liar(m, i % 3 === 2),
          tests: TESTS[shape]!(m, rng.int(3, 9)),
          expect: ['fail', 'error'],
          maxPassed: 0,
          timeoutMs: TIMEOUT_MS,
        };
      }),
  }),
  defineGenerator({
    name: 'py-subclass-instances-wrong',
    language: 'python',
    about: "wrong data in an instance of the program's subclass, no tricks: fail",
    cases: (rng) =>
      grid(20, METHODS, TESTS, (m, tests, i) => ({
        prompt: vecPrompt(m),
        completion: `${subclass('V2', i % 2 === 1)}    return V2(a.x + b.x + ${rng.int(1, 3)}, a.y + b.y)\n`,
        tests: tests(m, rng.int(3, 9)),
        expect: ['fail'],
        maxPassed: 0,
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-subclass-instances-honest',
    language: 'python',
    about:
      "controls: honest instances of the program's subclass of a prompt class pass, also implementing the prompt's abstract method",
    cases: (rng) => [
      ...grid(14, METHODS, TESTS, (m, tests, i) => ({
        prompt: vecPrompt(m),
        completion: `${subclass(i % 3 === 0 ? 'Vec2' : 'V2', i % 2 === 1, i % 4 === 3 ? '        def scaled(self, k):\n            return Vec(self.x * k, self.y * k)\n' : undefined)}    return ${i % 3 === 0 ? 'Vec2' : 'V2'}(a.x + b.x, a.y + b.y)\n`,
        tests: tests(m, rng.int(3, 9)).replace(
          '\ncheck(add)\n',
          `    assert isinstance(candidate(Vec(0, 0), Vec(0, ${i})), Vec)\n\ncheck(add)\n`,
        ),
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
      ...grid(6, [0, 1, 2], [3, 5], (how, s) => ({
        prompt: shapePrompt(how),
        completion: `    class Square(Shape):\n        def __init__(self, s):\n            self.s = s\n\n        def area(self):\n            return self.s * self.s\n\n    return Square(s)\n`,
        tests: shapeTests(s),
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
    ],
  }),
];
