/** Small shared helpers: durations, sizes, free ports, name hints, tables, HTTP header bits. */
export { formatDuration, parseDuration } from './duration.js';
export { BYTE_SIZE_UNITS, formatByteSize, parseByteSize } from './size.js';
export { freePort } from './free-port.js';
export { closest } from './closest.js';
export { formatTable } from './format-table.js';
