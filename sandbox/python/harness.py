# Runs INSIDE the isolate, in Pyodide, once per runtime before the pristine memory image is taken.
#
# Defines the two entry points the in-isolate JavaScript harness calls by raw pointer (no
# PyProxy, no JS objects cross into Python): stage(code, tests, nonce) compiles the program and
# prepares its namespaces; run() executes it and returns the verdict as bytes. Nothing here is
# bound in any module: after setup the JS side holds the only references, so Python code can
# reach these functions only through introspection, which the audit hook denies.
#
# What the program sees: a fresh `__main__`-like namespace whose `__builtins__` is a read-only
# view of a private copy of the builtins taken at setup (rebinding `builtins.x` does not change
# what the tests see); the tests run in their own namespace holding the program's names except
# those that would shadow a builtin. The verdict is decided here from whether each phase
# *returned*, never from output; the JS side adds what Python cannot forge (taint, timeouts).

def _anchor_setup():
    import sys, builtins, ast, types

    _exec = exec
    _compile = compile
    _str = str
    _type = type
    _len = len
    _issubclass = issubclass
    _isinstance = isinstance
    _BaseException = BaseException
    _AssertionError = AssertionError
    _SyntaxError = SyntaxError
    _MemoryError = MemoryError
    _RecursionError = RecursionError
    _SystemExit = SystemExit
    _KeyboardInterrupt = KeyboardInterrupt
    _Exception = Exception
    _RuntimeError = RuntimeError
    _ModuleType = types.ModuleType
    _dict = dict
    _list = list
    _ast_parse = ast.parse
    _ast_walk = ast.walk
    _fix = ast.fix_missing_locations
    _Assert = ast.Assert
    _stdout = sys.stdout
    _stderr = sys.stderr

    pristine = _dict(builtins.__dict__)
    builtin_names = frozenset(pristine)

    _real_import = pristine['__import__']

    def _tests_import(name, globals=None, locals=None, fromlist=(), level=0):
        # The tests get a pristine copy of any module that existed at image time, so a program
        # that rebinds `math.isclose` (or any module attribute) does not change what they compute.
        m = _real_import(name, globals, locals, fromlist, level)
        if level != 0:
            return m
        top = name if fromlist else name.split('.')[0]
        snap = snapshots.get(top)
        if snap is None or snap[0] is not m:
            return m
        cache = st.setdefault('tests_modules', {})
        copy = cache.get(top)
        if copy is None:
            copy = _ModuleType(top)
            cd = copy.__dict__
            cd.clear()
            cd.update(snap[1])
            cache[top] = copy
        return copy

    def _builtins_module():
        # A private copy of the builtins as a module (C code that imports expects a module or
        # dict there). The program gets one copy, the tests another: rebinding a builtin in the
        # program (`builtins.abs = ...`, `__builtins__.abs = ...`) never reaches the tests.
        m = _ModuleType('builtins')
        d = m.__dict__
        d.clear()
        d.update(pristine)
        return m

    # Every module and class that exists now (the pristine image). The tests import pristine
    # copies of these modules, and the classes cannot be patched (`Counter.__eq__ = ...`).
    import math, re, collections, itertools, functools, heapq, bisect, string, typing, fractions
    import decimal, statistics, operator, copy, random, hashlib, datetime, json, array, numbers
    import enum, dataclasses, unittest, cmath
    snapshots = {}
    protected = set()
    for name, mod in _list(sys.modules.items()):
        if _type(mod) is not _ModuleType:
            continue
        try:
            d = _dict(mod.__dict__)
        except _BaseException:
            continue
        snapshots[name] = (mod, d)
        for v in d.values():
            if _isinstance(v, _type):
                protected.add(id(v))
    for v in pristine.values():
        if _isinstance(v, _type):
            protected.add(id(v))
    protected = frozenset(protected)
    _id = id
    # Classes whose attributes can be set (heap types): the JS side marks them immutable in the
    # image (Py_TPFLAGS_IMMUTABLETYPE), so `Counter.__eq__ = ...` raises TypeError.
    global _anchor_mutable_types
    seen = set()
    mutable = []
    for name, (mod, d) in snapshots.items():
        for v in d.values():
            if _isinstance(v, _type) and _id(v) not in seen and not (v.__flags__ & (1 << 8)):
                seen.add(_id(v))
                mutable.append((_id(v), v.__flags__))
    _anchor_mutable_types = mutable

    # Audit hook: events that would let a program skip or rewrite the tests (tracers, frame
    # access, object-graph walks, code surgery), reach raw memory (ctypes) or the JS bridge.
    # A hook cannot be removed once added. It keeps no mutable state.
    def _hook(event, args):
        if event in {
            'sys._getframe', 'sys._current_frames', 'sys._current_exceptions', 'sys.settrace',
            'sys.setprofile', 'gc.get_referents', 'gc.get_referrers', 'gc.get_objects',
            'code.__new__', 'function.__new__', 'sys.addaudithook',
            'os.system', 'os.exec', 'os.posix_spawn', 'os.spawn', 'os.fork', 'os.forkpty',
            'subprocess.Popen', 'pty.spawn', 'socket.connect', 'socket.bind', 'webbrowser.open',
            'os.kill', 'os.killpg', 'signal.pthread_kill', 'sys.remote_exec',
        } or event.startswith(('ctypes.', 'sys.monitoring', 'cpython.')):
            raise RuntimeError('sandbox: ' + event + ' is not available')
        if event == 'object.__getattr__' and args[1] in {'tb_frame', 'gi_frame', 'cr_frame', 'ag_frame'}:
            # Frames lead to other frames' locals and globals (writable since PEP 667).
            raise RuntimeError('sandbox: ' + args[1] + ' is not available')
        if event == 'object.__setattr__' or event == 'object.__delattr__':
            if args[1] in {'__code__', '__globals__', '__closure__', '__builtins__', '__class__', '__bases__', '__dict__'}:
                raise RuntimeError('sandbox: setting ' + args[1] + ' is not available')
            if _id(args[0]) in protected:
                raise RuntimeError('sandbox: standard classes cannot be modified')
        if event == 'import' and args[0].split('.')[0] in {
            'ctypes', '_ctypes', 'js', 'pyodide_js', 'pyodide', '_pyodide', '_pyodide_core',
            'micropip', 'pyodide_http', '_testcapi', '_testinternalcapi',
        }:
            raise ImportError('sandbox: module ' + args[0] + ' is not available')

    sys.dont_write_bytecode = True
    sys.addaudithook(_hook)

    # Per-program state; the whole heap is restored after every program, so nothing lingers.
    st = {}

    def _describe(e):
        try:
            name = _type(e).__name__
            if not _isinstance(name, _str):
                name = 'Exception'
        except _BaseException:
            name = 'Exception'
        try:
            msg = _str(e)
        except _BaseException:
            msg = ''
        if _len(msg) > 2000:
            msg = msg[:2000] + '...'
        return (name + ': ' + msg) if msg else name

    def _out(status, passed, total, msg):
        return (st.get('nonce', '') + '\x1f' + status + '\x1f' + _str(passed) + '\x1f' + _str(total) + '\x1f' + msg).encode('utf-8', 'replace')

    class _Counter:
        __slots__ = ('n',)

    def _instrument(tree, counter_name):
        # Count asserts that completed: `assert x` -> `assert x; __anchor_tick__()`.
        for node in _list(_ast_walk(tree)):
            for field in ('body', 'orelse', 'finalbody', 'handlers'):
                seq = getattr(node, field, None)
                if not _isinstance(seq, _list):
                    continue
                out = []
                for s in seq:
                    out.append(s)
                    if _isinstance(s, _Assert):
                        call = ast.Expr(ast.Call(ast.Name(counter_name, ast.Load()), [], []))
                        ast.copy_location(call, s)
                        ast.copy_location(call.value, s)
                        ast.copy_location(call.value.func, s)
                        out.append(call)
                seq[:] = out
        return _fix(tree)

    def stage(code, tests, nonce):
        st.clear()
        st['nonce'] = nonce
        counter = _Counter()
        counter.n = 0
        st['counter'] = counter

        def tick():
            counter.n += 1

        # The counter's name is per run: a program cannot call it by a name it knows in advance.
        # With separate tests it is bound only in the tests' namespace (and reset before them), so
        # a solution cannot inflate the count of passed assertions (partial credit).
        tick_name = '__anchor_tick_' + nonce[:16] + '__'
        st['tick_name'] = tick_name
        try:
            if tests is None:
                st['code'] = _compile(_instrument(_ast_parse(code, 'program.py'), tick_name), 'program.py', 'exec', dont_inherit=True)
                st['tests'] = None
            else:
                st['code'] = _compile(code, 'program.py', 'exec', dont_inherit=True)
                st['tests'] = _compile(_instrument(_ast_parse(tests, 'tests.py'), tick_name), 'tests.py', 'exec', dont_inherit=True)
        except _SyntaxError as e:
            return _out('syntax_error', 0, 0, _describe(e))
        except _MemoryError:
            return _out('oom', 0, 0, 'MemoryError while compiling')
        except _RecursionError as e:
            return _out('syntax_error', 0, 0, _describe(e))
        except _BaseException as e:
            return _out('syntax_error', 0, 0, _describe(e))
        main = _ModuleType('__main__')
        g = main.__dict__
        g['__builtins__'] = _builtins_module()
        if tests is None:
            g[tick_name] = tick
        sys.modules['__main__'] = main
        st['g'] = g
        st['tick'] = tick
        st['tests_names'] = frozenset(n.id for n in _ast_walk(_ast_parse(tests, 'tests.py')) if _isinstance(n, ast.Name)) if tests is not None else frozenset()
        tb = _builtins_module()
        tb.__dict__['__import__'] = _tests_import
        st['tests_builtins'] = tb
        return None

    def run():
        try:
            return _run()
        finally:
            for stream in (_stdout, _stderr):
                try:
                    stream.flush()
                except _BaseException:
                    pass

    def _run():
        counter = st['counter']
        g = st['g']
        phase = 'program'
        try:
            _exec(st['code'], g)
            if st['tests'] is not None:
                phase = 'tests'
                tg = {}
                names = [k for k in _list(g) if _type(k) is _str]
                # A program name that shadows a builtin is hidden from the tests (so `def abs`
                # or `set = ...` cannot change what the assertions compute) unless the tests call
                # no other program name, i.e. the builtin-named function is the one under test
                # (MBPP has `def sum(a, b)` checked as `assert sum(10, 15) == 6`).
                tested = st['tests_names']
                own = [k for k in names if k not in builtin_names and k in tested and not k.startswith('__')]
                for k in names:
                    if k not in builtin_names or not own:
                        tg[k] = g[k]
                tg['__builtins__'] = st['tests_builtins']
                tg['__name__'] = '__main__'
                tg[st['tick_name']] = st['tick']
                counter.n = 0
                _exec(st['tests'], tg)
        except _AssertionError as e:
            n = counter.n
            return _out('fail', n, n + 1, _describe(e) if _str(e) else 'AssertionError (in ' + phase + ')')
        except _MemoryError:
            return _out('oom', counter.n, counter.n, 'MemoryError: the program exceeded the sandbox memory limit')
        except (_SystemExit, _KeyboardInterrupt) as e:
            return _out('error', counter.n, counter.n, 'the program exited early (' + _type(e).__name__ + ') during the ' + phase + ': not a pass')
        except _SyntaxError as e:
            return _out('error', counter.n, counter.n, _describe(e))
        except _BaseException as e:
            return _out('error', counter.n, counter.n, _describe(e))
        n = counter.n
        return _out('pass', n, n, '')

    return stage, run


_anchor_stage, _anchor_run = _anchor_setup()
del _anchor_setup
