"""Ask Node what JavaScript says, and write the answers as test data for ``lwcore.js``.

Run from the repository root with any Node (>= 12) on PATH; Node is *not* a test dependency,
only this generator needs it::

    python tools/js_oracle.py            # writes tests/kernel/data/js_values.json
    python tools/js_oracle.py --check    # exit 1 if the committed file differs

The inputs are fixed (a seeded generator), so a rerun on any Node gives the same file; the
file records the Node version that produced it. Doubles travel as their 64-bit patterns (hex),
so ``-0``, NaN and subnormals reach JavaScript exactly.

What is asked:

- ``numbers``: ``String(x)`` for edge cases (``-0``, ``5e-324``, the largest subnormal, the
  1e21 and 1e-7 thresholds and their neighbours, ``0.1 + 0.2``, ``123456789012345680000``,
  2^53 ± 1, NaN, the infinities) and seeded random doubles (random bit patterns, which cover
  every exponent, and short decimals scaled by powers of ten).
- ``whitespace``: every code point that ``trim`` removes (all 1,112,064 scalar values tried).
- ``to_number`` / ``to_string`` / ``truthy``: ``Number(v)``, ``String(v)``, ``!!v`` of JSON values.
- ``utf16``: ``s.length`` and ``s.slice(a, b)`` of strings with characters beyond U+FFFF.
"""

from __future__ import annotations

import argparse
import json
import random
import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "kernel" / "data" / "js_values.json"

_NODE_PROGRAM = r"""
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const buf = new DataView(new ArrayBuffer(8));
const fromHex = (h) => { buf.setBigUint64(0, BigInt('0x' + h)); return buf.getFloat64(0); };
const numStr = (x) => Object.is(x, -0) ? '-0' : String(x);  // tell -0 apart in Number() results
const ws = [];
for (let c = 0; c <= 0x10ffff; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue;
  if (String.fromCodePoint(c).trim() === '') ws.push(c);
}
const out = {
  node: process.version,
  numbers: input.numbers.map((h) => String(fromHex(h))),
  whitespace: ws,
  to_number: input.values.map((v) => numStr(Number(v))),
  to_string: input.values.map((v) => String(v)),
  truthy: input.values.map((v) => !!v),
  utf16: input.strings.map(([s, a, b]) => [s.length, b === null ? s.slice(a) : s.slice(a, b)]),
};
process.stdout.write(JSON.stringify(out));
"""


def _hex(x: float) -> str:
    return struct.pack(">d", x).hex()


def _edge_doubles() -> list[float]:
    def up(x: float, n: int = 1) -> float:
        bits = struct.unpack(">q", struct.pack(">d", x))[0]
        return struct.unpack(">d", struct.pack(">q", bits + n))[0]

    edges = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072009e-308, 2.2250738585072014e-308, 1.7976931348623157e308,
             -1.7976931348623157e308, float("nan"), float("inf"), float("-inf"), 0.1 + 0.2, 0.1, 0.2, 0.3, 1 / 3,
             2 / 3, 123456789012345680000.0, 12345678901234567890.0, 1e21, 1e20, 9.999999999999999e20, 1e-7, 1e-6,
             0.000001, 1.5e-7, 9.999999999999999e-7, 1.0000000000000001e-6, 2.0**53, 2.0**53 + 2, 2.0**53 - 1,
             -(2.0**53), 2.0**63, 2.0**64, 2.0**-1074, 2.0**-1022, 1e16, 1e17, 1e15 + 0.3, 4.35, 0.5, -1.5, 100.0,
             1e300, 1e-300, 123e-20, 1.2e21, 1e22, 5e-7, 4.9406564584124654e-324, 1.7976931348623157e308 / 10,
             3.14159, 2.718281828459045, 1e23, 9007199254740993.0, 0.000001234, 1234.5678, -0.0000001]
    for x in (1e21, 1e-7, 1e-6, 1e-5, 1e16, 2.0**53, 1e22, 5e-324):
        edges += [up(x, -2), up(x, -1), up(x, 1), up(x, 2)]
    edges += [10.0**e for e in range(-325, 309)]
    return edges


