#!/usr/bin/env python3
"""Validate every skill folder under the given roots with skills-ref, in one process.

skills-ref's CLI (`agentskills validate DIR`) takes one skill folder per call; starting Python
once per skill would measure interpreter start-up rather than validation, so this calls the
same `skills_ref.validate` function the CLI calls, for every folder holding a SKILL.md.
Prints the number of folders and of folders with errors.
"""

import os
import sys
from pathlib import Path

import skills_ref


def main(roots):
    folders = errors = 0
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d not in (".git", "node_modules")]
            if "SKILL.md" in filenames:
                folders += 1
                if skills_ref.validate(Path(dirpath)):
                    errors += 1
    print(f"{folders} skill folders, {errors} with errors")


if __name__ == "__main__":
    main(sys.argv[1:] or ["."])
