"""Writes gradlab/ops/special_coefficients.py from the installed torch's ATen/native/Math.h (run once by hand)."""
import glob
import re
import textwrap


def _tuple(name, values):
    return f'{name} = (\n' + textwrap.indent(textwrap.fill(', '.join(values) + ',', 110), '    ') + ')'

src = open(glob.glob('/work/main/.venv/lib/python3*/site-packages/torch/include/ATen/native/Math.h')[0]).read()
num = r'[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?'
out = ['"""Coefficient tables of ATen\'s special functions (aten/src/ATen/native/Math.h: Cephes, 3-clause BSD;',
       'erfcx: S. G. Johnson\'s Faddeeva package, MIT), extracted from that header by a script; the',
       'functions that use them are ops/special_math.py\'s."""', '']
def fn_region(name):
    i = src.index(name + '(T x) {') if name + '(T x) {' in src else src.index(name)
    j = src.index('\n}', i)
    return src[i:j]
for fname, key in [('airy_ai_forward', 'AIRY'), ('bessel_j0_forward', 'J0'), ('bessel_j1_forward', 'J1'),
                   ('bessel_y0_forward', 'Y0'), ('bessel_y1_forward', 'Y1'), ('modified_bessel_i1_forward', 'I1'),
                   ('modified_bessel_k0_forward', 'K0'), ('modified_bessel_k1_forward', 'K1'),
                   ('scaled_modified_bessel_k0_forward', 'K0E'), ('scaled_modified_bessel_k1_forward', 'K1E')]:
    reg = fn_region('inline C10_HOST_DEVICE T ' + fname)
    for m in re.finditer(r'static const T (\w+)\[\] = \{(.*?)\};', reg, re.S):
        vals = re.findall(num, m.group(2))
        out.append(_tuple(f'{key}_{m.group(1)}', vals))
# ndtri
reg = src[src.index('calc_ndtri(T y0)'):]
reg = reg[:reg.index('\n}')]
for m in re.finditer(r'static const T (\w+)\[\d+\] = \{(.*?)\};', reg, re.S):
    out.append(_tuple(f'NDTRI_{m.group(1)}', re.findall(num, m.group(2))))
# erfcx
reg = src[src.index('erfcx_y100(T y100)'):]
reg = reg[:reg.index('return 1.0;')]
cases = []
for m in re.finditer(r'case (\d+): \{\s*T t = 2\*y100 - (\d+);\s*return (.*?);\s*\}', reg, re.S):
    assert int(m.group(1)) == len(cases)
    cs = re.findall(r'\d\.\d+e[-+]?\d+', m.group(3))
    cases.append((int(m.group(2)), tuple(cs)))
assert len(cases) == 100, len(cases)
out.append('# erfcx_y100: case k is t = 2 * y100 - ERFCX_T[k], then the polynomial ERFCX_Y100[k] (lowest power first)')
out.append(_tuple('ERFCX_T', [str(c[0]) for c in cases]))
out.append('ERFCX_Y100 = (\n' + '\n'.join('    (' + ', '.join(c[1]) + '),' for c in cases) + '\n)')
open(__import__('os').path.join(__import__('os').path.dirname(__file__), '..', 'gradlab', 'ops', 'special_coefficients.py'), 'w').write('\n'.join(out) + '\n')
