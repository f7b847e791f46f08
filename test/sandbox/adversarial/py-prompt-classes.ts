/**
 * Python (red-team rt7-py K02_h): LeetCode-style prompts, `class Solution:` whose last method is
 * the stub the completion writes. The tests' interpreter runs the prompt, so it held the prompt's
 * stub class under the entry point's name and took it for a class of the tests' own: every
 * `Solution().twoSum(…)` answered None and every completion, honest or not, failed. The class the
 * prompt leaves for the completion is now the program's. Controls: honest completions pass (all
 * failed before); wrong completions still fail.
 */
import { type AdversarialCase, defineGenerator, grid } from './framework.ts';

interface Problem {
  method: string;
  signature: string;
  honest: string;
  wrong: string;
  tests: string;
}

const PROBLEMS: readonly Problem[] = [
  {
    method: 'twoSum',
    signature: '(self, nums, target)',
    honest:
      'seen = {}\nfor i, x in enumerate(nums):\n    if target - x in seen:\n        return [seen[target - x], i]\n    seen[x] = i\nreturn []\n',
    wrong: 'return [0, 1]\n',
    tests: 'assert s.twoSum([2, 7, 11, 15], 9) == [0, 1]\nassert s.twoSum([3, 2, 4], 6) == [1, 2]\n',
  },
  {
    method: 'maxProfit',
    signature: '(self, prices)',
    honest: 'best, low = 0, float("inf")\nfor p in prices:\n    low = min(low, p)\n    best = max(best, p - low)\nreturn best\n',
    wrong: 'return max(prices) - min(prices)\n',
    tests: 'assert s.maxProfit([7, 1, 5, 3, 6, 4]) == 5\nassert s.maxProfit([7, 6, 4, 3, 1]) == 0\n',
  },
  {
    method: 'climbStairs',
    signature: '(self, n)',
    honest: 'a, b = 1, 1\nfor _ in range(n):\n    a, b = b, a + b\nreturn a\n',
    wrong: 'return n\n',
    tests: 'assert s.climbStairs(2) == 2\nassert s.climbStairs(5) == 8\n',
  },
  {
    method: 'reverseWords',
    signature: '(self, text)',
    honest: 'return " ".join(reversed(text.split()))\n',
    wrong: 'return text[::-1]\n',
    tests: "assert s.reverseWords('the sky is blue') == 'blue is sky the'\nassert s.reverseWords('  a b ') == 'b a'\n",
  },
  {
    method: 'isPalindrome',
    signature: '(self, x)',
    honest: 'return str(x) == str(x)[::-1]\n',
    wrong: 'return x >= 0\n',
    tests: 'assert s.isPalindrome(121) is True\nassert s.isPalindrome(-121) is False\nassert s.isPalindrome(10) is False\n',
  },
];

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => (l ? `        ${l}` : l))
    .join('\n');
/** The prompt: a helper method first (so the class is not only the stub), then the stub. */
const prompt = (p: Problem, helper: boolean) =>
  `class Solution:\n${helper ? '    def name(self):\n        return "solution"\n\n' : ''}    def ${p.method}${p.signature}:\n        """LeetCode ${p.method}."""\n`;
const tests = (p: Problem, make: string) => `s = ${make}\n${p.tests}`;
const MAKES = ['Solution()', 'Solution.__new__(Solution)'];

/** Each problem with and without a helper method, made two ways: `body` completes it. */
const cases = (body: (p: Problem) => string, expect: AdversarialCase['expect']) =>
  grid(
    20,
    PROBLEMS,
    [0, 1, 2, 3],
    (p, i): AdversarialCase => ({
      prompt: prompt(p, i % 2 === 1),
      completion: indent(body(p)),
      tests: tests(p, MAKES[i >> 1]!),
      expect,
    }),
  );

export const generators = [
  defineGenerator({
    name: 'py-prompt-classes',
    language: 'python',
    about: 'controls: an honest completion of a LeetCode-style class Solution passes',
    cases: () => cases((p) => p.honest, ['pass']),
  }),
  defineGenerator({
    name: 'py-prompt-classes-wrong',
    language: 'python',
    about: 'a wrong completion of a class Solution fails',
    cases: () => cases((p) => p.wrong, ['fail']),
  }),
];
