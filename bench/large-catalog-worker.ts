import { readFileSync, writeFileSync } from 'node:fs';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';

/** One conversion of a large file, reporting wall time and the process's peak RSS as JSON. */
const [direction, input] = process.argv.slice(2) as [string, string];
const text = readFileSync(input, 'utf8');
const start = performance.now();
let output: string;
if (direction === 'floor') output = JSON.stringify(JSON.parse(text));
else if (direction === 'xml-to-json') output = serializeOscal(parseOscal(text, 'xml'), 'json');
else if (direction === 'yaml-to-json') output = serializeOscal(parseOscal(text, 'yaml'), 'json');
else output = serializeOscal(parseOscal(text, 'json'), 'xml');
const ms = performance.now() - start;
writeFileSync('/dev/null', output);
process.stdout.write(JSON.stringify({ ms, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
