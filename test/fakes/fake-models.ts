/** The fake API's model catalogue, in the shape of the Models API (`GET /v1/models`). */
export interface FakeModel {
  id: string;
  display_name: string;
  created_at: string;
  lifecycle: 'active' | 'deprecated' | 'retired';
  line: 'haiku' | 'sonnet' | 'opus' | null;
  deprecated_at: string | null;
  retires_at: string | null;
  max_input_tokens: number | null;
  max_tokens: number | null;
  capabilities: null;
  type: 'model';
}

function model(id: string, name: string, created: string, line: FakeModel['line'], window: number, output: number, life: Partial<FakeModel> = {}): FakeModel {
  return {
    id,
    display_name: name,
    created_at: `${created}T00:00:00Z`,
    lifecycle: 'active',
    line,
    deprecated_at: null,
    retires_at: null,
    max_input_tokens: window,
    max_tokens: output,
    capabilities: null,
    type: 'model',
    ...life,
  };
}

/** Newest first, as the API lists them: one of each lifecycle stage, and two Sonnets so "newest of the line" means something. */
export function defaultModels(): FakeModel[] {
  return [
    model('claude-opus-5-5', 'Claude Opus 5.5', '2026-09-22', 'opus', 1_000_000, 128_000),
    model('claude-sonnet-5-5', 'Claude Sonnet 5.5', '2026-09-01', 'sonnet', 1_000_000, 128_000),
    model('claude-sonnet-5', 'Claude Sonnet 5', '2026-06-30', 'sonnet', 1_000_000, 128_000),
    model('claude-haiku-4-5-20251001', 'Claude Haiku 4.5', '2025-10-01', 'haiku', 200_000, 64_000),
    model('claude-sonnet-4-5-20250929', 'Claude Sonnet 4.5', '2025-09-29', 'sonnet', 200_000, 64_000, {
      lifecycle: 'deprecated',
      deprecated_at: '2026-08-30T00:00:00Z',
      retires_at: '2026-11-30T00:00:00Z',
    }),
    model('claude-sonnet-4-20250514', 'Claude Sonnet 4', '2025-05-14', 'sonnet', 200_000, 64_000, {
      lifecycle: 'retired',
      deprecated_at: '2026-02-01T00:00:00Z',
      retires_at: '2026-05-14T00:00:00Z',
    }),
  ];
}

/** One page of `GET /v1/models` (the SDK pages with `after_id` and `limit`). */
export function modelsPage(models: FakeModel[], query: URLSearchParams): object {
  const limit = Math.min(Number(query.get('limit') ?? 20) || 20, 1000);
  const after = query.get('after_id');
  const start = after ? models.findIndex((m) => m.id === after) + 1 : 0;
  const data = models.slice(start, start + limit);
  return { data, has_more: start + limit < models.length, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}
