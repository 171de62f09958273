#!/usr/bin/env python3
"""Check the `copilot-cli`, `github-copilot` and `cursor` profiles' loading rules against the
hosts' own readers (GitHub's cloud agent by the Copilot CLI's, whose harness it runs).

Both hosts ship the code that reads a SKILL.md on npm: the Copilot CLI as a native runtime
inside its platform package, Cursor as the local agent runtime of `@cursor/sdk`, which reads
skills with gray-matter 4.0.3. This script fetches them into `target/host-readers`, runs them
on every SKILL.md under the given folders, and counts where their verdict (loaded or not)
agrees with skill-audit's cells for those hosts.

    python3 bench/host_readers.py target/release/skill-audit "$SKILL_AUDIT_CORPUS"/*/

Needs Node.js and npm, and about 300 MB for the Copilot CLI's package. Nothing from the
audited folders is run: the hosts' readers only read their text. docs/fidelity.md has the
results.
"""

import io
import json
import os
import subprocess
import sys
import tarfile
import zlib

COPILOT = "@github/copilot-linux-x64@1.0.102"
GRAY_MATTER = "gray-matter@4.0.3"
WORK = os.path.join("target", "host-readers")

WALK = """
const fs = require('fs'), path = require('path');
function walk(d, out) {
  let es; try { es = fs.readdirSync(d, {withFileTypes: true}); } catch { return; }
  for (const e of es) {
    const p = path.join(d, e.name);
    if (e.isDirectory() && !e.isSymbolicLink()) walk(p, out);
    else if (e.isFile() && e.name === 'SKILL.md') out.push(p);
  }
}
const files = []; for (const r of process.argv.slice(2)) walk(path.resolve(r), files);
"""

# The Copilot CLI's own parser: `skillsParseSkillFile(path, source)`.
COPILOT_JS = WALK + """
const m = require(path.resolve(__dirname, 'copilot/runtime.node'));
(async () => {
  const out = {};
  for (const f of files) {
    const r = await m.skillsParseSkillFile(f, 'project');
    out[f] = r.kind === 'success' ? null : r.message;
  }
  console.log(JSON.stringify(out));
})();
"""

# Cursor's reading as its runtime does it: gray-matter with the js engines off; a throw
# keeps none of the skill's text; a description that is not a non-empty string is an error.
CURSOR_JS = WALK + """
const matter = require(path.resolve(__dirname, 'node_modules/gray-matter'));
const none = () => ({});
const out = {};
for (const f of files) {
  let r;
  try { r = matter(fs.readFileSync(f, 'utf8'), {engines: {js: none, javascript: none}}); }
  catch (e) { out[f] = 'Failed to read skill file: ' + String(e.message).split('\\n')[0]; continue; }
  const d = r.data && typeof r.data.description === 'string' ? r.data.description : '';
  out[f] = d ? null : 'Description is required';
}
console.log(JSON.stringify(out));
"""


def sh(*cmd, cwd=None):
    return subprocess.run(cmd, cwd=cwd, check=True, capture_output=True).stdout


def copilot_runtime():
    """The Copilot CLI's `runtime.node`: its platform package holds one executable whose
    embedded `copilot.tgz` holds the runtime."""
    dest = os.path.join(WORK, "copilot", "runtime.node")
    if os.path.exists(dest):
        return
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    name = sh("npm", "pack", COPILOT, "--silent", cwd=WORK).decode().split()[-1]
    with tarfile.open(os.path.join(WORK, name)) as t:
        exe = t.extractfile("package/copilot").read()
    os.remove(os.path.join(WORK, name))
    at = exe.find(b"NODE_SEA_BLOB")
    while True:
        at = exe.find(b"\x1f\x8b\x08", at + 1)
        if at < 0:
            sys.exit("no package found inside the Copilot CLI's executable")
        try:
            inner = tarfile.open(fileobj=io.BytesIO(gunzip(exe[at:])))
            member = inner.extractfile("package/prebuilds/linux-x64/runtime.node")
            with open(dest, "wb") as f:
                f.write(member.read())
            return
        except (zlib.error, KeyError, tarfile.TarError):
            continue


def gunzip(data):
    """The first gzip member of `data`, ignoring what follows it."""
    return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data)


def verdicts(script, roots):
    path = os.path.join(WORK, script[0])
    with open(path, "w") as f:
        f.write(script[1])
    found = json.loads(sh("node", path, *roots))
    return {os.path.realpath(k): v for k, v in found.items()}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, roots = os.path.abspath(sys.argv[1]), sys.argv[2:]
    os.makedirs(WORK, exist_ok=True)
    copilot_runtime()
    if not os.path.isdir(os.path.join(WORK, "node_modules", "gray-matter")):
        sh("npm", "install", "--no-audit", "--no-fund", "--prefix", WORK, GRAY_MATTER)
    copilot = verdicts(("copilot.js", COPILOT_JS), roots)
    # GitHub's cloud agent runs the CLI's harness, and its profile reads skills by the CLI's rules.
    hosts = {
        "copilot-cli": copilot,
        "github-copilot": copilot,
        "cursor": verdicts(("cursor.js", CURSOR_JS), roots),
    }
    for root in roots:
        report = json.loads(
            subprocess.run(
                [binary, "--fail-on", "never", "-f", "json",
                 "-p", "builtin:copilot-cli", "-p", "builtin:github-copilot",
                 "-p", "builtin:cursor", "."],
                cwd=root, check=True, capture_output=True,
            ).stdout
        )
        for host, theirs in hosts.items():
            agree, undecided, differ = 0, [], []
            for skill in report["skills"]:
                path = os.path.realpath(os.path.join(root, skill["path"]))
                status = skill["availability"][host]["status"]
                if path not in theirs:
                    # Not named `SKILL.md`: neither host finds it.
                    loads = False
                else:
                    loads = theirs[path] is None
                if status == "invalid":
                    undecided.append(skill["path"])
                elif (status != "not-loaded") == loads:
                    agree += 1
                else:
                    differ.append((skill["path"], status, theirs.get(path)))
            print(f"{os.path.basename(os.path.normpath(root))} {host}: {agree} agree, "
                  f"{len(undecided)} undecided, {len(differ)} differ")
            for d in differ:
                print("   differs:", *d)
            for u in undecided:
                print("   undecided:", u)


if __name__ == "__main__":
    main()
