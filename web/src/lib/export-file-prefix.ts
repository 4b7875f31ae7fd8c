/**
 * The vendor prefix of the export file names made in the browser (spec 002 §7 "Exports": ANSYSActiveServers_…,
 * ANSYSOrderHistory_…). The server's client configuration has no field for it and the product name there is a
 * different text, so it is set here only; a deployment for another vendor changes this one constant (decision 033).
 */
export const EXPORT_FILE_PREFIX = 'ANSYS';
