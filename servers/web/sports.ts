import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { textResult, ToolError } from '../lib/results.js';
import { LEAGUES, type League, type LeagueId } from './leagues.js';
import { baseUrl, describeStatus, getUpstream, joinUrl, type UpstreamConfig } from '../lib/upstream-api.js';

/**
 * get_sports_scores on ESPN's scoreboard API. Team sports become "Away 99 – 102 Home (Final)";
 * racing, golf and tennis have other shapes, so they become the event, its status and its leaders.
 * ESPN's JSON is undocumented: every field is optional here.
 */

export const DEFAULT_ESPN_URL = 'https://site.api.espn.com/apis/site/v2/sports';
const MAX_EVENTS = 40;
const MAX_LEADERS = 5;
const MAX_MATCHES = 8;

export interface SportsConfig extends UpstreamConfig {
  espnUrl: string;
}

interface Status {
  type?: { state?: string; completed?: boolean; description?: string; detail?: string; shortDetail?: string };
}

interface Competitor {
  homeAway?: string;
  score?: string | number | { displayValue?: string; value?: number };
  winner?: boolean;
  order?: number;
  sortOrder?: number;
  team?: { displayName?: string; shortDisplayName?: string; name?: string };
  athlete?: { displayName?: string; fullName?: string };
  roster?: { displayName?: string };
  linescores?: { value?: number; displayValue?: string }[];
  status?: { position?: { displayName?: string } };
}

interface Competition {
  type?: { abbreviation?: string; text?: string };
  status?: Status;
  date?: string;
  competitors?: Competitor[];
}

interface EspnEvent {
  name?: string;
  shortName?: string;
  date?: string;
  status?: Status;
  competitions?: Competition[];
  groupings?: { grouping?: { displayName?: string }; competitions?: Competition[] }[];
}

const nameOf = (c: Competitor): string =>
  c.team?.displayName ?? c.team?.shortDisplayName ?? c.team?.name ?? c.athlete?.displayName ?? c.athlete?.fullName ?? c.roster?.displayName ?? 'Unknown';

function scoreOf(c: Competitor): string {
  if (typeof c.score === 'string' || typeof c.score === 'number') return String(c.score);
  return c.score?.displayValue ?? (c.score?.value !== undefined ? String(c.score.value) : '');
}

function statusText(status: Status | undefined): string {
  const t = status?.type;
  return t?.shortDetail ?? t?.detail ?? t?.description ?? '';
}

export function formatDate(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function teamLine(event: EspnEvent): string {
  const competition = event.competitions?.[0];
  const competitors = competition?.competitors ?? [];
  const status = event.status ?? competition?.status;
  const state = status?.type?.state;
  const detail = statusText(status);
  const date = formatDate(event.date ?? competition?.date);
  const away = competitors.find((c) => c.homeAway === 'away') ?? competitors[1];
  const home = competitors.find((c) => c.homeAway === 'home') ?? competitors[0];
  let line: string;
  if (!away || !home || away === home) line = event.name ?? event.shortName ?? 'Unnamed event';
  else if (state === 'pre' || (scoreOf(away) === '' && scoreOf(home) === '')) line = `${nameOf(away)} at ${nameOf(home)}`;
  else line = `${nameOf(away)} ${scoreOf(away)} – ${scoreOf(home)} ${nameOf(home)}`;
  return `- ${line}${detail ? ` (${detail})` : ''}${date ? ` · ${date}` : ''}`;
}

function ranked(competitors: Competitor[]): Competitor[] {
  return competitors
    .map((c, i) => ({ c, rank: c.order ?? c.sortOrder ?? i + 1 }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ c }) => c);
}

/** The session worth showing: the latest one under way or finished (the race over practice), else the first. */
function currentSession(competitions: Competition[]): Competition | undefined {
  const withField = competitions.filter((c) => (c.competitors ?? []).length > 0);
  const started = withField.filter((c) => c.status?.type?.state && c.status.type.state !== 'pre');
  return started[started.length - 1] ?? withField[0];
}

