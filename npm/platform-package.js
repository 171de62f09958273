// Prints the package.json of one platform package, @skill-audit/OS-CPU, from the main
// package's: the same version, licence and repository, limited to that OS and CPU.
//
//   node npm/platform-package.js npm/skill-audit/package.json OS CPU BINARY_NAME
"use strict";

const fs = require("fs");

const [mainPath, os, cpu, exe] = process.argv.slice(2);
const main = JSON.parse(fs.readFileSync(mainPath, "utf8"));
const name = `@skill-audit/${os}-${cpu}`;
if (!(name in main.optionalDependencies)) {
  console.error(`platform-package.js: ${name} is not among ${mainPath}'s optionalDependencies`);
  process.exit(2);
}
const pkg = {
  name,
  version: main.version,
  description: `The skill-audit binary for ${os} on ${cpu}, used by the skill-audit package`,
  license: main.license,
  homepage: main.homepage,
  repository: main.repository,
  os: [os],
  cpu: [cpu],
  files: [`bin/${exe}`, "README.md", "LICENSE-MIT", "LICENSE-APACHE"],
  preferUnplugged: true,
};
process.stdout.write(JSON.stringify(pkg, null, 2) + "\n");
