/** The leagues get_sports_scores knows, and where each lives in ESPN's site API. */

type LeagueShape = 'team' | 'racing' | 'golf' | 'tennis';

export interface League {
  name: string;
  path: string;
  shape: LeagueShape;
}

export const LEAGUES = {
  NFL: { name: 'NFL', path: 'football/nfl', shape: 'team' },
  NBA: { name: 'NBA', path: 'basketball/nba', shape: 'team' },
  MLB: { name: 'MLB', path: 'baseball/mlb', shape: 'team' },
  NHL: { name: 'NHL', path: 'hockey/nhl', shape: 'team' },
  MLS: { name: 'MLS', path: 'soccer/usa.1', shape: 'team' },
  EPL: { name: 'Premier League', path: 'soccer/eng.1', shape: 'team' },
  NCAAF: { name: 'NCAA football', path: 'football/college-football', shape: 'team' },
  NCAAM: { name: "NCAA men's basketball", path: 'basketball/mens-college-basketball', shape: 'team' },
  NCAAW: { name: "NCAA women's basketball", path: 'basketball/womens-college-basketball', shape: 'team' },
  WNBA: { name: 'WNBA', path: 'basketball/wnba', shape: 'team' },
  UCL: { name: 'UEFA Champions League', path: 'soccer/uefa.champions', shape: 'team' },
  WORLD_CUP: { name: 'FIFA World Cup', path: 'soccer/fifa.world', shape: 'team' },
  NWSL: { name: 'NWSL', path: 'soccer/usa.nwsl', shape: 'team' },
  F1: { name: 'Formula 1', path: 'racing/f1', shape: 'racing' },
  PGA: { name: 'PGA Tour', path: 'golf/pga', shape: 'golf' },
  ATP: { name: 'ATP', path: 'tennis/atp', shape: 'tennis' },
  WTA: { name: 'WTA', path: 'tennis/wta', shape: 'tennis' },
} as const satisfies Record<string, League>;

export type LeagueId = keyof typeof LEAGUES;

export const LEAGUE_IDS = Object.keys(LEAGUES) as [LeagueId, ...LeagueId[]];

/** One line per league for the tool description, so the model picks the right id. */
export const LEAGUE_HELP = LEAGUE_IDS.map((id) => (LEAGUES[id].name === id ? id : `${id} (${LEAGUES[id].name})`)).join(', ');
