/**
 * Python: a standard module the tests use without importing it (`sys.getsizeof(x)`, MBPP/596;
 * `math.isclose(...)`), which under CPython comes from the program's own `import`. A program that
 * answered that name with a class of its own (`class sys:` with a static `getsizeof` returning what
 * the tests compare against) had its methods run for the tests (red-team B01/B02). A name the tests
 * only ever read as `name.attr` and that is a standard module is now the tests' pristine module,
 * unless the program answers it with that very module. Controls: the same tests with an honest
 * program that imports the module pass.
 */
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

/** A module, the tests' use of it on the answer, a wrong answer, an honest one, and a lying member. */
const USES = [
  { mod: 'math', test: 'assert math.isclose(f(2), 4.0)', wrong: '0.5', right: '2.0 * x', member: 'isclose', value: 'True' },
  {
    mod: 'sys',
    test: 'assert sys.getsizeof(f(3)) == sys.getsizeof((1, 2, 3))',
    wrong: '()',
    right: 'tuple(range(1, x + 1))',
    member: 'getsizeof',
    value: '0',
  },
  { mod: 'operator', test: 'assert operator.eq(f(4), 8)', wrong: '1', right: '2 * x', member: 'eq', value: 'True' },
  {
    mod: 'statistics',
    test: 'assert statistics.mean([f(1), f(3)]) == 4',
    wrong: '0',
    right: '2 * x',
    member: 'mean',
    value: '4',
  },
  { mod: 'json', test: "assert json.dumps(f(2)) == '4'", wrong: '0', right: '2 * x', member: 'dumps', value: "'4'" },
];
/** Ways the program answers the module's name. */
const STANDINS = [
  (u: (typeof USES)[number]) => `class ${u.mod}:\n    @staticmethod\n    def ${u.member}(*a, **k):\n        return ${u.value}\n`,
  (u: (typeof USES)[number]) => `${u.mod} = type('${u.mod}', (), {'${u.member}': staticmethod(lambda *a, **k: ${u.value})})\n`,
  (u: (typeof USES)[number]) => `class _M:\n    def ${u.member}(self, *a, **k):\n        return ${u.value}\n${u.mod} = _M()\n`,
  (u: (typeof USES)[number]) => `def ${u.mod}():\n    pass\n${u.mod}.${u.member} = lambda *a, **k: ${u.value}\n`,
];

const attacks = defineGenerator({
  name: 'py-module-names',
  language: 'python',
  about: "a standard module the tests use unimported, answered by the program's own stand-in: never a pass",
  cases: () =>
    grid(20, USES, STANDINS, (u, standin) => ({
      completion: `def f(x):\n    return ${u.wrong}\n${standin(u)}`,
      tests: `${u.test}\n`,
      expect: ['fail', 'error'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: `${u.mod}: ${standin(u).split('\n')[0]}`,
    })),
});

const honest = defineGenerator({
  name: 'py-module-names-honest',
  language: 'python',
  about: 'controls: the honest program imports the module the tests use unimported',
  cases: () =>
    grid(20, USES, [0, 1, 2, 3], (u, i) => ({
      completion: `${i % 2 ? `import ${u.mod}\n` : `import ${u.mod} as ${u.mod}\n`}def f(x):\n    return ${u.right}\n${i > 1 ? '# variant\n' : ''}`,
      tests: `${u.test}\n`,
      expect: ['pass'],
      timeoutMs: TIMEOUT_MS,
    })),
});

export const generators = [attacks, honest];
