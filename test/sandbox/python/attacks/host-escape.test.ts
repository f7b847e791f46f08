/**
 * Attack class: reaching the host — processes (os.system, subprocess, fork), the host's files and
 * environment, sockets, ctypes. Python runs in Pyodide inside an isolate: there is no host
 * filesystem, no process API and no network; the sensitive calls are refused outright.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectNotPass, expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

// Python workers boot Pyodide and some attacks force a reboot: generous on a loaded 2-core CI.
describe('python attack: host escape', { timeout: 180_000 }, () => {
  const ex = pyExecutor();
  afterAll(() => ex.close());

  it('process, file, network and ctypes routes reach nothing of the host', async () => {
    const attacks: Record<string, string> = {
      'os-system': 'import os\nassert os.system("touch /tmp/anchor-pwned") == 0\n',
      subprocess: 'import subprocess\nsubprocess.run(["ls", "/"])\n',
      'os-fork': 'import os\nos.fork()\n',
      'etc-passwd': 'print(open("/etc/passwd").read())\n',
      'repo-file': 'print(open("/work/main/package.json").read())\n',
      socket: 'import socket\ns = socket.socket()\ns.connect(("127.0.0.1", 22))\n',
      urllib: 'import urllib.request\nurllib.request.urlopen("http://127.0.0.1:1/")\n',
      ctypes: 'import ctypes\nctypes.CDLL(None)\n',
      'ctypes-builtin': 'import _ctypes\n',
    };
    const rs = await runPy(
      ex,
      Object.entries(attacks).map(([id, code]) => [id, code, 'assert True\n']),
    );
    // urllib's import chain is large: under load it may hit the short test timeout first.
    for (const id of Object.keys(attacks)) expectNotPass(rs[id], id === 'urllib' ? ['error', 'timeout'] : ['error']);
    expect(rs['etc-passwd']!.stdout).not.toMatch(/root:/);
    expect(rs['repo-file']!.stdout).toBe('');
    await expectStillWorks(ex);
  });

  it('the environment and filesystem are the virtual ones', async () => {
    const rs = await runPy(ex, [
      [
        'env',
        'import os\n',
        [
          'assert "PATH" not in os.environ or "/root" not in os.environ.get("PATH", "")',
          'assert not any(k.startswith(("ANCHOR", "npm_", "NODE")) for k in os.environ)',
          'assert not os.path.exists("/work")',
          'assert not os.path.exists("/etc/passwd")',
          'assert not os.path.exists("/proc/self/environ") or "NODE" not in open("/proc/self/environ").read()',
        ].join('\n') + '\n',
      ],
    ]);
    expect(rs.env!.status, JSON.stringify(rs.env)).toBe('pass');
  });
});
