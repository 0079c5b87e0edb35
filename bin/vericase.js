#!/usr/bin/env -S node --experimental-async-context-frame
// (the option: bin/node-flags.js)
// Runs the TypeScript sources with Node's type stripping (Node >= 22.18), or their bundled build
// when it is up to date with them (bin/server-bundle.js).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(
    `vericase needs Node.js 22.18 or newer (this is ${process.version}). Run it through npm start or npx vericase,\n` +
      'which use the Node 22 that npm install puts in node_modules.\n',
  );
  process.exit(1);
}
const { bundleSwitch, freshBundle, enableCompileCache } = await import('./server-bundle.js');
if (bundleSwitch() === null) {
  // read here, before the configuration: the usage error every refused variable gets (exit 2)
  process.stderr.write(
    `vericase: VERICASE_BUNDLE must be true or false, got "${process.env.VERICASE_BUNDLE}". See 'vericase --help'.\n`,
  );
  process.exit(2);
}
const bundle = freshBundle();
if (bundle) enableCompileCache();
await import(bundle ?? '../src/cli/main.ts');
