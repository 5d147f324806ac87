import picomatch from 'picomatch';

/**
 * How search_files tests a file name: a glob (picomatch: `*`, `**`, `?`, `[abc]`, `[!abc]`,
 * `{a,b}`, case-insensitive, dot files included) against the name, or against the relative path
 * when it holds a "/"; anything else is a case-insensitive part of the name.
 *
 * picomatch collapses runs of `**` (the old hand-made translation turned `**` + `/` repeated into
 * nested optional groups that backtracked for minutes on a deep path), but a glob still becomes a
 * regular expression, and one like `*a*a*a*a*a*a*a*a*b` still backtracks polynomially on a long
 * name. So names are only ever matched in a worker thread that is stopped when it runs too long.
 */
export type NameTest = (name: string, rel: string) => boolean;

const OPTIONS: picomatch.PicomatchOptions = { nocase: true, dot: true, posix: true, noextglob: true };

export function isGlob(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

export function nameTest(pattern: string): NameTest {
  if (!isGlob(pattern)) {
    const needle = pattern.toLowerCase();
    return (name) => name.toLowerCase().includes(needle);
  }
  const re = picomatch.makeRe(pattern, OPTIONS);
  return pattern.includes('/') ? (_name, rel) => re.test(rel) : (name) => re.test(name);
}
