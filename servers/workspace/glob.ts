/**
 * Shell-style globs as case-insensitive regular expressions: `*` (any run within one path
 * segment), `**` (any run of segments), `?`, `[abc]`, `{a,b}`.
 */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // `**/` also matches no folder at all: `**/*.ts` finds `a.ts` at the top.
        if (glob[i + 2] === '/') {
          re += '(?:.*/)?';
          i += 2;
        } else {
          re += '.*';
          i++;
        }
      } else {
        re += '[^/]*';
      }
    } else if (c === '?') {
      re += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end === -1) {
        re += '\\[';
      } else {
        const body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
        re += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) {
      re += '|';
    } else {
      re += c.replace(/[.+^$()|\\{}\]]/g, '\\$&');
    }
  }
  re += ')'.repeat(braces);
  return new RegExp(`^${re}$`, 'i');
}

export function isGlob(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}
