"""How long intake takes on hostile HTML and MIME, and whether it grows linearly (prints, never asserts).

    python bench/bench_intake.py [--repeat N]

Issue 22: the regular expressions that stripped HTML tags took 6 s on
47 KiB of "<br" and 121 s on 187 KiB (about an hour for 1 MiB). Each flood
below is turned to text by `intake.html_text` at 47 KiB, 187 KiB and 1 MiB;
the last column is seconds per MiB at 1 MiB divided by that at 47 KiB: about
1 for linear time, about 22 for quadratic. Then a whole message: a 1 MiB
"<br" flood in an HTML part parsed and searched (`intake.read_bytes`), and
the 1,000-deep multipart refused before the stdlib parser sees it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.exchange import intake  # noqa: E402
from pbem.errors import MalformedFile  # noqa: E402

FLOODS = {
    "<br": "<br",
    "<a b='": "<a b='",
    "<a b=c ": "<a b=c ",
    "<!--": "<!--",
    "</": "</",
    "<?": "<?",
    "<": "<",
    "&#": "&#",
}
SIZES = (47 * 1024, 187 * 1024, 1024 * 1024)


def best(run: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"html_text (median of {args.repeat}), seconds at " + ", ".join(f"{s // 1024} KiB" for s in SIZES) + "; growth")
    for name, unit in FLOODS.items():
        row = []
        for size in SIZES:
            text = unit * (size // len(unit))
            row.append(best(lambda: intake.html_text(text), args.repeat))
        growth = (row[-1] / SIZES[-1]) / (row[0] / SIZES[0]) if row[0] else float("nan")
        print(f"  {name!r:12} " + "  ".join(f"{t:7.3f}" for t in row) + f"   x{growth:.2f}")
    message = EmailMessage()
    message["From"] = "eve@example.org"
    message["Subject"] = "flood"
    message.set_content("<html><body>" + "<br" * (2**20 // 3) + "</body></html>", subtype="html")
    data = bytes(message)

    def whole() -> None:
        try:
            intake.read_bytes(data, "flood.eml")
        except MalformedFile:  # no pbem file in it, as expected
            pass

    print(f"a 1 MiB '<br' flood message read and searched: {best(whole, args.repeat):.3f} s")
    deep = b"From: eve@example.org\r\nSubject: deep\r\nMIME-Version: 1.0\r\n" + b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i) for i in range(1000)
    )

    def refuse_deep() -> None:
        try:
            intake.as_email(deep, "deep.eml")
        except MalformedFile:
            pass

    print(f"a 1,000-deep multipart ({len(deep)} bytes) refused: {best(refuse_deep, args.repeat) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
