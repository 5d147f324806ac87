import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeControls, StreamEscaper } from '../../src/cli/escape';

test('controls are shown as escapes; newline, tab and ordinary text pass', () => {
  assert.equal(escapeControls('a\tb\nc'), 'a\tb\nc');
  assert.equal(escapeControls('\x1b[31mred\x07\x00\x7f'), '\\u001b[31mred\\u0007\\u0000\\u007f');
  assert.equal(escapeControls('\u009b1m \u202eabc\u2069'), '\\u009b1m \\u202eabc\\u2069');
  assert.equal(escapeControls('crlf\r\nlone\rcr'), 'crlf\nlone\\rcr');
  assert.equal(escapeControls('é 😀 ␛ \u00a0'), 'é 😀 ␛ \u00a0', 'printable Unicode (and NBSP, U+00A0, past C1) is left alone');
});

test('streamed pieces: a sequence split over pieces is escaped, a CRLF split over two is one newline', () => {
  const s = new StreamEscaper();
  const out = ['\x1b', ']52;c;eA==', '\x07 line\r', '\nnext\r', 'x', 'end\r'].map((p) => s.write(p)).join('') + s.flush();
  assert.equal(out, '\\u001b]52;c;eA==\\u0007 line\nnext\\rxend\\r');
});
