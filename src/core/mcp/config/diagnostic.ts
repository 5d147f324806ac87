/** A problem found in an MCP config file, worded for the person who has to fix it. */
export interface ConfigDiagnostic {
  file: string;
  /** 1-based; absent when the problem is the file as a whole (missing, unreadable, too big). */
  line?: number;
  /** 1-based, in UTF-16 code units as editors count them. */
  column?: number;
  /** `error`: what it names was not loaded; `warning`: loaded, but probably not as meant. */
  severity: 'error' | 'warning';
  message: string;
  /** The file does not parse as JSON: what was read of it may be half of what it will say. */
  syntax?: true;
  /** The server (its name in the file) the problem belongs to, when it belongs to one. */
  server?: string;
}

/** `file:line:column: error: message`, the form compilers use, which terminals and editors link. */
export function formatDiagnostic(d: ConfigDiagnostic): string {
  const at = d.line === undefined ? d.file : `${d.file}:${d.line}:${d.column ?? 1}`;
  return `${at}: ${d.severity}: ${d.message}`;
}

export function hasErrors(diagnostics: readonly ConfigDiagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
