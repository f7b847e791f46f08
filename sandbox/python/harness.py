# Runs INSIDE the isolate, in Pyodide, once per runtime before the pristine memory image is taken.
#
# Defines the three entry points the in-isolate JavaScript harness calls by raw pointer (no
# PyProxy, no JS objects cross into Python): compile_tests(tests, prompt, tag, mode) compiles a
# problem's tests once, for the JS side to cache; stage(code, tests, prompt, nonce, seed, mode,
# tag, compiled) compiles the program and prepares its namespaces; run() executes it and returns
# the verdict as bytes. Nothing here is bound in any module: after setup the JS side holds the only references,
# so Python code can reach these functions only through introspection, which the audit hook denies.
#
# Realms. The solution runs in a fresh `__main__`-like namespace whose `__builtins__` is a private
# copy of the builtins taken at setup. The tests run in a second fresh namespace with another
# private copy, pristine copies of the standard modules they import, the problem prompt's own
# helper definitions (executed separately), and the solution's names (functions wrapped so their
# answers are snapshotted in strict mode). After program code has run, this file touches only
# objects captured here before it ran and snapshots of answers.
#
# Verdict. Decided from whether each phase *returned* and from which of the tests' own `assert`
# statements (numbered statically) held; never from output or from an exception's text. The
# returned bytes carry a fixed "kind" per outcome; the JS side turns kinds into statuses with what
# Python cannot forge (heap-cap refusals, timeouts, JS-bridge taint).

