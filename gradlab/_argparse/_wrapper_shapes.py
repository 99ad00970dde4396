"""The argument wrappers' shapes that `import gradlab` uses, written out so that Python caches their
bytecode. Made by tools/make_wrappers.py from wrappers.py's _wrapper_source: do not edit."""


def make_0_empty_ok(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(*extra, **kwargs):
        if extra:
            return _call(fn, entry, (), _trim(()) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (), (), kwargs, ok, rules)
        try:
            return fn()
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_0_method(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(self, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (self, ), _trim(()) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (self, ), (), kwargs, ok, rules)
        if () not in ok:
            return _call(fn, entry, (self, ), (), {}, ok, rules)
        try:
            return fn(self, )
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_0_method_empty_ok(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(self, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (self, ), _trim(()) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (self, ), (), kwargs, ok, rules)
        try:
            return fn(self, )
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_1(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(p0=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (), _trim((p0, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (), (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (), (p0, ), {}, ok, rules)
            try:
                return fn(p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (), (), {}, ok, rules)
        try:
            return fn()
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_1_method(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(self, p0=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (self, ), _trim((p0, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (self, ), (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (self, ), (p0, ), {}, ok, rules)
            try:
                return fn(self, p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (self, ), (), {}, ok, rules)
        try:
            return fn(self, )
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_2(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(p0=_M, p1=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (), _trim((p0, p1, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (), (p0, p1, ) if p1 is not _M else (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p1 is not _M:
            key = (type(p0), type(p1), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, ), None)):
                return _call(fn, entry, (), (p0, p1, ), {}, ok, rules)
            try:
                return fn(p0, p1)
            except Exception:
                error = _refusal(entry, (p0, p1, ), {})
                if error is None:
                    raise
            raise error
        elif p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (), (p0, ), {}, ok, rules)
            try:
                return fn(p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (), (), {}, ok, rules)
        try:
            return fn()
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_2_method(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(self, p0=_M, p1=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (self, ), _trim((p0, p1, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (self, ), (p0, p1, ) if p1 is not _M else (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p1 is not _M:
            key = (type(p0), type(p1), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, ), None)):
                return _call(fn, entry, (self, ), (p0, p1, ), {}, ok, rules)
            try:
                return fn(self, p0, p1)
            except Exception:
                error = _refusal(entry, (p0, p1, ), {})
                if error is None:
                    raise
            raise error
        elif p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (self, ), (p0, ), {}, ok, rules)
            try:
                return fn(self, p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (self, ), (), {}, ok, rules)
        try:
            return fn(self, )
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_3(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(p0=_M, p1=_M, p2=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (), _trim((p0, p1, p2, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (), (p0, p1, p2, ) if p2 is not _M else (p0, p1, ) if p1 is not _M else (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p2 is not _M:
            key = (type(p0), type(p1), type(p2), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, ), {})
                if error is None:
                    raise
            raise error
        elif p1 is not _M:
            key = (type(p0), type(p1), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, ), None)):
                return _call(fn, entry, (), (p0, p1, ), {}, ok, rules)
            try:
                return fn(p0, p1)
            except Exception:
                error = _refusal(entry, (p0, p1, ), {})
                if error is None:
                    raise
            raise error
        elif p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (), (p0, ), {}, ok, rules)
            try:
                return fn(p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (), (), {}, ok, rules)
        try:
            return fn()
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_3_method(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(self, p0=_M, p1=_M, p2=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (self, ), _trim((p0, p1, p2, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (self, ), (p0, p1, p2, ) if p2 is not _M else (p0, p1, ) if p1 is not _M else (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p2 is not _M:
            key = (type(p0), type(p1), type(p2), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, ), None)):
                return _call(fn, entry, (self, ), (p0, p1, p2, ), {}, ok, rules)
            try:
                return fn(self, p0, p1, p2)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, ), {})
                if error is None:
                    raise
            raise error
        elif p1 is not _M:
            key = (type(p0), type(p1), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, ), None)):
                return _call(fn, entry, (self, ), (p0, p1, ), {}, ok, rules)
            try:
                return fn(self, p0, p1)
            except Exception:
                error = _refusal(entry, (p0, p1, ), {})
                if error is None:
                    raise
            raise error
        elif p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (self, ), (p0, ), {}, ok, rules)
            try:
                return fn(self, p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (self, ), (), {}, ok, rules)
        try:
            return fn(self, )
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_4(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(p0=_M, p1=_M, p2=_M, p3=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (), _trim((p0, p1, p2, p3, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (), (p0, p1, p2, p3, ) if p3 is not _M else (p0, p1, p2, ) if p2 is not _M else (p0, p1, ) if p1 is not _M else (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p3 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, ), {})
                if error is None:
                    raise
            raise error
        elif p2 is not _M:
            key = (type(p0), type(p1), type(p2), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, ), {})
                if error is None:
                    raise
            raise error
        elif p1 is not _M:
            key = (type(p0), type(p1), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, ), None)):
                return _call(fn, entry, (), (p0, p1, ), {}, ok, rules)
            try:
                return fn(p0, p1)
            except Exception:
                error = _refusal(entry, (p0, p1, ), {})
                if error is None:
                    raise
            raise error
        elif p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (), (p0, ), {}, ok, rules)
            try:
                return fn(p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (), (), {}, ok, rules)
        try:
            return fn()
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_4_method(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(self, p0=_M, p1=_M, p2=_M, p3=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (self, ), _trim((p0, p1, p2, p3, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (self, ), (p0, p1, p2, p3, ) if p3 is not _M else (p0, p1, p2, ) if p2 is not _M else (p0, p1, ) if p1 is not _M else (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p3 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, ), None)):
                return _call(fn, entry, (self, ), (p0, p1, p2, p3, ), {}, ok, rules)
            try:
                return fn(self, p0, p1, p2, p3)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, ), {})
                if error is None:
                    raise
            raise error
        elif p2 is not _M:
            key = (type(p0), type(p1), type(p2), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, ), None)):
                return _call(fn, entry, (self, ), (p0, p1, p2, ), {}, ok, rules)
            try:
                return fn(self, p0, p1, p2)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, ), {})
                if error is None:
                    raise
            raise error
        elif p1 is not _M:
            key = (type(p0), type(p1), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, ), None)):
                return _call(fn, entry, (self, ), (p0, p1, ), {}, ok, rules)
            try:
                return fn(self, p0, p1)
            except Exception:
                error = _refusal(entry, (p0, p1, ), {})
                if error is None:
                    raise
            raise error
        elif p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (self, ), (p0, ), {}, ok, rules)
            try:
                return fn(self, p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (self, ), (), {}, ok, rules)
        try:
            return fn(self, )
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_4_method_empty_ok(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(self, p0=_M, p1=_M, p2=_M, p3=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (self, ), _trim((p0, p1, p2, p3, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (self, ), (p0, p1, p2, p3, ) if p3 is not _M else (p0, p1, p2, ) if p2 is not _M else (p0, p1, ) if p1 is not _M else (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p3 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, ), None)):
                return _call(fn, entry, (self, ), (p0, p1, p2, p3, ), {}, ok, rules)
            try:
                return fn(self, p0, p1, p2, p3)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, ), {})
                if error is None:
                    raise
            raise error
        elif p2 is not _M:
            key = (type(p0), type(p1), type(p2), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, ), None)):
                return _call(fn, entry, (self, ), (p0, p1, p2, ), {}, ok, rules)
            try:
                return fn(self, p0, p1, p2)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, ), {})
                if error is None:
                    raise
            raise error
        elif p1 is not _M:
            key = (type(p0), type(p1), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, ), None)):
                return _call(fn, entry, (self, ), (p0, p1, ), {}, ok, rules)
            try:
                return fn(self, p0, p1)
            except Exception:
                error = _refusal(entry, (p0, p1, ), {})
                if error is None:
                    raise
            raise error
        elif p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (self, ), (p0, ), {}, ok, rules)
            try:
                return fn(self, p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        try:
            return fn(self, )
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_5(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(p0=_M, p1=_M, p2=_M, p3=_M, p4=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (), _trim((p0, p1, p2, p3, p4, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (), (p0, p1, p2, p3, p4, ) if p4 is not _M else (p0, p1, p2, p3, ) if p3 is not _M else (p0, p1, p2, ) if p2 is not _M else (p0, p1, ) if p1 is not _M else (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p4 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, ), {})
                if error is None:
                    raise
            raise error
        elif p3 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, ), {})
                if error is None:
                    raise
            raise error
        elif p2 is not _M:
            key = (type(p0), type(p1), type(p2), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, ), {})
                if error is None:
                    raise
            raise error
        elif p1 is not _M:
            key = (type(p0), type(p1), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, ), None)):
                return _call(fn, entry, (), (p0, p1, ), {}, ok, rules)
            try:
                return fn(p0, p1)
            except Exception:
                error = _refusal(entry, (p0, p1, ), {})
                if error is None:
                    raise
            raise error
        elif p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (), (p0, ), {}, ok, rules)
            try:
                return fn(p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (), (), {}, ok, rules)
        try:
            return fn()
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_5_method(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(self, p0=_M, p1=_M, p2=_M, p3=_M, p4=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (self, ), _trim((p0, p1, p2, p3, p4, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (self, ), (p0, p1, p2, p3, p4, ) if p4 is not _M else (p0, p1, p2, p3, ) if p3 is not _M else (p0, p1, p2, ) if p2 is not _M else (p0, p1, ) if p1 is not _M else (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p4 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, ), None)):
                return _call(fn, entry, (self, ), (p0, p1, p2, p3, p4, ), {}, ok, rules)
            try:
                return fn(self, p0, p1, p2, p3, p4)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, ), {})
                if error is None:
                    raise
            raise error
        elif p3 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, ), None)):
                return _call(fn, entry, (self, ), (p0, p1, p2, p3, ), {}, ok, rules)
            try:
                return fn(self, p0, p1, p2, p3)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, ), {})
                if error is None:
                    raise
            raise error
        elif p2 is not _M:
            key = (type(p0), type(p1), type(p2), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, ), None)):
                return _call(fn, entry, (self, ), (p0, p1, p2, ), {}, ok, rules)
            try:
                return fn(self, p0, p1, p2)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, ), {})
                if error is None:
                    raise
            raise error
        elif p1 is not _M:
            key = (type(p0), type(p1), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, ), None)):
                return _call(fn, entry, (self, ), (p0, p1, ), {}, ok, rules)
            try:
                return fn(self, p0, p1)
            except Exception:
                error = _refusal(entry, (p0, p1, ), {})
                if error is None:
                    raise
            raise error
        elif p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (self, ), (p0, ), {}, ok, rules)
            try:
                return fn(self, p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (self, ), (), {}, ok, rules)
        try:
            return fn(self, )
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_6(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(p0=_M, p1=_M, p2=_M, p3=_M, p4=_M, p5=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (), _trim((p0, p1, p2, p3, p4, p5, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, ) if p5 is not _M else (p0, p1, p2, p3, p4, ) if p4 is not _M else (p0, p1, p2, p3, ) if p3 is not _M else (p0, p1, p2, ) if p2 is not _M else (p0, p1, ) if p1 is not _M else (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p5 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, ), {})
                if error is None:
                    raise
            raise error
        elif p4 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, ), {})
                if error is None:
                    raise
            raise error
        elif p3 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, ), {})
                if error is None:
                    raise
            raise error
        elif p2 is not _M:
            key = (type(p0), type(p1), type(p2), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, ), {})
                if error is None:
                    raise
            raise error
        elif p1 is not _M:
            key = (type(p0), type(p1), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, ), None)):
                return _call(fn, entry, (), (p0, p1, ), {}, ok, rules)
            try:
                return fn(p0, p1)
            except Exception:
                error = _refusal(entry, (p0, p1, ), {})
                if error is None:
                    raise
            raise error
        elif p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (), (p0, ), {}, ok, rules)
            try:
                return fn(p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (), (), {}, ok, rules)
        try:
            return fn()
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_7(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(p0=_M, p1=_M, p2=_M, p3=_M, p4=_M, p5=_M, p6=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (), _trim((p0, p1, p2, p3, p4, p5, p6, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, p6, ) if p6 is not _M else (p0, p1, p2, p3, p4, p5, ) if p5 is not _M else (p0, p1, p2, p3, p4, ) if p4 is not _M else (p0, p1, p2, p3, ) if p3 is not _M else (p0, p1, p2, ) if p2 is not _M else (p0, p1, ) if p1 is not _M else (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p6 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), type(p6), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, p6, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, p6, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5, p6)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, p6, ), {})
                if error is None:
                    raise
            raise error
        elif p5 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, ), {})
                if error is None:
                    raise
            raise error
        elif p4 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, ), {})
                if error is None:
                    raise
            raise error
        elif p3 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, ), {})
                if error is None:
                    raise
            raise error
        elif p2 is not _M:
            key = (type(p0), type(p1), type(p2), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, ), {})
                if error is None:
                    raise
            raise error
        elif p1 is not _M:
            key = (type(p0), type(p1), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, ), None)):
                return _call(fn, entry, (), (p0, p1, ), {}, ok, rules)
            try:
                return fn(p0, p1)
            except Exception:
                error = _refusal(entry, (p0, p1, ), {})
                if error is None:
                    raise
            raise error
        elif p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (), (p0, ), {}, ok, rules)
            try:
                return fn(p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (), (), {}, ok, rules)
        try:
            return fn()
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_8(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(p0=_M, p1=_M, p2=_M, p3=_M, p4=_M, p5=_M, p6=_M, p7=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (), _trim((p0, p1, p2, p3, p4, p5, p6, p7, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, p6, p7, ) if p7 is not _M else (p0, p1, p2, p3, p4, p5, p6, ) if p6 is not _M else (p0, p1, p2, p3, p4, p5, ) if p5 is not _M else (p0, p1, p2, p3, p4, ) if p4 is not _M else (p0, p1, p2, p3, ) if p3 is not _M else (p0, p1, p2, ) if p2 is not _M else (p0, p1, ) if p1 is not _M else (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p7 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), type(p6), type(p7), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, p6, p7, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, p6, p7, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5, p6, p7)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, p6, p7, ), {})
                if error is None:
                    raise
            raise error
        elif p6 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), type(p6), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, p6, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, p6, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5, p6)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, p6, ), {})
                if error is None:
                    raise
            raise error
        elif p5 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, ), {})
                if error is None:
                    raise
            raise error
        elif p4 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, ), {})
                if error is None:
                    raise
            raise error
        elif p3 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, ), {})
                if error is None:
                    raise
            raise error
        elif p2 is not _M:
            key = (type(p0), type(p1), type(p2), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, ), {})
                if error is None:
                    raise
            raise error
        elif p1 is not _M:
            key = (type(p0), type(p1), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, ), None)):
                return _call(fn, entry, (), (p0, p1, ), {}, ok, rules)
            try:
                return fn(p0, p1)
            except Exception:
                error = _refusal(entry, (p0, p1, ), {})
                if error is None:
                    raise
            raise error
        elif p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (), (p0, ), {}, ok, rules)
            try:
                return fn(p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (), (), {}, ok, rules)
        try:
            return fn()
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_9(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(p0=_M, p1=_M, p2=_M, p3=_M, p4=_M, p5=_M, p6=_M, p7=_M, p8=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (), _trim((p0, p1, p2, p3, p4, p5, p6, p7, p8, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, p6, p7, p8, ) if p8 is not _M else (p0, p1, p2, p3, p4, p5, p6, p7, ) if p7 is not _M else (p0, p1, p2, p3, p4, p5, p6, ) if p6 is not _M else (p0, p1, p2, p3, p4, p5, ) if p5 is not _M else (p0, p1, p2, p3, p4, ) if p4 is not _M else (p0, p1, p2, p3, ) if p3 is not _M else (p0, p1, p2, ) if p2 is not _M else (p0, p1, ) if p1 is not _M else (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p8 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), type(p6), type(p7), type(p8), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, p6, p7, p8, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, p6, p7, p8, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5, p6, p7, p8)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, p6, p7, p8, ), {})
                if error is None:
                    raise
            raise error
        elif p7 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), type(p6), type(p7), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, p6, p7, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, p6, p7, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5, p6, p7)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, p6, p7, ), {})
                if error is None:
                    raise
            raise error
        elif p6 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), type(p6), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, p6, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, p6, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5, p6)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, p6, ), {})
                if error is None:
                    raise
            raise error
        elif p5 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, ), {})
                if error is None:
                    raise
            raise error
        elif p4 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, ), {})
                if error is None:
                    raise
            raise error
        elif p3 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, ), {})
                if error is None:
                    raise
            raise error
        elif p2 is not _M:
            key = (type(p0), type(p1), type(p2), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, ), {})
                if error is None:
                    raise
            raise error
        elif p1 is not _M:
            key = (type(p0), type(p1), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, ), None)):
                return _call(fn, entry, (), (p0, p1, ), {}, ok, rules)
            try:
                return fn(p0, p1)
            except Exception:
                error = _refusal(entry, (p0, p1, ), {})
                if error is None:
                    raise
            raise error
        elif p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (), (p0, ), {}, ok, rules)
            try:
                return fn(p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (), (), {}, ok, rules)
        try:
            return fn()
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper


