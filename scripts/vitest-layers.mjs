// A vitest reporter for `npm test` (scripts/test.mjs): the unit, web-component and API layers run as one vitest
// run, side by side in one pool of workers (decision 069), so a layer has no wall time of its own. For each layer
// (vitest project) it records its tests' outcomes, its files' own seconds and its span (first file's start to last
// file's end), and writes them as JSON to the file named by LP_LAYER_TIMES.
import fs from 'node:fs';

export default class LayerTimes {
  /** @type {Map<unknown, number>} */
  starts = new Map();
  /** @type {Map<string, {files: number, fileSeconds: number, first: number, last: number, passed: number, failed: number, skipped: number}>} */
  layers = new Map();

  onTestModuleStart(module) {
    this.starts.set(module, Date.now());
  }

  onTestModuleEnd(module) {
    const now = Date.now();
    const start = this.starts.get(module) ?? now;
    const name = module.project.name;
    const layer = this.layers.get(name) ?? {
      files: 0,
      fileSeconds: 0,
      first: start,
      last: now,
      passed: 0,
      failed: 0,
      skipped: 0,
    };
    layer.files += 1;
    layer.fileSeconds += (now - start) / 1000;
    layer.first = Math.min(layer.first, start);
    layer.last = Math.max(layer.last, now);
    let failed = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') layer.passed += 1;
      else if (state === 'failed') failed += 1;
      else layer.skipped += 1;
    }
    // A file that fails before its tests run (an import error, a failed hook) counts as one failure.
    layer.failed += failed || (module.state() === 'failed' ? 1 : 0);
    this.layers.set(name, layer);
  }

  onTestRunEnd() {
    const file = process.env.LP_LAYER_TIMES;
    if (!file) return;
    fs.writeFileSync(file, JSON.stringify(Object.fromEntries(this.layers), null, 2));
  }
}
