import { readFileSync } from 'node:fs';
import { parseOscal } from '../src/oscal/formats/index.js';
import { validateFully } from '../src/oscal/validate/index.js';
import { CATALOG, SSP_EXAMPLE, sspWithSetOptions } from './constraint-validation.js';

/** One validation in this fresh process, reporting wall time, peak RSS and the findings' count as JSON. */
const which = process.argv[2];
const start = performance.now();
let findings = 0;
if (which === 'floor') {
  parseOscal(readFileSync(CATALOG, 'utf8'), 'json');
} else if (which === 'catalog') {
  findings = (await validateFully(readFileSync(CATALOG, 'utf8'))).issues.length;
} else {
  const options = which === 'ssp-set' ? await sspWithSetOptions() : {};
  findings = (await validateFully(readFileSync(SSP_EXAMPLE, 'utf8'), options)).issues.length;
}
const ms = performance.now() - start;
process.stdout.write(JSON.stringify({ ms, peakRssMb: process.resourceUsage().maxRSS / 1024, findings }));
