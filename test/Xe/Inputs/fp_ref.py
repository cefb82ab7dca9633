# Exact IEEE binary formats for the executor's OpenCL tests: values are
# Python Fractions (or the strings 'nan', 'inf', '-inf', '-0'), rounded to
# half, float or double with round to nearest even, toward zero, toward
# +infinity or toward -infinity, written from IEEE 754's definitions with
# integers only (no host floating point in the rounding).
from fractions import Fraction

# (exponent bits, fraction bits)
FORMATS = {'half': (5, 10), 'float': (8, 23), 'double': (11, 52)}


def params(fmt):
    e, m = FORMATS[fmt]
    bias = (1 << (e - 1)) - 1
    return e, m, bias


def decode(fmt, bits):
    """The value of a bit pattern: a Fraction, '-0', 'inf', '-inf' or
    'nan'."""
    e, m, bias = params(fmt)
    sign = bits >> (e + m) & 1
    exp = bits >> m & ((1 << e) - 1)
    frac = bits & ((1 << m) - 1)
    if exp == (1 << e) - 1:
        return 'nan' if frac else ('-inf' if sign else 'inf')
    if exp == 0:
        v = Fraction(frac, 1 << (m + bias - 1))
    else:
        v = Fraction((1 << m) | frac) * Fraction(2) ** (exp - bias - m)
    if sign:
        return '-0' if v == 0 else -v
    return v


def encode(fmt, v, mode='rte'):
    """Bit pattern of v rounded to fmt by mode (rte, rtz, rtp, rtn)."""
    e, m, bias = params(fmt)
    top = 1 << (e + m)
    inf = ((1 << e) - 1) << m
    if v == 'nan':
        return inf | (1 << (m - 1))
    if v in ('inf', '-inf'):
        return inf | (top if v == '-inf' else 0)
    if v == '-0':
        return top
    sign = top if v < 0 else 0
    a = abs(Fraction(v))
    if a == 0:
        return 0
    # Scale so that the quantum (ulp) of a's binade, or of the subnormals,
    # is 1: q = a / 2^(exp - m) for the binade's exponent, at least 1 - bias.
    exp = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** exp > a:
        exp -= 1
    exp = max(exp, 1 - bias)
    q = a / Fraction(2) ** (exp - m)
    n, r = divmod(q.numerator, q.denominator)
    rem = Fraction(r, q.denominator)
    up = {'rte': rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n & 1),
          'rtz': False,
          'rtp': rem > 0 and not sign,
          'rtn': rem > 0 and bool(sign)}[mode]
    n += up
    if n == 1 << (m + 1):  # carried into the next binade
        n >>= 1
        exp += 1
    if n < (1 << m):  # subnormal (or rounded to zero)
        return sign | n
    biased = exp + bias
    if biased >= (1 << e) - 1:  # overflow
        to_inf = {'rte': True, 'rtz': False, 'rtp': not sign,
                  'rtn': bool(sign)}[mode]
        return sign | (inf if to_inf else inf - 1)
    return sign | (biased << m) | (n - (1 << m))


def to_float(fmt, bits):
    """A bit pattern's value as a Python float (exact for all three)."""
    v = decode(fmt, bits)
    if v == 'nan':
        return float('nan')
    if v == '-0':
        return -0.0
    return float(v)
