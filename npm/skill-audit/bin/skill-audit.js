#!/usr/bin/env node
// Runs the skill-audit binary from the platform package npm installed beside this one
// (@skill-audit/OS-CPU, an optional dependency that only installs on its own platform).
// SKILL_AUDIT_BINARY names another binary to run instead.
"use strict";

const { spawnSync } = require("child_process");
const path = require("path");

function binary() {
  if (process.env.SKILL_AUDIT_BINARY) {
    return process.env.SKILL_AUDIT_BINARY;
  }
  const pkg = `@skill-audit/${process.platform}-${process.arch}`;
  const exe = process.platform === "win32" ? "skill-audit.exe" : "skill-audit";
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch (e) {
    const here = path.dirname(__dirname);
    console.error(
      `skill-audit: the package ${pkg} is not installed, so there is no binary for ` +
        `${process.platform}-${process.arch}.\n` +
        `Reinstall skill-audit without --no-optional (or --omit=optional); if there is no ` +
        `such package for this platform, install from source: cargo install --locked skill-audit.\n` +
        `(looked from ${here})`,
    );
    process.exit(2);
  }
}

const result = spawnSync(binary(), process.argv.slice(2), { stdio: "inherit" });
if (result.error) {
  console.error(`skill-audit: could not run ${result.error.path || "the binary"}: ${result.error.message}`);
  process.exit(2);
}
if (result.signal) {
  process.kill(process.pid, result.signal);
}
process.exit(result.status === null ? 2 : result.status);
