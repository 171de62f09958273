#!/usr/bin/env python3
"""Write the PyPI wheel of skill-audit around a binary that is already built.

    build_wheel.py --binary PATH --version VERSION --tags PLATFORM_TAGS --exe NAME --out DIR

The wheel holds no Python code: the binary goes into the wheel's scripts folder
(`NAME.data/scripts/`), which pip and uv install into the environment's `bin` (`Scripts` on
Windows), so `skill-audit` is on the PATH of the virtual environment, and `uvx` and `pipx`
can run it. PLATFORM_TAGS is one or more platform tags joined with dots (`win_amd64`,
`manylinux_2_17_x86_64.musllinux_1_1_x86_64`); the Python tag is `py3-none`, as the binary
does not depend on the interpreter. Only the standard library is used, so the release
workflow and CI need nothing installed. Prints the wheel's path.
"""

import argparse
import base64
import hashlib
import os
import pathlib
import re
import zipfile

# The distribution's name on PyPI; `skill-audit` there is another project's.
DIST = "skill-audit-cli"
HERE = pathlib.Path(__file__).resolve().parent

# A fixed time for every entry (the zip format starts in 1980), so the same binary always
# gives the same wheel.
STAMP = (1980, 1, 1, 0, 0, 0)


def metadata(version):
    readme = (HERE / "README.md").read_text(encoding="utf-8")
    headers = [
        ("Metadata-Version", "2.4"),
        ("Name", DIST),
        ("Version", version),
        (
            "Summary",
            "Static auditor for agent skill libraries (SKILL.md), custom agents and plugin manifests",
        ),
        ("Home-page", "https://github.com/skill-audit/skill-audit"),
        ("License-Expression", "MIT OR Apache-2.0"),
        ("License-File", "LICENSE-MIT"),
        ("License-File", "LICENSE-APACHE"),
        ("Keywords", "agent-skills,skill,linter,mcp,static-analysis"),
        ("Classifier", "Environment :: Console"),
        ("Classifier", "Intended Audience :: Developers"),
        ("Classifier", "Programming Language :: Rust"),
        ("Classifier", "Topic :: Software Development :: Quality Assurance"),
        ("Project-URL", "Repository, https://github.com/skill-audit/skill-audit"),
        ("Project-URL", "Documentation, https://github.com/skill-audit/skill-audit/blob/main/docs/install.md"),
        ("Requires-Python", ">=3.8"),
        ("Description-Content-Type", "text/markdown"),
    ]
    text = "".join(f"{k}: {v}\n" for k, v in headers)
    return text + "\n" + readme


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--tags", required=True, help="platform tags joined with dots")
    ap.add_argument("--exe", default="skill-audit", help="the binary's name in the wheel")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    norm = DIST.replace("-", "_")
    version = args.version
    # Cargo's pre-release versions (0.2.0-rc.1) are spelt differently in PEP 440 (0.2.0rc1).
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)*", version):
        ap.error(f"{version} is not a plain release version; give its PEP 440 spelling")
    dist_info = f"{norm}-{version}.dist-info"
    tags = args.tags.split(".")
    wheel = "".join(
        [
            "Wheel-Version: 1.0\n",
            "Generator: skill-audit python/build_wheel.py\n",
            "Root-Is-Purelib: false\n",
            *(f"Tag: py3-none-{t}\n" for t in tags),
        ]
    )
    licences = [HERE.parent / "LICENSE-MIT", HERE.parent / "LICENSE-APACHE"]
    files = [
        (f"{norm}-{version}.data/scripts/{args.exe}", pathlib.Path(args.binary).read_bytes(), 0o755),
        (f"{dist_info}/METADATA", metadata(version).encode(), 0o644),
        (f"{dist_info}/WHEEL", wheel.encode(), 0o644),
        *((f"{dist_info}/licenses/{p.name}", p.read_bytes(), 0o644) for p in licences),
    ]
    record_name = f"{dist_info}/RECORD"
    record = "".join(record_line(n, d) for n, d, _ in files) + f"{record_name},,\n"

    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, f"{norm}-{version}-py3-none-{args.tags}.whl")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data, mode in [*files, (record_name, record.encode(), 0o644)]:
            info = zipfile.ZipInfo(name, STAMP)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    print(path)


if __name__ == "__main__":
    main()
