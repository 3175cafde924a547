/** Loads every group of functions into the registry. */
import './core.js';
import './nodes.js';
import './numeric.js';
import './sequences.js';
import './strings.js';
import './documents.js';
import './metaschema.js';
import './higher-order.js';
import './maps.js';
import './arrays.js';
import './dates.js';
