/**
 * JavaScript (red-team rt58 F4): tests that capture what the program prints by replacing
 * `process.stdout.write` (or `process.stderr.write`), a common Node idiom, saw nothing: the
 * program's `console.log` and `process.stdout.write` wrote to its own output, and every honest
 * program failed. Now a console method the tests left as it was writes, as Node's does, to their
 * `process.stdout.write` (stderr for `error`/`warn`/`trace`), and the program's own
 * `process.stdout.write` goes there too (sandbox/harness.js, forwardConsole). Controls: honest
 * printing programs pass; wrong twins (another text, a missing newline, the wrong stream) fail.
 */
import { defineGenerator, JS_ASSERT, type PairedTask, pairedCases } from './framework.ts';

/** Tests capturing stdout around calls of `show`, then comparing the text. */
const CAPTURE = (calls: string, want: string) =>
  `function capture(fn) {\n  let out = '';\n  const original = process.stdout.write;\n  process.stdout.write = (chunk) => {\n    out += chunk;\n    return true;\n  };\n  try {\n    fn();\n  } finally {\n    process.stdout.write = original;\n  }\n  return out;\n}\nassert.strictEqual(capture(() => { ${calls} }), ${JSON.stringify(want)});\n`;

const TASKS: readonly PairedTask[] = [
  {
    prompt: '// Print each item of xs on its own line.\nfunction show(xs) {\n',
    tests: CAPTURE("show([1, 'a', 3]);", '1\na\n3\n'),
    honest: [
      '  for (const x of xs) console.log(x);\n}\n',
      "  process.stdout.write(xs.join('\\n') + '\\n');\n}\n",
      '  xs.forEach((x) => process.stdout.write(x + "\\n"));\n}\n',
      "  console.log(xs.join('\\n'));\n}\n",
      '  for (let i = 0; i < xs.length; i++) console.info(String(xs[i]));\n}\n',
      "  const lines = xs.map(String);\n  process.stdout.write(lines.join('\\n'));\n  process.stdout.write('\\n');\n}\n",
      '  xs.forEach((x) => console.log(x));\n}\n',
    ],
    wrong: [
      "  console.log(xs.join(' '));\n}\n",
      "  process.stdout.write(xs.join('\\n'));\n}\n",
      '  for (const x of xs) console.error(x);\n}\n',
      '  for (const x of xs.slice(1)) console.log(x);\n}\n',
      '  console.log(xs);\n}\n',
      "  xs.forEach((x) => process.stdout.write(x + ' \\n'));\n}\n",
      '  for (const x of xs) console.log(JSON.stringify(x));\n}\n',
    ],
  },
  {
    prompt: '// Print a table of n rows: "i: i*i" for i from 1 to n.\nfunction squares(n) {\n',
    tests: CAPTURE('squares(3);', '1: 1\n2: 4\n3: 9\n'),
    honest: [
      '  for (let i = 1; i <= n; i++) console.log(i + ": " + (i * i));\n}\n',
      "  for (let i = 1; i <= n; i++) console.log(i + ':', i * i);\n}\n",
      "  let s = '';\n  for (let i = 1; i <= n; i++) s += i + ': ' + i ** 2 + '\\n';\n  process.stdout.write(s);\n}\n",
      "  Array.from({ length: n }, (_, k) => k + 1).forEach((i) => console.log('%d: %d', i, i * i));\n}\n",
      '  for (let i = 1; i <= n; i++) console.debug(i + ": " + (i * i));\n}\n',
      "  const rows = [];\n  for (let i = 1; i <= n; i++) rows.push(i + ': ' + i * i);\n  console.log(rows.join('\\n'));\n}\n",
      '  let i = 0;\n  while (i++ < n) process.stdout.write(i + ": " + (i * i) + "\\n");\n}\n',
    ],
    wrong: [
      '  for (let i = 0; i < n; i++) console.log(i + ": " + (i * i));\n}\n',
      '  for (let i = 1; i <= n; i++) console.log(i + ":" + (i * i));\n}\n',
      '  for (let i = 1; i <= n; i++) console.warn(i + ": " + (i * i));\n}\n',
      '  for (let i = 1; i <= n; i++) console.log(i + ": " + (i * 2));\n}\n',
      '  for (let i = 1; i <= n; i++) process.stdout.write(i + ": " + (i * i));\n}\n',
      '  for (let i = n; i >= 1; i--) console.log(i + ": " + (i * i));\n}\n',
      '  console.log(`1: 1`);\n}\n',
    ],
  },
  {
    prompt: '// Report problems: print "warning: <msg>" to stderr for each message.\nfunction report(msgs) {\n',
    tests:
      "let err = '';\nconst original = process.stderr.write;\nprocess.stderr.write = (chunk) => {\n  err += chunk;\n  return true;\n};\nreport(['low disk', 'hot']);\nprocess.stderr.write = original;\nassert.strictEqual(err, 'warning: low disk\\nwarning: hot\\n');\n",
    honest: [
      '  for (const m of msgs) console.error("warning: " + m);\n}\n',
      '  for (const m of msgs) process.stderr.write("warning: " + m + "\\n");\n}\n',
      "  msgs.forEach((m) => console.warn('warning:', m));\n}\n",
      "  process.stderr.write(msgs.map((m) => 'warning: ' + m + '\\n').join(''));\n}\n",
      "  for (const m of msgs) console.error('warning: %s', m);\n}\n",
      '  for (const m of msgs) {\n    const line = "warning: " + m;\n    console.error(line);\n  }\n}\n',
    ],
    wrong: [
      '  for (const m of msgs) console.log("warning: " + m);\n}\n',
      '  for (const m of msgs) process.stdout.write("warning: " + m + "\\n");\n}\n',
      '  for (const m of msgs) console.error("Warning: " + m);\n}\n',
      "  console.error(msgs.map((m) => 'warning: ' + m).join(', '));\n}\n",
      '  for (const m of msgs.slice(0, 1)) console.error("warning: " + m);\n}\n',
      '  for (const m of msgs) process.stderr.write("warning: " + m);\n}\n',
    ],
  },
];

export const generators = [
  defineGenerator({
    name: 'js-captured-stdout-honest',
    language: 'javascript',
    about:
      'controls: honest programs printing (console, process.stdout/stderr.write) pass tests that capture process.stdout.write',
    cases: () => pairedCases(TASKS, 'honest', JS_ASSERT, ['pass']),
  }),
  defineGenerator({
    name: 'js-captured-stdout',
    language: 'javascript',
    about: 'wrong printing programs (text, newline, stream) fail tests that capture process.stdout.write',
    cases: () => pairedCases(TASKS, 'wrong', JS_ASSERT, ['fail']),
  }),
];
