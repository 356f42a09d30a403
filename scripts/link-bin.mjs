// `npm ci` runs `prepare` (the build, then this): npm cannot bin-link a package
// into its own node_modules, so `npx kubecfg` would install the checkout into
// ~/.npm/_npx and build it a second time. A link in node_modules/.bin makes
// npx find the built CLI locally and run it at once. It links the wrapper that starts Node from the
// startup snapshot when a command renders in-process (scripts/kubecfg.sh), else the bundle itself.
import { existsSync, lstatSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';

const target = existsSync('dist/bin/kubecfg') ? '../../dist/bin/kubecfg' : '../../dist/bin/kubecfg.js';
const link = 'node_modules/.bin/kubecfg';
if (!existsSync('node_modules')) process.exit(0); // built outside an install (e.g. from a tarball): nothing to link
mkdirSync('node_modules/.bin', { recursive: true });
try {
  if (lstatSync(link)) rmSync(link);
} catch {
  // no link yet
}
symlinkSync(target, link);