def _random_doubles(rng: random.Random) -> list[float]:
    out = [struct.unpack(">d", rng.getrandbits(64).to_bytes(8, "big"))[0] for _ in range(1500)]
    for _ in range(1500):
        digits = rng.randint(1, 17)
        mantissa = rng.randrange(10 ** (digits - 1), 10**digits)
        exponent = rng.randint(-330, 310)
        out.append(float(f"{'-' if rng.random() < 0.3 else ''}{mantissa}e{exponent}"))
    for _ in range(500):
        out.append(rng.uniform(-1e6, 1e6))
    return out


_VALUES = [
    None, True, False, 0, 1, -1, 0.5, "", " ", "0", "-0", " 12 ", "12abc", "1.2.3", "1e3", "1E-3", ".5", "5.", "+.5",
    "-.5e-3", ".", "e5", "+", "-", "0x1F", "0X1f", "-0x1", "+0x1", "0x", "0b101", "0B2", "0o17", "0o8", "00012",
    "1_000", "inf", "-inf", "nan", "NaN", "Infinity", "+Infinity", "-Infinity", "infinity", "INFINITY", "1e400",
    "-1e400", "1e-400", "\u00a012\ufeff", "\u2028 7 \u3000", "\x8512", "\x1c12", "\u180e12", "\u200b12", "12\u200b",
    "\t\n\v\f\r 3 ", "١٢", "１２", "0.1e+1", "9007199254740993", "123456789012345678901234567890", "0x" + "f" * 300,
    [], [5], [1, 2], [[3]], [None], [" 4 "], [True], {}, {"a": 1}, [0.000001, -0.0, None, "x", [1e21, [2]]],
    0.000001, 1e21, -0.0, 1e-7, 123456789012345680000.0, 2**53 + 1, 10**30, 7.0, -2.5e-8,
]

_STRINGS = [
    ("abc", 1, None), ("abc", -2, None), ("abc", 2, 1), ("a😀b", 0, 2), ("a😀b", 1, 2), ("a😀b", 2, None),
    ("a😀b", -2, None), ("a😀b", -3, -1), ("😀😀", 1, 3), ("😀😀", 0, 100), ("😀😀", -100, 1), ("张三😀𠀀", 2, 5),
    ("", 0, None), ("x", 5, None), ("\U0010ffff", 0, 1), ("\U0010ffff", 1, None), ("e\u0301😀", 1, 3),
]


def build() -> dict:
    rng = random.Random(20261202)
    numbers = list(dict.fromkeys(_hex(x) for x in _edge_doubles() + _random_doubles(rng)))
    payload = {"numbers": numbers, "values": _VALUES, "strings": [list(s) for s in _STRINGS]}
    done = subprocess.run(["node", "-e", _NODE_PROGRAM], input=json.dumps(payload), capture_output=True,
                          text=True, encoding="utf-8", check=True)
    said = json.loads(done.stdout)
    # pair each answer with the Python input (JSON.stringify would echo -0 as 0)
    return {
        "generator": "tools/js_oracle.py",
        "node": said["node"],
        "numbers": [[h, text] for h, text in zip(numbers, said["numbers"], strict=True)],
        "whitespace": said["whitespace"],
        **{kind: [[v, answer] for v, answer in zip(_VALUES, said[kind], strict=True)]
           for kind in ("to_number", "to_string", "truthy")},
        "utf16": [[*case, *answer] for case, answer in zip(_STRINGS, said["utf16"], strict=True)],
    }


def render(data: dict) -> str:
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        tail = "," if i < len(items) - 1 else ""
        if isinstance(value, list):
            rows = ",\n    ".join(json.dumps(row, ensure_ascii=True) for row in value)
            lines.append(f'  "{key}": [\n    {rows}\n  ]{tail}')
        else:
            lines.append(f'  "{key}": {json.dumps(value)}{tail}')
    return "\n".join(lines) + "\n}\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing")
    args = parser.parse_args()
    data = build()
    if args.check:
        committed = json.loads(OUT.read_text(encoding="utf-8"))
        committed.pop("node", None)
        data.pop("node", None)
        if committed != data:
            print(f"{OUT.relative_to(ROOT)} differs from what Node says now", file=sys.stderr)
            return 1
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(render(data), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(data['numbers'])} numbers, {len(data['whitespace'])} whitespace")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
