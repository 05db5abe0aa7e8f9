"""Which 32-byte strings are strong Ed25519 public keys (RFC 8032, section 5.1.3).

The signature check (OpenSSL, through `cryptography`) takes any point it can
decode as a public key. A key of small order (the identity `AQAA...`, or one
of the other seven torsion points) makes the signature R = identity, S = 0
verify over any bytes: anyone could then forge that player's files, and
every proof against him would be worthless. A key with a torsion component,
or a second spelling of one point (y >= p), is no better. So set-up refuses
every key that is not the canonical encoding of a point of the prime-order
subgroup other than the identity. Pure integer arithmetic: this runs once
per set-up file.
"""

from __future__ import annotations

from functools import lru_cache

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493  # the prime order of the base point
D = (-121665 * pow(121666, -1, P)) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)

Point = tuple[int, int, int, int]  # extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z, xy = T/Z
IDENTITY: Point = (0, 1, 1, 0)


def _add(a: Point, b: Point) -> Point:
    """Point addition on -x^2 + y^2 = 1 + d x^2 y^2 (RFC 8032, 5.1.4); complete, so it doubles too."""
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % P
    bb = (y1 + x1) * (y2 + x2) % P
    cc = 2 * t1 * t2 * D % P
    dd = 2 * z1 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _times(point: Point, scalar: int) -> Point:
    result = IDENTITY
    while scalar:
        if scalar & 1:
            result = _add(result, point)
        point = _add(point, point)
        scalar >>= 1
    return result


def _is_identity(point: Point) -> bool:
    x, y, z, _ = point
    return x % P == 0 and (y - z) % P == 0


def decode(raw: bytes) -> Point | None:
    """The point a canonical 32-byte encoding stands for; None if not canonical or not on the curve."""
    if len(raw) != 32:
        return None
    value = int.from_bytes(raw, "little")
    sign = value >> 255
    y = value & ((1 << 255) - 1)
    if y >= P:  # a second spelling of y mod p
        return None
    u = (y * y - 1) % P
    v = (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if (v * x * x - u) % P != 0:
        x = x * SQRT_M1 % P
        if (v * x * x - u) % P != 0:
            return None  # no x: not a point of the curve
    if x == 0 and sign:  # -0 == 0: a second spelling of the point
        return None
    if x & 1 != sign:
        x = P - x
    return (x, y, 1, x * y % P)


@lru_cache(maxsize=64)
def weakness(raw: bytes) -> str | None:
    """Why `raw` is not a strong Ed25519 public key, or None if it is one."""
    point = decode(raw)
    if point is None:
        return "not the canonical encoding of a point of the curve"
    if _is_identity(_times(point, 8)):
        return "a point of small order (any signature of the form R = identity, S = 0 would verify)"
    if not _is_identity(_times(point, L)):
        return "a point outside the prime-order subgroup (it has a small-order component)"
    return None
