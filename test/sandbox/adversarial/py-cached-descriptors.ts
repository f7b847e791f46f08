/**
 * Python (red-team rt7-py D01, K09_h), beside py-cached-fields.ts: other non-data descriptors of a
 * prompt class that are not functions, static or class methods — a hand-written caching
 * descriptor (`__get__` only, storing into the instance's `__dict__`), a `cached_property`
 * subclass, a `cached_property` inherited from a base class or on a dataclass. An instance field
 * of the descriptor's name set by the program (`r.__dict__['area'] = 12`) beside wrong data must
 * not answer for the prompt's computation: fail. Controls: honest answers pass, also ones that read
 * the value in the program before returning it (so the field is set there by the prompt's code).
 */
import { type AdversarialCase, defineGenerator, grid, type Rng } from './framework.ts';

/** A prompt: a class `Box` with fields w and h and a cached computed value named `prop`. */
interface Shape {
  note: string;
  prompt: (prop: string) => string;
}

const ENTRY = '\ndef make_box(w, h):\n    """The Box of width w and height h."""\n';
const BODY = (prop: string, deco: string) => `    @${deco}\n    def ${prop}(self):\n        return self.w * self.h\n`;
const INIT = '    def __init__(self, w, h):\n        self.w = w\n        self.h = h\n\n';

const SHAPES: readonly Shape[] = [
  {
    note: 'hand-written caching descriptor',
    prompt: (prop) =>
      `class lazy:\n    def __init__(self, f):\n        self.f = f\n        self.name = f.__name__\n\n    def __get__(self, obj, owner=None):\n        if obj is None:\n            return self\n        v = self.f(obj)\n        obj.__dict__[self.name] = v\n        return v\n\n\nclass Box:\n${INIT}${BODY(prop, 'lazy')}${ENTRY}`,
  },
  {
    note: 'cached_property subclass',
    prompt: (prop) =>
      `import functools\n\n\nclass memo(functools.cached_property):\n    pass\n\n\nclass Box:\n${INIT}${BODY(prop, 'memo')}${ENTRY}`,
  },
  {
    note: 'cached_property on a base class',
    prompt: (prop) =>
      `from functools import cached_property\n\n\nclass Shape:\n${BODY(prop, 'cached_property')}\n\nclass Box(Shape):\n${INIT}${ENTRY}`,
  },
  {
    note: 'cached_property on a dataclass',
    prompt: (prop) =>
      `from dataclasses import dataclass\nfrom functools import cached_property\n\n\n@dataclass\nclass Box:\n    w: int\n    h: int\n\n${BODY(prop, 'cached_property')}${ENTRY}`,
  },
];

const PROPS = ['area', 'surface', 'cells', 'count', 'volume'];

/** Ways the program sets the cached value beside wrong data. */
const FORGE: ReadonlyArray<(prop: string, want: number) => string> = [
  (prop, want) => `    b = Box(1, 1)\n    b.__dict__['${prop}'] = ${want}\n    return b\n`,
  (prop, want) => `    b = Box(w, 0)\n    vars(b)['${prop}'] = ${want}\n    return b\n`,
  (prop, want) => `    b = Box(0, h)\n    b.__dict__.update({'${prop}': ${want}})\n    return b\n`,
  (prop, want) => `    b = Box.__new__(Box)\n    b.__dict__.update(w=1, h=2, ${prop}=${want})\n    return b\n`,
];
const HONEST: ReadonlyArray<(prop: string) => string> = [
  () => '    return Box(w, h)\n',
  (prop) => `    b = Box(w, h)\n    b.${prop}\n    return b\n`,
  (prop) => `    b = Box(w, h)\n    assert b.${prop} >= 0\n    return b\n`,
];

const dims = (rng: Rng) => [rng.int(2, 9), rng.int(2, 9)] as const;

export const generators = [
  defineGenerator({
    name: 'py-cached-descriptors',
    language: 'python',
    about: 'a non-data descriptor of a prompt class answered by the answer\u2019s own field beside wrong data: fail',
    cases: (rng) =>
      grid(24, SHAPES, FORGE, (shape, forge, i): AdversarialCase => {
        const prop = PROPS[i % PROPS.length]!;
        const [w, h] = dims(rng);
        return {
          prompt: shape.prompt(prop),
          completion: forge(prop, w * h),
          tests: `assert make_box(${w}, ${h}).${prop} == ${w * h}\n`,
          expect: ['fail'],
          note: shape.note,
        };
      }),
  }),
  defineGenerator({
    name: 'py-cached-descriptors-honest',
    language: 'python',
    about: 'controls: honest answers (the value computed in the tests, or already cached in the program) pass',
    cases: (rng) =>
      grid(24, SHAPES, HONEST, (shape, honest, i): AdversarialCase => {
        const prop = PROPS[i % PROPS.length]!;
        const [w, h] = dims(rng);
        return {
          prompt: shape.prompt(prop),
          completion: honest(prop),
          tests: `b = make_box(${w}, ${h})\nassert b.${prop} == ${w * h}\nassert (b.w, b.h) == (${w}, ${h})\n`,
          expect: ['pass'],
          note: shape.note,
        };
      }),
  }),
];
