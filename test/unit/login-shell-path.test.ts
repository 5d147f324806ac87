// The login shell's PATH for stdio servers: read through a real bash with rc files that print and that hang.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLoginShellPath } from '../../src/core/mcp/transport/login-shell-path';

const homes: string[] = [];
after(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

function home(profile: string): string {
  const h = mkdtempSync(join(tmpdir(), 'login-shell-'));
  homes.push(h);
  writeFileSync(join(h, '.bash_profile'), profile);
  return h;
}

const bash = '/bin/bash';

describe('login shell PATH', { skip: !existsSync(bash) && 'no /bin/bash' }, () => {
  test('takes the PATH the profile sets (as nvm does), ignoring what the profile prints', async () => {
    const h = home('echo "Welcome back!"\nprintf "\\033[1mbold\\033[0m"\nexport PATH="/opt/fake-nvm/bin:$PATH"\n');
    const path = await readLoginShellPath(bash, { env: { HOME: h, PATH: '/usr/bin:/bin' } });
    // /etc/profile may set its own PATH first; the profile's addition comes first and nothing it printed is in it.
    assert.match(path ?? '', /^\/opt\/fake-nvm\/bin:\/[^\s]*$/);
  });

  test('a profile that never finishes is given up on: undefined, and the host PATH is used', async () => {
    const h = home('sleep 60\n');
    const lines: string[] = [];
    const started = Date.now();
    const path = await readLoginShellPath(bash, { env: { HOME: h, PATH: '/usr/bin:/bin' }, timeoutMs: 500, log: (l) => lines.push(l) });
    assert.equal(path, undefined);
    assert.ok(Date.now() - started < 20_000, 'returned long before the 60 s sleep ended');
    assert.match(lines.join('\n'), /could not read the login shell's PATH.*no answer within 500 ms/);
  });

  test('no shell: undefined at once', async () => {
    assert.equal(await readLoginShellPath(undefined), undefined);
    assert.equal(await readLoginShellPath('/nonexistent/shell', { env: {} }), undefined);
  });
});
