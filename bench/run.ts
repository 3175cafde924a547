import { conversionBench } from './conversion.js';
import { largeCatalogBench } from './large-catalog.js';

console.log(`oscal-depot benchmarks on node ${process.version}, ${new Date().toISOString()}`);
conversionBench();
largeCatalogBench();