def _anchor_setup():
    import sys, builtins, ast, types, gc
    import random as _random_mod

    _exec = exec
    _compile = compile
    _str = str
    _type = type
    _len = len
    # Identity without id(): id() raises a `builtins.id` audit event, i.e. a call into the
    # Python audit hook per use. object.__hash__ is the pointer hash, unique among live objects
    # and never a program's own __hash__.
    _ident = object.__hash__
    _bool = bool
    _map = map
    _vars = vars
    _int = int
    _float = float
    _complex = complex
    _bytes = bytes
    _tuple = tuple
    _set = set
    _frozenset = frozenset
    _slice = slice
    _repr_int = int.__repr__
    _repr_float = float.__repr__
    _isinstance = isinstance
    _all = all
    _min = min
    _RuntimeError = RuntimeError
    _AttributeError = AttributeError
    _ImportError = ImportError
    _range = range
    _BaseException = BaseException
    _AssertionError = AssertionError
    _SyntaxError = SyntaxError
    _MemoryError = MemoryError
    _RecursionError = RecursionError
    _SystemExit = SystemExit
    _KeyboardInterrupt = KeyboardInterrupt
    _ModuleType = types.ModuleType
    _FunctionType = types.FunctionType
    _dict = dict
    _list = list
    _ast_parse = ast.parse
    _ast_walk = ast.walk
    _stdout = sys.stdout
    _stderr = sys.stderr
    _rand_inst = _random_mod._inst
    import _random
    _rand_seed = _random.Random.seed
    _rand_state = _dict(_vars(_rand_inst))
    # Descriptors read straight from the base classes, so a program's overrides of `args`,
    # `__name__`, `__mro__` or `__dict__` (properties, metaclasses) are never consulted.
    _exc_args = BaseException.__dict__['args'].__get__
    _type_name = type.__dict__['__name__'].__get__
    _type_mro = type.__dict__['__mro__'].__get__
    _type_dict = type.__dict__['__dict__'].__get__
    _int_copy = int.__index__
    _float_copy = float.__float__
    _complex_copy = complex.__complex__
    _str_copy = str.__str__
    _bytes_copy = bytes.__bytes__
    _list_copy = list.copy
    _tuple_getitem = tuple.__getitem__
    _dict_items = dict.items
    _set_copy = set.copy
    _frozenset_copy = frozenset.copy
    _everything = slice(None)
    import _collections
    _tuplegetter = _collections._tuplegetter
    import marshal
    _marshal_dumps = marshal.dumps
    _marshal_loads = marshal.loads
    _str_encode = str.encode
    _bytes_decode = bytes.decode
    ERR_CAP = 2000

    # Signal handlers are called with the frame that was running, whose f_back chain leads to
    # the tests' frames and globals: no program may install one. `signal.signal` is removed from
    # both modules, and `_imp.create_builtin` (the way to a fresh `_signal` module) is replaced
    # by a forwarder that asks the audit hook, which alone holds the real function.
    import _imp, _signal, signal as _signal_py
    _real_create_builtin = _imp.create_builtin
    _audit = sys.audit
    _SimpleNamespace = types.SimpleNamespace
    _list_append = list.append
    for _m in (_signal, _signal_py):
        _m.__dict__.pop('signal', None)

    def create_builtin(spec):
        box = []
        _audit('anchor.create_builtin', spec, box)
        return box[0]

    pristine = _dict(builtins.__dict__)
    builtin_names = frozenset(pristine)
    _real_import = pristine['__import__']

    # Every module and class that exists now (the pristine image). The tests import pristine
    # copies of these modules, and the classes cannot be patched (`Counter.__eq__ = ...`).
    import math, re, collections, itertools, functools, heapq, bisect, string, typing, fractions
    import decimal, statistics, operator, copy, random, hashlib, datetime, json, array, numbers
    import enum, dataclasses, unittest, cmath, time, uuid, secrets
    snapshots = {}
    module_names = {}
    protected = set()
    for name, mod in _list(sys.modules.items()):
        if _type(mod) is not _ModuleType:
            continue
        try:
            d = _dict(mod.__dict__)
        except _BaseException:
            continue
        snapshots[name] = (mod, d)
        module_names[_ident(mod)] = name
        for v in d.values():
            if _isinstance(v, _type):
                protected.add(_ident(v))
    for v in pristine.values():
        if _isinstance(v, _type):
            protected.add(_ident(v))
    protected = frozenset(protected)
    # Per module: its non-module attributes, its module-valued attributes (by module name) and
    # its own PEP 562 __getattr__, for _module_copy.
    module_parts = {}
    for name, (mod, d) in snapshots.items():
        plain = {}
        subs = {}
        for k, v in d.items():
            sub = module_names.get(_ident(v)) if _type(v) is _ModuleType else None
            if sub is not None and _type(k) is _str:
                subs[k] = sub
            else:
                plain[k] = v
        module_parts[name] = (plain, subs, plain.pop('__getattr__', None) if subs else None)
    # Classes whose attributes can be set (heap types): the JS side marks them immutable in the
    # image (Py_TPFLAGS_IMMUTABLETYPE), so `Counter.__eq__ = ...` raises TypeError.
    global _anchor_mutable_types
    seen = set()
    mutable = []
    for name, (mod, d) in snapshots.items():
        for v in d.values():
            if _isinstance(v, _type) and _ident(v) not in seen and not (v.__flags__ & (1 << 8)):
                seen.add(_ident(v))
                mutable.append((id(v), v.__flags__))  # addresses, for the JS side
    _anchor_mutable_types = mutable

    # Audit hook: events that would let a program skip or rewrite the tests (tracers, frame
    # access, object-graph walks, code surgery), reach raw memory (ctypes) or the JS bridge.
    # A hook cannot be removed once added. It keeps no mutable state.
    def _hook(event, args):
        if event == 'anchor.create_builtin':
            spec, box = args
            name = getattr(spec, 'name', None)
            if _type(name) is not _str or _type(box) is not _list or name in {'_signal', 'signal'}:
                raise _ImportError('sandbox: module ' + (name if _type(name) is _str else '?') + ' is not available')
            _list_append(box, _real_create_builtin(_SimpleNamespace(name=name)))
            return
        if event in {
            'sys._getframe', 'sys._current_frames', 'sys._current_exceptions', 'sys.settrace',
            'sys.setprofile', 'gc.get_referents', 'gc.get_referrers', 'gc.get_objects',
            'code.__new__', 'function.__new__', 'sys.addaudithook',
            'os.system', 'os.exec', 'os.posix_spawn', 'os.spawn', 'os.fork', 'os.forkpty',
            'subprocess.Popen', 'pty.spawn', 'socket.connect', 'socket.bind', 'webbrowser.open',
            'os.kill', 'os.killpg', 'signal.pthread_kill', 'sys.remote_exec',
        } or event.startswith(('ctypes.', 'sys.monitoring', 'cpython.')):
            raise _RuntimeError('sandbox: ' + event + ' is not available')
        if event == 'object.__getattr__' and args[1] in {'tb_frame', 'gi_frame', 'cr_frame', 'ag_frame'}:
            # Frames lead to other frames' locals and globals (writable since PEP 667).
            raise _RuntimeError('sandbox: ' + args[1] + ' is not available')
        if event == 'object.__setattr__' or event == 'object.__delattr__':
            if args[1] in {'__code__', '__globals__', '__closure__', '__builtins__', '__class__', '__bases__', '__dict__'}:
                raise _RuntimeError('sandbox: setting ' + args[1] + ' is not available')
            if _ident(args[0]) in protected:
                raise _RuntimeError('sandbox: standard classes cannot be modified')
        if event == 'import' and args[0].split('.')[0] in {
            '_signal', 'ctypes', '_ctypes', 'js', 'pyodide_js', 'pyodide', '_pyodide', '_pyodide_core',
            'micropip', 'pyodide_http', '_testcapi', '_testinternalcapi',
        }:
            raise _ImportError('sandbox: module ' + args[0] + ' is not available')

    sys.dont_write_bytecode = True
    sys.addaudithook(_hook)
    _imp.create_builtin = create_builtin

    # Per-program state; the whole heap is restored after every program, so nothing lingers.
    st = {}

    # ---- pristine modules and builtins for the tests ----------------------------------------

    def _module_copy(name):
        # A copy of a module as it was in the image; module-valued attributes (`os.path`) are
        # copies too, so `import os; os.path.join` is pristine as well.
        cache = st['tests_modules']
        copy = cache.get(name)
        if copy is not None:
            return copy
        copy = _ModuleType(name)
        cd = copy.__dict__
        cd.clear()
        cache[name] = copy
        plain, subs, own_getattr = module_parts[name]
        cd.update(plain)
        if subs:
            # Submodule attributes are copied on first access (PEP 562), not eagerly: `import
            # random` must not copy os, sys, posixpath, ... for every program.
            def __getattr__(k):
                sub = subs.get(k)
                if sub is None:
                    if own_getattr is not None:
                        return own_getattr(k)
                    raise _AttributeError('module ' + name + ' has no attribute ' + _str(k))
                m = _module_copy(sub)
                cd[k] = m
                return m
            cd['__getattr__'] = __getattr__
        return copy

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
        return _module_copy(top)

    def _builtins_module(extra=None):
        # A private copy of the builtins as a module (C code that imports expects a module or
        # dict there). The program gets one copy, the tests another: rebinding a builtin in the
        # program (`builtins.abs = ...`, `__builtins__.abs = ...`) never reaches the tests.
        m = _ModuleType('builtins')
        d = m.__dict__
        d.clear()
        d.update(pristine)
        if extra:
            d.update(extra)
        return m

    # ---- describing exceptions without running program code ---------------------------------

    def _cap(s):
        if _len(s) > ERR_CAP:
            return s[:ERR_CAP] + '... [error text truncated at ' + _str(ERR_CAP) + ' characters]'
        return s

    def _plain_text(v):
        t = _type(v)
        if t is _str:
            return v
        if t is _int or t is _bool:
            return _repr_int(v) if _int.bit_length(v) < 4000 else '<int>'
        if t is _float:
            return _repr_float(v)
        if v is None:
            return 'None'
        return '<' + _class_name(t) + ' object>'

    def _class_name(t):
        try:
            n = _type_name(t, _type)
        except _BaseException:
            return 'Exception'
        return n if _type(n) is _str else 'Exception'

    def _describe(e):
        # Never calls the exception's own __str__/__repr__ (program code): the class name from
        # the type slot and the args tuple read through BaseException's descriptor.
        name = _class_name(_type(e))
        try:
            args = _exc_args(e, _BaseException)
            parts = [_plain_text(a) for a in args] if _type(args) is _tuple and _len(args) <= 8 else []
        except _BaseException:
            parts = []
        msg = ', '.join(parts)
        return _cap((name + ': ' + msg) if msg else name)

    def _out(kind, msg):
        # Only exact ints and strs built here go into the verdict.
        n_ok = _len(st['passed'] - st['failed'])
        return (st['nonce'] + '\x1f' + kind + '\x1f' + _str(n_ok) + '\x1f' + _str(st['n_asserts']) + '\x1f' + msg).encode('utf-8', 'replace')

    # ---- strict answers: snapshot and comparison ----------------------------------------------

    SCALARS = frozenset(_ident(t) for t in (int, float, complex, str, bytes, bool, type(None)))
    BASES = {_ident(t): t for t in (int, float, complex, str, bytes, list, tuple, dict, set, frozenset)}
    COMPARING = ('__eq__', '__ne__', '__hash__', '__lt__', '__le__', '__gt__', '__ge__')
    TYPE_ID = _ident(type)

    def _refuse(x, why):
        raise _AssertionError('strict verdict: answer of type ' + _class_name(_type(x)) + ' ' + why)

    def _base_of(x, t):
        # The builtin base of a subclass of one, or None; refuses subclasses that change how
        # values compare (a class outside the standard library defining __eq__, __hash__, ...).
        try:
            mro = _type_mro(t, _type)
        except _BaseException:
            return None
        if _type(mro) is not _tuple:
            return None
        base = None
        for c in mro:
            base = BASES.get(_ident(c))
            if base is not None:
                break
        if base is None:
            return None
        for c in mro:
            if _ident(c) in BASES:
                break
            if _ident(c) in protected:
                continue
            mt = _ident(_type(c))
            if mt != TYPE_ID and mt not in protected:
                _refuse(x, 'has a custom metaclass')
            cd = _type_dict(c, _type)
            for k in COMPARING:
                if k in cd:
                    _refuse(x, 'overrides ' + k)
        return base

    NT_NAMES = frozenset(('__module__', '__qualname__', '__doc__', '__slots__', '__new__', '__repr__', '__getnewargs__',
                          '__match_args__', '_fields', '_field_defaults', '_make', '_replace', '__replace__', '_asdict', '__orig_bases__',
                          '__annotations__', '__annotate__', '__annotate_func__', '__annotations_cache__', '__firstlineno__',
                          '__static_attributes__', '__classdictcell__', '__dict__', '__weakref__', '__parameters__'))

    def _plain_namedtuple(t):
        # A class made by collections.namedtuple / typing.NamedTuple (directly on tuple): only
        # the names those define, fields as C-level tuple getters.
        try:
            mro = _type_mro(t, _type)
            if _len(mro) != 3 or mro[1] is not _tuple:
                return False
            cd = _type_dict(t, _type)
            for k in _list(cd):
                if _type(k) is not _str:
                    return False
                if k not in NT_NAMES and _type(cd[k]) is not _tuplegetter:
                    return False
            return True
        except _BaseException:
            return False

    def _all_scalars(x):
        # Whether every element of an exact list/tuple/set is of an exact scalar type. The set of
        # element types is built in C (types hash by address unless a program's metaclass says
        # otherwise, and then that type is not a scalar type, so the answer is still right).
        for t in _set(_map(_type, x)):
            if _ident(t) not in SCALARS:
                return False
        return True

    def _snap(x, depth):
        # (value, pure): a copy made of exact builtin types read with C-level methods (so
        # __len__/__iter__/__getattr__ overrides are never consulted) and whether it contains no
        # other kind of object. Exact lists/tuples of exact scalars are returned as they are:
        # reading them runs no program code.
        t = _type(x)
        ti = _ident(t)
        if ti in SCALARS:
            return x, True
        if depth > 200:
            _refuse(x, 'is nested too deeply')
        b = BASES.get(ti)
        if b is None:
            b = _base_of(x, t)
            if b is None:
                return x, False
            try:
                if b is _int:
                    return _int_copy(x), True
                if b is _float:
                    return _float_copy(x), True
                if b is _complex:
                    return _complex_copy(x), True
                if b is _str:
                    return _str_copy(x), True
                if b is _bytes:
                    return _bytes_copy(x), True
                if b is _list:
                    x = _list_copy(x)
                elif b is _tuple:
                    if _plain_namedtuple(t) and _all_scalars(x):
                        # Fields read the tuple's own slots (C-level getters) and comparison is
                        # tuple's: kept as it is, so `answer.x` still works.
                        return x, True
                    x = _tuple_getitem(x, _everything)
                elif b is _set:
                    x = _set_copy(x)
                elif b is _frozenset:
                    x = _frozenset_copy(x)
                else:
                    x = _list(_dict_items(x))
            except _AssertionError:
                raise
            except _BaseException:
                _refuse(x, 'cannot be read as a plain value')
            t = b
        if t is _list or t is _tuple:
            if _all_scalars(x):
                return x, True
            items = [_snap(v, depth + 1) for v in _list(x)]
            vals = [v for v, _ in items]
            return (vals if t is _list else _tuple(vals)), _all(p for _, p in items)
        if t is _dict:
            out = {}
            pure = True
            for k, v in (x if _type(x) is _list else _list(_dict_items(x))):
                k, pk = _snap(k, depth + 1)
                if not pk:
                    _refuse(k, 'is not a plain dict key')
                v, pv = _snap(v, depth + 1)
                pure = pure and pv
                out[k] = v
            return out, pure
        if _all_scalars(x):
            return x, True
        items = [_snap(v, depth + 1) for v in _list(x)]
        for v, p in items:
            if not p:
                _refuse(v, 'is not a plain set element')
        return t(v for v, _ in items), True

    def _eq(a, b):
        ta = _type(a)
        tb = _type(b)
        if (ta is _int or ta is _str or ta is _float or ta is _bool) and (tb is _int or tb is _str or tb is _float or tb is _bool):
            return a == b
        a, pa = _snap(a, 0)
        b, pb = _snap(b, 0)
        if pa and pb:
            # Both made only of exact builtin types: Python's own == is trusted code here.
            return _bool(a == b)
        ta = _type(a)
        tb = _type(b)
        plain_a = _ident(ta) in SCALARS or _ident(ta) in BASES
        plain_b = _ident(tb) in SCALARS or _ident(tb) in BASES
        if not plain_a and not plain_b:
            # Neither side is a builtin value (two of the program's own objects, or stdlib
            # objects): their own == decides, as in Python.
            return _bool(a == b)
        if plain_a and plain_b:
            if ta is not tb:
                return _bool(a == b) if (_ident(ta) in SCALARS and _ident(tb) in SCALARS) else False
            if ta is _list or ta is _tuple:
                if _len(a) != _len(b):
                    return False
                for i in _range(_len(a)):
                    if not _eq(a[i], b[i]):
                        return False
                return True
            if ta is _dict:
                if _len(a) != _len(b):
                    return False
                for k, v in _list(_dict_items(a)):
                    if k not in b or not _eq(v, b[k]):
                        return False
                return True
            return _bool(a == b)
        other = b if plain_a else a
        if _ident(_type(other)) in protected:
            return _bool(a == b)
        _refuse(other, 'is compared with a builtin value')

    def _contains(item, coll):
        c, pc = _snap(coll, 0)
        i, pi = _snap(item, 0)
        if pc and pi:
            return _bool(i in c)
        tc = _type(c)
        if tc is _list or tc is _tuple:
            for v in _list(c):
                if _eq(i, v):
                    return True
            return False
        if tc is _dict or tc is _set or tc is _frozenset:
            if not pi:
                _refuse(i, 'is looked up in a builtin container')
            return _bool(i in c)
        return _bool(i in c)

    def compare(op, a, b):
        if op == 0:
            return _eq(a, b)
        if op == 1:
            return not _eq(a, b)
        if op == 2:
            return _contains(a, b)
        return not _contains(a, b)

    def _wrap(fn):
        # A solution function as the tests see it in strict mode: its answer is snapshotted.
        def candidate(*args, **kwargs):
            r = fn(*args, **kwargs)
            t = _type(r)
            if t is _int or t is _str or t is _bool or t is _float or r is None:
                return r
            return _snap(r, 0)[0]
        return candidate

    # ---- instrumenting the tests ----------------------------------------------------------------

    OPS = {ast.Eq: 0, ast.NotEq: 1, ast.In: 2, ast.NotIn: 3}

    # Nodes without child nodes that matter here: not visited (a test's literal lists are most of
    # its nodes).
    LEAVES = (ast.Constant, ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)
    _AST = ast.AST
    _Assert = ast.Assert
    _Compare = ast.Compare
    _Name = ast.Name
    _iter_fields = ast.iter_fields
    _copy_location = ast.copy_location
    _enumerate = enumerate
    _hasattr = hasattr
    _setattr = setattr

    def _instrument(tree, names, strict):
        # Number every `assert` statement (the tests' own checks), in source order, and turn
        # `assert T, M` into `if not ok(k, T): raise AssertionError(M)`. In strict mode,
        # single ==, !=, in, not in comparisons inside an assert's test go through `compare`.
        # One pass over the tree, which also collects the names it reads. Returns the tree, the
        # number of asserts, their lines and the names.
        ok_name, ae_name, cmp_name = names
        found = []  # (assert, the statement list holding it, its index there)
        ids = []
        stack = [(tree, False)]
        while stack:
            node, inside = stack.pop()
            for field, value in _iter_fields(node):
                if _isinstance(value, _list):
                    for j, v in _enumerate(value):
                        if _isinstance(v, LEAVES) or not _isinstance(v, _AST):
                            continue
                        if _type(v) is _Name:
                            ids.append(v.id)
                            continue
                        if inside and strict and _type(v) is _Compare:
                            v = _rewrite_expr(v, cmp_name)
                            value[j] = v
                        elif _type(v) is _Assert:
                            found.append((v, value, j))
                        stack.append((v, inside))
                elif _isinstance(value, _AST) and not _isinstance(value, LEAVES):
                    if _type(value) is _Name:
                        ids.append(value.id)
                        continue
                    test = inside or (_type(node) is _Assert and field == 'test')
                    if test and strict and _type(value) is _Compare:
                        value = _rewrite_expr(value, cmp_name)
                        _setattr(node, field, value)
                    stack.append((value, test))
        found.sort(key=lambda f: (f[0].lineno, f[0].col_offset))
        for k, (s, seq, j) in _enumerate(found):
            call = ast.Call(ast.Name(ok_name, ast.Load()), [ast.Constant(k), s.test], [])
            exc = ast.Name(ae_name, ast.Load())
            if s.msg is not None:
                exc = ast.Call(exc, [s.msg], [])
            new = ast.If(ast.UnaryOp(ast.Not(), call), [ast.Raise(exc, None)], [])
            seq[j] = _located(new, s)
        return tree, _len(found), [f[0].lineno for f in found], _frozenset(ids)

    def _located(node, src):
        # A new node and the new nodes under it take src's location (what fix_missing_locations
        # would give them; it walks the whole tree).
        for n in _ast_walk(node):
            if 'lineno' in n._attributes and not _hasattr(n, 'lineno'):
                _copy_location(n, src)
        return node

    def _rewrite_expr(e, cmp_name):
        if _len(e.ops) == 1 and _type(e.ops[0]) in OPS:
            call = ast.Call(ast.Name(cmp_name, ast.Load()), [ast.Constant(OPS[_type(e.ops[0])]), e.left, e.comparators[0]], [])
            return _located(call, e)
        return e

    def _prompt_names(prompt):
        # Top-level names the prompt defines, except the function the completion completes
        # (its last top-level def): helpers like HumanEval's `poly` come from the prompt itself.
        try:
            tree = _ast_parse(prompt, 'prompt.py')
        except _BaseException:
            return None, ()
        names = []
        last = None
        for s in tree.body:
            if _isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.append(s.name)
                if not _isinstance(s, ast.ClassDef):
                    last = s.name
            elif _isinstance(s, ast.Assign):
                names.extend(t.id for t in s.targets if _isinstance(t, ast.Name))
        names = [n for n in names if n != last]
        if not names:
            return None, ()
        try:
            return _compile(tree, 'prompt.py', 'exec', dont_inherit=True), _tuple(names)
        except _BaseException:
            return None, ()

    # ---- the tests, compiled once -----------------------------------------------------------

    def _names(tag):
        # The private names the instrumented tests call (see stage).
        return ('__anchor_ok_' + tag + '__', '__anchor_ae_' + tag + '__', '__anchor_cmp_' + tag + '__')

    # The parts compile_tests just made, for the stage right after it (emptied by the heap restore).
    fresh = []

    def _tests_parts(tests, prompt, tag, strict):
        # Everything a program's run needs of its tests and prompt: a function of these arguments
        # alone, computed before any program code runs.
        tree, n, lines, tests_names = _instrument(_ast_parse(tests, 'tests.py'), _names(tag), strict)
        code = _compile(tree, 'tests.py', 'exec', dont_inherit=True)
        prompt_code, prompt_names = _prompt_names(prompt) if prompt is not None else (None, ())
        return code, n, lines, tests_names, prompt_code, prompt_names

    def compile_tests(tests, prompt, tag, mode):
        # The tests' parts, marshaled, for the JS side to keep: many programs share one problem's
        # tests (a GRPO group, an eval's samples), and parsing, instrumenting and compiling them
        # costs more than running a short solution. Called on the pristine heap, before the
        # program; its bytes travel as text (latin-1 code points in UTF-8), and the parts stay
        # here for the stage right after (the JS side passes the text back only on a cache hit).
        # None if they do not compile (stage then reports why).
        fresh.clear()
        try:
            parts = _tests_parts(tests, prompt, tag, mode == 'strict')
            text = _str_encode(_bytes_decode(_marshal_dumps(parts), 'latin-1'), 'utf-8')
        except _BaseException:
            return None
        # The stage that follows uses these objects as they are (no round trip through marshal).
        fresh.append(parts)
        return text

    # ---- one program --------------------------------------------------------------------------

    def stage(code, tests, prompt, nonce, seed, mode, tag, compiled):
        just_compiled = fresh.pop() if fresh else None
        seed = _int(seed)
        strict = mode == 'strict'
        st.clear()
        st['nonce'] = nonce
        st['passed'] = _set()
        st['failed'] = _set()
        st['n_asserts'] = 0
        st['strict'] = strict and tests is not None
        st['tests_modules'] = {}
        passed = st['passed']
        failed = st['failed']

        strict_ok = st['strict']

        def ok(k, v):
            if v is not True and v is not False:
                if strict_ok:
                    # The truth of an answer is the truth of its snapshot (a program object's
                    # own __bool__ does not decide a strict verdict).
                    v, pure = _snap(v, 0)
                    if not pure and _ident(_type(v)) not in protected:
                        _refuse(v, 'is used as a truth value')
                v = _bool(v)
            (passed if v else failed).add(k)
            return v

        # Private names carry the runtime's random tag: a program cannot call them by a name it
        # knows in advance. With separate tests they are bound only in the tests' namespace.
        names = _names(tag)
        st['names'] = names
        st['ok'] = ok
        try:
            if tests is None:
                tree, n, lines, _ = _instrument(_ast_parse(code, 'program.py'), names, False)
                st['code'] = _compile(tree, 'program.py', 'exec', dont_inherit=True)
                st['tests'] = None
                st['prompt'] = (None, ())
            else:
                st['code'] = _compile(code, 'program.py', 'exec', dont_inherit=True)
                if just_compiled is not None:
                    parts = just_compiled
                elif compiled is not None:
                    parts = _marshal_loads(_str_encode(compiled, 'latin-1'))
                else:
                    parts = _tests_parts(tests, prompt, tag, st['strict'])
                st['tests'], n, lines, st['tests_names'], prompt_code, prompt_names = parts
                st['prompt'] = (prompt_code, prompt_names)
            st['n_asserts'] = n
            st['assert_lines'] = lines
        except _MemoryError:
            return _out('memory', 'MemoryError while compiling')
        except _BaseException as e:
            # Raised by the compiler before any program code ran: its own str() is safe here and
            # carries the file and line.
            return _out('syntax', _cap(_class_name(_type(e)) + ': ' + _str(e)))
        main = _ModuleType('__main__')
        g = main.__dict__
        g['__builtins__'] = _builtins_module()
        if tests is None:
            g[names[0]] = ok
            g[names[1]] = _AssertionError
        sys.modules['__main__'] = main
        st['g'] = g
        # Every random source starts from the program's own seed (see harness.js for os.urandom
        # and the clocks): a verdict is a function of the program, not of the worker.
        st['seed'] = seed
        _rand_seed(_rand_inst, seed)
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

    def _tests_globals(g):
        tg = {}
        names = [k for k in _list(g) if _type(k) is _str]
        # A program name that shadows a builtin is hidden from the tests (so `def abs` or
        # `set = ...` cannot change what the assertions compute) unless the tests call no other
        # program name, i.e. the builtin-named function is the one under test (MBPP has
        # `def sum(a, b)` checked as `assert sum(10, 15) == 6`).
        tested = st['tests_names']
        own = [k for k in names if k not in builtin_names and k in tested and not k.startswith('__')]
        strict = st['strict']
        for k in names:
            if k not in builtin_names or not own:
                v = g[k]
                tg[k] = _wrap(v) if strict and _type(v) is _FunctionType else v
        ok_name, ae_name, cmp_name = st['names']
        tb = _builtins_module({'__import__': _tests_import})
        code, pnames = st['prompt']
        if code is not None:
            pg = {'__builtins__': _builtins_module({'__import__': _tests_import}), '__name__': '__main__'}
            try:
                _exec(code, pg)
                for k in pnames:
                    if k in pg:
                        tg[k] = pg[k]
            except _BaseException:
                pass
        tg['__builtins__'] = tb
        tg['__name__'] = '__main__'
        tg[ok_name] = st['ok']
        tg[ae_name] = _AssertionError
        tg[cmp_name] = compare
        return tg

    def _run():
        g = st['g']
        phase = 'program'
        try:
            _exec(st['code'], g)
            if st['tests'] is not None:
                phase = 'tests'
                # The shared random instance the tests draw from: back to its pristine state
                # (a program may have set attributes on it) and seeded for this program.
                d = _vars(_rand_inst)
                d.clear()
                d.update(_rand_state)
                _rand_seed(_rand_inst, st['seed'] ^ 0x5DEECE66D)
                tg = _tests_globals(g)
                # Anything the program's own asserts recorded does not count.
                st['passed'].clear()
                st['failed'].clear()
                _exec(st['tests'], tg)
        except _AssertionError as e:
            msg = _describe(e)
            if msg == 'AssertionError':
                msg = 'AssertionError (in the ' + phase + ')'
            failed = st['failed']
            if failed:
                where = 'tests.py' if st['tests'] is not None else 'program.py'
                msg = msg + ' at ' + where + ' line ' + _str(st['assert_lines'][_min(failed)])
            return _out('fail', msg)
        except _MemoryError as e:
            return _out('memory', _describe(e))
        except (_SystemExit, _KeyboardInterrupt) as e:
            return _out('error', 'the program exited early (' + _class_name(_type(e)) + ') during the ' + phase + ': not a pass')
        except _BaseException as e:
            return _out('error', _describe(e))
        if st['failed']:
            return _out('fail', 'the assertion at line ' + _str(st['assert_lines'][_min(st['failed'])]) + ' failed (the tests caught its AssertionError)')
        return _out('completed', '')

    return stage, run, compile_tests


_anchor_stage, _anchor_run, _anchor_compile_tests = _anchor_setup()
del _anchor_setup
