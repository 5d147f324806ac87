import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { textResult, ToolError } from '../lib/results.js';
import { baseUrl, describeStatus, getUpstream, joinUrl, type UpstreamConfig } from '../lib/upstream-api.js';

/** get_weather on wttr.in's j1 JSON, summarised: now, then the coming days. */

export const DEFAULT_WEATHER_URL = 'https://wttr.in';

export interface WeatherConfig extends UpstreamConfig {
  weatherUrl: string;
}

type Values = { value?: unknown }[] | undefined;

interface Current {
  temp_C?: unknown;
  temp_F?: unknown;
  FeelsLikeC?: unknown;
  FeelsLikeF?: unknown;
  humidity?: unknown;
  weatherDesc?: Values;
  windspeedKmph?: unknown;
  windspeedMiles?: unknown;
  winddir16Point?: unknown;
  precipMM?: unknown;
  uvIndex?: unknown;
  localObsDateTime?: unknown;
}

interface Day {
  date?: unknown;
  maxtempC?: unknown;
  maxtempF?: unknown;
  mintempC?: unknown;
  mintempF?: unknown;
  hourly?: { weatherDesc?: Values; chanceofrain?: unknown; time?: unknown }[];
}

interface J1 {
  current_condition?: Current[];
  nearest_area?: { areaName?: Values; region?: Values; country?: Values }[];
  weather?: Day[];
}

const text = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');
const first = (values: Values): string => text(values?.[0]?.value);

function placeName(j1: J1, asked: string): string {
  const area = j1.nearest_area?.[0];
  const parts = [first(area?.areaName), first(area?.region), first(area?.country)].filter(Boolean);
  return [...new Set(parts)].join(', ') || asked;
}

/** The midday reading describes a day best; fall back to whatever hour is there. */
function middayDescription(day: Day): string {
  const hours = day.hourly ?? [];
  const noon = hours.find((h) => text(h.time) === '1200') ?? hours[Math.floor(hours.length / 2)];
  return first(noon?.weatherDesc);
}

function maxChanceOfRain(day: Day): number | undefined {
  const chances = (day.hourly ?? []).map((h) => Number(text(h.chanceofrain))).filter((n) => Number.isFinite(n));
  return chances.length ? Math.max(...chances) : undefined;
}

export function formatWeather(asked: string, j1: J1): string {
  const current = j1.current_condition?.[0];
  if (!current && !j1.weather?.length) throw new ToolError(`wttr.in has no weather data for "${asked}".`);
  const lines = [`Weather for ${placeName(j1, asked)}`];
  if (current) {
    const observed = text(current.localObsDateTime);
    lines.push('', `Now${observed ? ` (observed ${observed})` : ''}: ${first(current.weatherDesc) || 'conditions unknown'}`);
    if (text(current.temp_C)) lines.push(`- Temperature: ${text(current.temp_C)} °C / ${text(current.temp_F)} °F`);
    if (text(current.FeelsLikeC)) lines.push(`- Feels like: ${text(current.FeelsLikeC)} °C / ${text(current.FeelsLikeF)} °F`);
    if (text(current.humidity)) lines.push(`- Humidity: ${text(current.humidity)}%`);
    if (text(current.windspeedKmph)) {
      const dir = text(current.winddir16Point);
      lines.push(`- Wind: ${text(current.windspeedKmph)} km/h (${text(current.windspeedMiles)} mph)${dir ? ` from ${dir}` : ''}`);
    }
    if (text(current.precipMM)) lines.push(`- Precipitation: ${text(current.precipMM)} mm`);
    if (text(current.uvIndex)) lines.push(`- UV index: ${text(current.uvIndex)}`);
  }
  const days = j1.weather ?? [];
  if (days.length) {
    lines.push('', 'Forecast:');
    for (const day of days) {
      const rain = maxChanceOfRain(day);
      const description = middayDescription(day);
      lines.push(
        `- ${text(day.date) || 'day'}: ${text(day.mintempC)}–${text(day.maxtempC)} °C ` +
          `(${text(day.mintempF)}–${text(day.maxtempF)} °F)` +
          `${description ? `, ${description}` : ''}${rain !== undefined ? `, ${rain}% chance of rain` : ''}`,
      );
    }
  }
  return lines.join('\n');
}

export async function getWeather(args: { city: string }, signal: AbortSignal, config: WeatherConfig): Promise<CallToolResult> {
  const city = args.city.trim();
  if (!city) throw new ToolError('get_weather: give a city name, e.g. "Paris" or "New York".');
  const url = joinUrl(baseUrl(config.weatherUrl, 'WEATHER_API_URL'), encodeURIComponent(city));
  url.searchParams.set('format', 'j1');
  const res = await getUpstream('wttr.in', url, config, signal);
  if (res.status === 404) throw new ToolError(`wttr.in doesn't know a place called "${city}"; check the spelling or add the country.`);
  const problem = describeStatus('wttr.in', res);
  if (problem) throw new ToolError(problem);
  if (!res.json || typeof res.json !== 'object') {
    throw new ToolError(`wttr.in did not return weather data for "${city}": ${res.text.trim().slice(0, 200)}`);
  }
  return textResult(formatWeather(city, res.json as J1));
}