def make_10(fn, entry, _M, _trim, _call, _refusal, ok, rules):
    def wrapper(p0=_M, p1=_M, p2=_M, p3=_M, p4=_M, p5=_M, p6=_M, p7=_M, p8=_M, p9=_M, /, *extra, **kwargs):
        if extra:
            return _call(fn, entry, (), _trim((p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, )) + extra, kwargs, ok, rules)
        if kwargs:
            return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, ) if p9 is not _M else (p0, p1, p2, p3, p4, p5, p6, p7, p8, ) if p8 is not _M else (p0, p1, p2, p3, p4, p5, p6, p7, ) if p7 is not _M else (p0, p1, p2, p3, p4, p5, p6, ) if p6 is not _M else (p0, p1, p2, p3, p4, p5, ) if p5 is not _M else (p0, p1, p2, p3, p4, ) if p4 is not _M else (p0, p1, p2, p3, ) if p3 is not _M else (p0, p1, p2, ) if p2 is not _M else (p0, p1, ) if p1 is not _M else (p0, ) if p0 is not _M else (), kwargs, ok, rules)
        if p9 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), type(p6), type(p7), type(p8), type(p9), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5, p6, p7, p8, p9)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, ), {})
                if error is None:
                    raise
            raise error
        elif p8 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), type(p6), type(p7), type(p8), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, p6, p7, p8, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, p6, p7, p8, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5, p6, p7, p8)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, p6, p7, p8, ), {})
                if error is None:
                    raise
            raise error
        elif p7 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), type(p6), type(p7), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, p6, p7, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, p6, p7, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5, p6, p7)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, p6, p7, ), {})
                if error is None:
                    raise
            raise error
        elif p6 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), type(p6), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, p6, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, p6, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5, p6)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, p6, ), {})
                if error is None:
                    raise
            raise error
        elif p5 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), type(p5), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, p5, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, p5, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4, p5)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, p5, ), {})
                if error is None:
                    raise
            raise error
        elif p4 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), type(p4), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, p4, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, p4, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3, p4)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, p4, ), {})
                if error is None:
                    raise
            raise error
        elif p3 is not _M:
            key = (type(p0), type(p1), type(p2), type(p3), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, p3, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, p3, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2, p3)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, p3, ), {})
                if error is None:
                    raise
            raise error
        elif p2 is not _M:
            key = (type(p0), type(p1), type(p2), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, p2, ), None)):
                return _call(fn, entry, (), (p0, p1, p2, ), {}, ok, rules)
            try:
                return fn(p0, p1, p2)
            except Exception:
                error = _refusal(entry, (p0, p1, p2, ), {})
                if error is None:
                    raise
            raise error
        elif p1 is not _M:
            key = (type(p0), type(p1), )
            if key not in ok and not (key in rules and rules[key]((p0, p1, ), None)):
                return _call(fn, entry, (), (p0, p1, ), {}, ok, rules)
            try:
                return fn(p0, p1)
            except Exception:
                error = _refusal(entry, (p0, p1, ), {})
                if error is None:
                    raise
            raise error
        elif p0 is not _M:
            key = type(p0)
            if key not in ok and not (key in rules and rules[key]((p0, ), None)):
                return _call(fn, entry, (), (p0, ), {}, ok, rules)
            try:
                return fn(p0)
            except Exception:
                error = _refusal(entry, (p0, ), {})
                if error is None:
                    raise
            raise error
        elif () not in ok:
            return _call(fn, entry, (), (), {}, ok, rules)
        try:
            return fn()
        except Exception:
            error = _refusal(entry, (), {})
            if error is None:
                raise
        raise error
    return wrapper
