// The cards for what servers ask, in the real chat bundle in headless Chromium: a sampling request
// (who, the messages with an image, system prompt, limit, hint, model), a form of every field kind the
// spec allows (defaults filled, checked in the card, errors beside their field), a page to open; each
// answered by keyboard, announced, withdrawn by the server, readable in light and dark.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formFromSchema } from '../../src/core/mcp/client/elicitation-form';
import type { ClientAsk, HostMessage, WebviewMessage } from '../../src/common/protocol';
import { ASK_CARD_TEXT, measureContrast } from '../fakes/contrast';
import { PNG_1PX, readyState } from '../fakes/webview-conversation';
import type { ChatPage } from '../fakes/webview-harness';
import { useChatPages } from '../fakes/webview-pages';
import { shownText } from '../support/shown-text';

const { openChat, screenshotPath } = useChatPages();

const sampling: ClientAsk = {
  kind: 'sampling',
  askId: 's1',
  server: 'everything',
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image', mimeType: 'image/png', data: PNG_1PX },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'A single pixel.' }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Say it in French.' },
        { type: 'other', label: '[audio, audio/wav]' },
      ],
    },
  ],
  systemPrompt: 'You are a terse assistant.',
  maxTokens: 500,
  modelHint: 'claude-3-sonnet, claude',
  model: 'claude-sonnet-4-5',
  tools: [],
};

/** The same server asking again after its "Always" budget ran out. */
const spentSampling: ClientAsk = { ...sampling, askId: 's4', alwaysLimit: 100_000, spent: { used: 100_480, limit: 100_000 } };
/** Two servers allowed "Always": one with budget left, one spent. */
const budgets = [
  { server: 'everything', used: 12_345, limit: 100_000 },
  { server: 'summarizer', used: 100_480, limit: 100_000 },
];

/** Every field kind the spec allows, built by the host's own code from a server's schema. */
const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', minLength: 2 },
    email: { type: 'string', format: 'email', title: 'Email', description: 'Where the receipt goes' },
    site: { type: 'string', format: 'uri', title: 'Website' },
    born: { type: 'string', format: 'date', title: 'Birthday', default: '2000-01-31' },
    when: { type: 'string', format: 'date-time', title: 'Meeting time' },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150, default: 30 },
    score: { type: 'number', title: 'Score' },
    subscribe: { type: 'boolean', title: 'Subscribe to news', default: true },
    color: {
      type: 'string',
      title: 'Colour',
      oneOf: [
        { const: 'r', title: 'Red' },
        { const: 'g', title: 'Green' },
      ],
    },
    size: { type: 'string', enum: ['S', 'M', 'L'], default: 'M' },
    tags: {
      type: 'array',
      title: 'Tags',
      minItems: 1,
      maxItems: 2,
      items: {
        anyOf: [
          { const: 'a', title: 'Alpha' },
          { const: 'b', title: 'Beta' },
          { const: 'c', title: 'Gamma' },
        ],
      },
      default: ['a'],
    },
    plain: { type: 'array', title: 'Plain list', items: { type: 'string', enum: ['x', 'y'] } },
  },
  required: ['name', 'email', 'age', 'color', 'tags'],
};
const form: ClientAsk = { kind: 'form', askId: 'f1', server: 'shop', message: 'Tell us about you', fields: formFromSchema(SCHEMA).fields };
const SECRET_SCHEMA = {
  type: 'object',
  properties: { user: { type: 'string', title: 'User name' }, password: { type: 'string', title: 'Password' }, apiKey: { type: 'string', title: 'API key' } },
};
/** What the host sends for a form whose fields look like secrets (secret-fields.ts names them). */
const secretForm: ClientAsk = {
  kind: 'form',
  askId: 'f9',
  server: 'shop',
  message: 'Sign in to your shop account',
  fields: formFromSchema(SECRET_SCHEMA).fields,
  secretFields: ['password', 'apiKey'],
};
const url: ClientAsk = {
  kind: 'url',
  askId: 'u1',
  server: 'auth',
  message: 'Sign in to continue',
  url: 'https://login.example.com.evil.io/oauth/authorize?client_id=abc&redirect_uri=https%3A%2F%2Fevil.example%2F&state=xyz',
  site: { host: 'login.example.com.evil.io', domain: 'evil.io' },
};
/** An international name that reads like a well-known one (a Cyrillic а), as the host sends it. */
const idnUrl: ClientAsk = {
  kind: 'url',
  askId: 'u3',
  server: 'auth',
  message: 'Confirm your Apple ID',
  url: 'https://xn--pple-43d.com:8443/id',
  site: { host: 'xn--pple-43d.com:8443', domain: 'xn--pple-43d.com', unicode: 'аpple.com' },
};