function leaderLines(event: EspnEvent, shape: 'racing' | 'golf'): string[] {
  const session = currentSession(event.competitions ?? []);
  if (!session) return [];
  const label = shape === 'racing' ? (session.type?.abbreviation ?? session.type?.text) : undefined;
  const leaders = ranked(session.competitors ?? []).slice(0, MAX_LEADERS);
  const lines = leaders.map((c, i) => {
    const position = c.status?.position?.displayName ?? String(c.order ?? i + 1);
    const score = scoreOf(c);
    return `    ${position}. ${nameOf(c)}${score ? ` (${score})` : ''}`;
  });
  return lines.length ? [`  Leaders${label ? ` (${label})` : ''}:`, ...lines] : [];
}

function matchLine(match: Competition): string {
  const [a, b] = match.competitors ?? [];
  if (!a || !b) return '';
  const sets = (c: Competitor): string => (c.linescores ?? []).map((s) => s.displayValue ?? s.value ?? '').join(' ');
  const detail = statusText(match.status);
  if (a.winner || b.winner) {
    const [w, l] = a.winner ? [a, b] : [b, a];
    const score = (w.linescores ?? []).map((s, i) => `${s.value ?? s.displayValue ?? ''}-${l.linescores?.[i]?.value ?? l.linescores?.[i]?.displayValue ?? ''}`);
    return `    ${nameOf(w)} def. ${nameOf(l)}${score.length ? ` ${score.join(' ')}` : ''}`;
  }
  const progress = sets(a) || sets(b) ? ` [${sets(a)} | ${sets(b)}]` : '';
  return `    ${nameOf(a)} vs ${nameOf(b)}${progress}${detail ? ` (${detail})` : ''}`;
}

function matchLines(event: EspnEvent): string[] {
  const matches = [...(event.competitions ?? []), ...(event.groupings ?? []).flatMap((g) => g.competitions ?? [])];
  const lines = matches.map(matchLine).filter(Boolean);
  if (lines.length === 0) return [];
  const shown = lines.slice(-MAX_MATCHES);
  const more = lines.length - shown.length;
  return ['  Matches:', ...shown, ...(more > 0 ? [`    … and ${more} earlier matches`] : [])];
}

function eventBlock(event: EspnEvent, league: League): string {
  if (league.shape === 'team') return teamLine(event);
  const detail = statusText(event.status);
  const date = formatDate(event.date);
  const header = `- ${event.name ?? event.shortName ?? 'Unnamed event'}${detail ? ` (${detail})` : ''}${date ? ` · ${date}` : ''}`;
  const body = league.shape === 'tennis' ? matchLines(event) : leaderLines(event, league.shape);
  return [header, ...body].join('\n');
}

export function formatScoreboard(id: LeagueId, json: unknown): string {
  const league: League = LEAGUES[id];
  const events = ((json as { events?: EspnEvent[] })?.events ?? []).filter((e) => e && typeof e === 'object');
  if (events.length === 0) return `No ${league.name} events on ESPN's scoreboard right now.`;
  const shown = events.slice(0, MAX_EVENTS);
  const lines = [`${league.name} scoreboard:`, '', ...shown.map((e) => eventBlock(e, league))];
  if (events.length > shown.length) lines.push('', `(${events.length - shown.length} more events not shown)`);
  return lines.join('\n');
}

export async function getSportsScores(args: { league: LeagueId }, signal: AbortSignal, config: SportsConfig): Promise<CallToolResult> {
  const league = LEAGUES[args.league];
  const url = joinUrl(baseUrl(config.espnUrl, 'ESPN_API_URL'), `${league.path}/scoreboard`);
  const res = await getUpstream('ESPN', url, config, signal);
  const problem = describeStatus('ESPN', res);
  if (problem) throw new ToolError(problem);
  if (!res.json || typeof res.json !== 'object') throw new ToolError('ESPN answered with something that is not a scoreboard; try again later.');
  return textResult(formatScoreboard(args.league, res.json));
}
