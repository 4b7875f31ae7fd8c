/**
 * Where a command writes, one line at a time: `out` its answer (stdout, which scripts capture, so nothing else goes
 * there), `err` everything else the operator is told (stderr).
 */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}