async function openWith(...asks: ClientAsk[]): Promise<ChatPage> {
  const chat = await openChat({ width: 360, height: 900 });
  await chat.post({ type: 'state', state: readyState } satisfies HostMessage);
  await chat.post({ type: 'replay', events: [] } satisfies HostMessage);
  for (const ask of asks) await chat.post({ type: 'ask', ask } satisfies HostMessage);
  await chat.page.waitForFunction((n) => document.querySelectorAll('.ask-card').length === n, asks.length);
  return chat;
}

async function answers(chat: ChatPage): Promise<Extract<WebviewMessage, { type: 'answerAsk' }>[]> {
  return (await chat.posted()).filter((m): m is Extract<WebviewMessage, { type: 'answerAsk' }> => m.type === 'answerAsk');
}

describe('chat webview: cards for what servers ask', () => {
  test('a sampling card shows who asks, the messages (the image drawn), the system prompt, the limit, the hint and the model; keyboard alone allows it', async () => {
    const chat = await openWith(sampling);
    const { page } = chat;
    const card = page.locator('.ask-card[data-ask-id="s1"]');
    assert.match(await shownText(card.locator('.ask-title')), /everything asks the model for a reply/);
    assert.equal(await shownText(card.locator('.ask-model')), 'claude-sonnet-4-5');
    assert.equal(await shownText(card.locator('.ask-model-hint')), 'claude-3-sonnet, claude');
    assert.equal(await shownText(card.locator('.ask-max-tokens')), '500');
    assert.equal(await shownText(card.locator('.ask-system .ask-text')), 'You are a terse assistant.');
    assert.deepEqual(await card.locator('.ask-message').evaluateAll((els) => els.map((e) => e.getAttribute('data-role'))), ['user', 'assistant', 'user']);
    const img = card.locator('img.ask-image');
    assert.equal(await img.getAttribute('alt'), 'An image the server sent (image/png)');
    assert.equal(await img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth), 1);
    assert.match(await shownText(card.locator('.ask-other')), /audio/);
    // Announced at once, the way an approval is.
    await page.waitForFunction(() =>
      /Question from a server: everything asks the model for a reply/.test(document.querySelector('[role="alert"]')?.textContent ?? ''),
    );
    assert.deepEqual(await chat.cspViolations(), []);

    // From the composer, backwards with Shift+Tab, to Allow once; Enter answers.
    await page.locator('#input').focus();
    for (let i = 0; i < 12 && !(await page.evaluate(() => document.activeElement?.getAttribute('data-answer') === 'once')); i++)
      await page.keyboard.press('Shift+Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-answer')), 'once', 'Allow once is reachable by keyboard');
    await page.keyboard.press('Enter');
    await chat.waitForPosted('answerAsk');
    assert.deepEqual(
      (await answers(chat)).map((m) => m.answer),
      [{ kind: 'sampling', decision: 'once' }],
    );
    assert.equal(await card.locator('button[data-answer="deny"]').isDisabled(), true, 'one answer only');
    await chat.post({ type: 'askSettled', askId: 's1', outcome: 'once' } satisfies HostMessage);
    await card.locator('.ask-outcome:not([hidden])').waitFor();
    assert.equal(await card.getAttribute('data-state'), 'once');
    assert.equal(await card.locator('button').count(), 0);
  });

  test('Deny and Always are answers of their own; a card the server withdraws says so and takes no answer', async () => {
    const chat = await openWith(sampling, { ...sampling, askId: 's2' }, { ...sampling, askId: 's3' });
    const { page } = chat;
    await page.locator('.ask-card[data-ask-id="s1"] button[data-answer="deny"]').click();
    await page.locator('.ask-card[data-ask-id="s2"] button[data-answer="always"]').click();
    await chat.waitForPosted('answerAsk', 2);
    assert.deepEqual(
      (await answers(chat)).map((m) => [m.askId, m.answer]),
      [
        ['s1', { kind: 'sampling', decision: 'deny' }],
        ['s2', { kind: 'sampling', decision: 'always' }],
      ],
    );
    await chat.post({ type: 'askSettled', askId: 's3', outcome: 'withdrawn' } satisfies HostMessage);
    const withdrawn = page.locator('.ask-card[data-ask-id="s3"]');
    await page.waitForFunction(() => document.querySelector('.ask-card[data-ask-id="s3"]')?.getAttribute('data-state') === 'withdrawn');
    assert.match(await shownText(withdrawn.locator('.ask-outcome')), /Withdrawn: the server no longer asks/);
    assert.equal(await withdrawn.locator('button').count(), 0);
    // Another chat opened: answered cards go, a pending one stays.
    await chat.post({ type: 'askSettled', askId: 's1', outcome: 'deny' } satisfies HostMessage);
    await chat.post({ type: 'replay', events: [] } satisfies HostMessage);
    assert.deepEqual(await page.locator('.ask-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-ask-id'))), ['s2']);
  });

  test('a form of every field kind: defaults filled in, wrong answers kept in the card with errors beside their fields, then sent typed', async () => {
    const chat = await openWith(form);
    const { page } = chat;
    const card = page.locator('.ask-card[data-ask-id="f1"]');
    const field = (name: string) => card.locator(`.ask-field[data-field="${name}"]`);
    // Defaults.
    assert.equal(await field('born').locator('input').inputValue(), '2000-01-31');
    assert.equal(await field('born').locator('input').getAttribute('type'), 'date');
    assert.equal(await field('email').locator('input').getAttribute('type'), 'email');
    assert.equal(await field('site').locator('input').getAttribute('type'), 'url');
    assert.equal(await field('age').locator('input').inputValue(), '30');
    assert.equal(await field('subscribe').locator('input').isChecked(), true);
    assert.equal(await field('size').locator('select').inputValue(), 'M');
    assert.equal(await field('color').locator('select').inputValue(), '', 'no choice is made for the person');
    assert.deepEqual(await field('color').locator('option').allInnerTexts(), ['Choose…', 'Red', 'Green']);
    assert.equal(await field('tags').locator('input[value="a"]').isChecked(), true);
    assert.match(await shownText(field('email')), /Where the receipt goes/);

    // Wrong: nothing is sent; each error is beside its field and the first wrong field has the focus.
    await field('email').locator('input').fill('not-an-email');
    await field('age').locator('input').fill('200');
    await field('when').locator('input').fill('tomorrow');
    await field('tags').locator('input[value="b"]').check();
    await field('tags').locator('input[value="c"]').check();
    await card.locator('button[data-answer="accept"]').click();
    const errors = await card
      .locator('.ask-field-error:not([hidden])')
      .evaluateAll((els) => els.map((e) => [e.closest('[data-field]')?.getAttribute('data-field'), e.textContent]));
    assert.deepEqual(errors, [
      ['name', 'Your name: required'],
      ['email', 'Email: expected an email address'],
      ['when', 'Meeting time: expected a date-time (ISO 8601)'],
      ['age', 'Age: at most 150'],
      ['color', 'Colour: required'],
      ['tags', 'Tags: pick at most 2'],
    ]);
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name), 'name');
    assert.equal(await field('email').locator('input').getAttribute('aria-invalid'), 'true');
    assert.match((await field('email').locator('input').getAttribute('aria-describedby')) ?? '', /-error/);
    assert.equal((await answers(chat)).length, 0);

    // Fixed as typed: the error goes as soon as the field fits.
    await field('email').locator('input').fill('ada@example.com');
    assert.equal(await field('email').locator('.ask-field-error').isHidden(), true);
    await field('age').locator('input').fill('36');
    await field('when').locator('input').fill('2026-11-23T13:30:00Z');
    await field('color').locator('select').selectOption('g');
    await field('tags').locator('input[value="c"]').uncheck();
    await field('score').locator('input').fill('2.5');
    await field('name').locator('input').fill('Ada');
    await field('name').locator('input').press('Enter');
    await chat.waitForPosted('answerAsk');
    assert.deepEqual(
      (await answers(chat)).map((m) => m.answer),
      [
        {
          kind: 'form',
          action: 'accept',
          content: {
            name: 'Ada',
            email: 'ada@example.com',
            born: '2000-01-31',
            when: '2026-11-23T13:30:00Z',
            age: 36,
            score: 2.5,
            subscribe: true,
            color: 'g',
            size: 'M',
            tags: ['a', 'b'],
          },
        },
      ],
    );
    await chat.post({ type: 'askSettled', askId: 'f1', outcome: 'accept' } satisfies HostMessage);
    await page.waitForFunction(() => document.querySelector('.ask-card[data-ask-id="f1"]')?.getAttribute('data-state') === 'accept');
    assert.equal(await field('name').locator('input').isDisabled(), true);
  });

  test('Decline and Cancel on a form, and Open on a page whose whole address is shown, are each their own answer', async () => {
    const chat = await openWith(form, { ...form, askId: 'f2' }, url);
    const { page } = chat;
    await page.locator('.ask-card[data-ask-id="f1"] button[data-answer="decline"]').click();
    await page.locator('.ask-card[data-ask-id="f2"] button[data-answer="cancel"]').click();
    const page3 = page.locator('.ask-card[data-ask-id="u1"]');
    assert.equal(await shownText(page3.locator('.ask-url')), url.kind === 'url' ? url.url : '');
    assert.equal(await shownText(page3.locator('.ask-site')), 'evil.io');
    assert.equal(await shownText(page3.locator('.ask-host')), 'login.example.com.evil.io');
    assert.equal(await shownText(page3.locator('.ask-host strong')), 'evil.io', 'the site stands out within the host');
    assert.equal(await page3.locator('.ask-warnings').count(), 0);
    await page3.locator('button[data-answer="accept"]').focus();
    await page.keyboard.press('Space');
    await chat.waitForPosted('answerAsk', 3);
    assert.deepEqual(
      (await answers(chat)).map((m) => [m.askId, m.answer]),
      [
        ['f1', { kind: 'form', action: 'decline' }],
        ['f2', { kind: 'form', action: 'cancel' }],
        ['u1', { kind: 'url', action: 'accept' }],
      ],
    );
  });

  test('a form that asks for what looks like a secret says first, in a warning box, not to type one, and marks those fields', async () => {
    const chat = await openWith(secretForm);
    const { page } = chat;
    const card = page.locator('.ask-card[data-ask-id="f9"]');
    const body = card.locator('.ask-body > *');
    assert.equal(await body.first().getAttribute('class'), 'ask-warnings', 'the warning comes before the message and the fields');
    assert.equal(
      await shownText(card.locator('.ask-warning')),
      'This form asks for what looks like a secret (Password, API key). MCP servers must not ask for passwords, keys, codes or card numbers in a form: do not type one here. Whatever you type goes to shop as it is.',
    );
    assert.deepEqual(await card.locator('.ask-field-secret').evaluateAll((els) => els.map((e) => e.getAttribute('data-field'))), ['password', 'apiKey']);
    assert.equal(await card.getByLabel('Password').count(), 1);
    assert.match((await card.locator('.ask-field[data-field="password"] input').getAttribute('aria-describedby')) ?? '', /-error/);
    assert.match(await shownText(card.locator('.ask-field[data-field="password"] .ask-field-label')), /looks like a secret/);
    await page.waitForFunction(() =>
      /Warning: it asks for what looks like a secret; do not type one\./.test(document.querySelector('[role="alert"]')?.textContent ?? ''),
    );
    await chat.post({ type: 'ask', ask: form } satisfies HostMessage);
    await page.locator('.ask-card[data-ask-id="f1"]').waitFor();
    assert.equal(await page.locator('.ask-card[data-ask-id="f1"] .ask-warnings').count(), 0, 'an ordinary form has no warning');
  });

  test('an international name is shown as sent (xn--) with a warning saying how it reads; the announcement names the site', async () => {
    const chat = await openWith(idnUrl);
    const { page } = chat;
    const card = page.locator('.ask-card[data-ask-id="u3"]');
    assert.equal(await shownText(card.locator('.ask-site')), 'xn--pple-43d.com');
    assert.equal(await card.locator('.ask-host').count(), 0, 'the host is the site (and its port)');
    assert.equal(
      await shownText(card.locator('.ask-warning')),
      "This site's name has letters outside a–z, so it is shown as your browser sends it (xn--pple-43d.com). Written out it reads “аpple.com”, which can pass for another site's name.",
    );
    await page.waitForFunction(() =>
      /open a page on xn--pple-43d\.com\. Warning: its name has letters outside a–z and reads “аpple\.com”/.test(
        document.querySelector('[role="alert"]')?.textContent ?? '',
      ),
    );
  });

  test('"Always" says what it allows; a server whose budget is spent asks again saying how much it used; the chat shows each budget', async () => {
    const chat = await openWith({ ...sampling, alwaysLimit: 100_000 }, spentSampling);
    const { page } = chat;
    const first = page.locator('.ask-card[data-ask-id="s1"]');
    assert.equal(await shownText(first.locator('.ask-always-limit')), 'up to 100,000 tokens until the window closes, then it asks again');
    assert.equal(await first.locator('.ask-warnings').count(), 0);
    const again = page.locator('.ask-card[data-ask-id="s4"]');
    assert.equal(await again.locator('.ask-body > *').first().getAttribute('class'), 'ask-warnings');
    assert.equal(
      await shownText(again.locator('.ask-warning')),
      'everything had “Always” and has used its budget: 100,480 of 100,000 tokens. It asks again; Always starts a new budget.',
    );
    await page.waitForFunction(() =>
      /Its budget after “Always” is used: 100,480 of 100,000 tokens\./.test(document.querySelector('[role="alert"]')?.textContent ?? ''),
    );
    await first.locator('button[data-answer="always"]').click();
    await chat.waitForPosted('answerAsk');
    await chat.post({ type: 'askSettled', askId: 's1', outcome: 'always' } satisfies HostMessage);
    await first.locator('.ask-outcome:not([hidden])').waitFor();
    assert.equal(await shownText(first.locator('.ask-outcome')), 'Always allowed for everything, up to 100,000 tokens (until the window closes)');
    await chat.post({ type: 'state', state: { ...readyState, samplingBudgets: budgets } } satisfies HostMessage);
    await page.locator('#status .sampling-budget').nth(1).waitFor();
    assert.deepEqual(await page.locator('#status .sampling-budget').allInnerTexts(), [
      'everything may ask the model without asking you: 12,345 of 100,000 tokens used (until the window closes).',
      "summarizer's sampling budget is spent (100,480 of 100,000 tokens): its next request asks you again.",
    ]);
    await chat.post({ type: 'state', state: readyState } satisfies HostMessage);
    await page.waitForFunction(() => document.querySelectorAll('#status .sampling-budget').length === 0);
  });

  test('an ask that breaks the protocol is not drawn, and the chat goes on', async () => {
    const chat = await openWith();
    await chat.post({
      type: 'ask',
      ask: { kind: 'form', askId: 'bad', server: 'x', message: 'm', fields: [{ kind: 'file', name: 'f', title: 'f', required: true }] },
    });
    await chat.post({
      type: 'ask',
      ask: { ...sampling, askId: 'img', messages: [{ role: 'user', content: [{ type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' }] }] },
    });
    await chat.post({ type: 'ask', ask: sampling });
    await chat.page.locator('.ask-card[data-ask-id="s1"]').waitFor();
    assert.equal(await chat.page.locator('.ask-card').count(), 1);
  });

  for (const theme of ['light', 'dark', 'hc-dark', 'hc-light'] as const) {
    test(`the cards are readable in ${theme} (contrast at least 4.5:1) and fit a narrow side bar`, async (t) => {
      const chat = await openChat({ theme, width: 320, height: 1400 });
      await chat.post({ type: 'state', state: { ...readyState, samplingBudgets: budgets } } satisfies HostMessage);
      await chat.post({ type: 'replay', events: [] } satisfies HostMessage);
      for (const ask of [sampling, spentSampling, form, secretForm, url, idnUrl, { ...url, askId: 'u2' }])
        await chat.post({ type: 'ask', ask } satisfies HostMessage);
      const { page } = chat;
      await page.locator('.ask-card[data-ask-id="u2"]').waitFor();
      await page.locator('.ask-card[data-ask-id="f1"] button[data-answer="accept"]').click(); // shows the errors
      await chat.post({ type: 'askSettled', askId: 'u2', outcome: 'decline' } satisfies HostMessage);
      await page.waitForFunction(() => document.querySelector('.ask-card[data-ask-id="u2"]')?.getAttribute('data-state') === 'decline');
      const overflow = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        return Array.from(document.querySelectorAll('.ask-card *'))
          .filter((el) => el.getBoundingClientRect().right > width + 0.5)
          .map((el) => el.className);
      });
      assert.deepEqual(overflow, []);
      const measured = await measureContrast(page.locator('body'), [...ASK_CARD_TEXT, '.sampling-budget span']);
      for (const s of ASK_CARD_TEXT)
        assert.ok(
          measured.some((m) => m.selector === s),
          `nothing matched ${s}`,
        );
      const worst = [...measured].sort((a, b) => a.ratio - b.ratio)[0]!;
      t.diagnostic(`${measured.length} texts; lowest ${worst.ratio.toFixed(2)} (${worst.selector} "${worst.text}")`);
      assert.deepEqual(
        measured.filter((m) => m.ratio < 4.5).map((m) => `${m.selector} "${m.text}" ${m.ratio.toFixed(2)} (rgb ${m.fg} on ${m.bg})`),
        [],
      );
      await page.locator('#status').screenshot({ path: screenshotPath(`sampling-budgets-${theme}`) });
      for (const id of ['s1', 's4', 'f1', 'f9', 'u1', 'u3', 'u2'])
        await page.locator(`.ask-card[data-ask-id="${id}"]`).screenshot({ path: screenshotPath(`ask-${id}-${theme}`) });
    });
  }
});
