/** Canned answers of the public APIs the web server summarises (shapes as the real APIs send them). */

export const BRAVE_RESULTS = {
  type: 'search',
  query: { original: 'model context protocol' },
  web: {
    type: 'search',
    results: [
      {
        title: 'Model Context Protocol',
        url: 'https://modelcontextprotocol.io/',
        description: 'The <strong>Model Context Protocol</strong> is an open protocol &amp; standard.',
        age: '2 days ago',
      },
      { title: 'MCP on GitHub', url: 'https://github.com/modelcontextprotocol', description: 'Specs &#x26; SDKs.' },
      { url: 'https://example.com/untitled' },
    ],
  },
};

const hour = (time: string, desc: string, rain: string) => ({ time, weatherDesc: [{ value: desc }], chanceofrain: rain });

export const WTTR_LONDON = {
  current_condition: [
    {
      FeelsLikeC: '9',
      FeelsLikeF: '48',
      humidity: '81',
      localObsDateTime: '2024-01-10 09:00 AM',
      precipMM: '0.1',
      temp_C: '11',
      temp_F: '52',
      uvIndex: '2',
      weatherDesc: [{ value: 'Light rain' }],
      winddir16Point: 'SW',
      windspeedKmph: '19',
      windspeedMiles: '12',
    },
  ],
  nearest_area: [{ areaName: [{ value: 'London' }], country: [{ value: 'United Kingdom' }], region: [{ value: 'City of London, Greater London' }] }],
  weather: [
    {
      date: '2024-01-10',
      maxtempC: '12',
      maxtempF: '54',
      mintempC: '6',
      mintempF: '43',
      hourly: [hour('0', 'Cloudy', '20'), hour('1200', 'Patchy rain', '70')],
    },
    { date: '2024-01-11', maxtempC: '9', maxtempF: '48', mintempC: '3', mintempF: '37', hourly: [hour('1200', 'Sunny', '0')] },
    { date: '2024-01-12', maxtempC: '8', maxtempF: '46', mintempC: '2', mintempF: '36' },
  ],
};

const team = (name: string, homeAway: 'home' | 'away', score: string, winner?: boolean) => ({
  homeAway,
  score,
  winner,
  team: { displayName: name, shortDisplayName: name.split(' ').pop() },
});
const status = (state: string, shortDetail: string) => ({ type: { state, completed: state === 'post', shortDetail, detail: shortDetail } });

export const ESPN_NBA = {
  leagues: [{ abbreviation: 'NBA' }],
  events: [
    {
      name: 'Boston Celtics at Los Angeles Lakers',
      date: '2024-01-10T03:30Z',
      status: status('post', 'Final'),
      competitions: [{ competitors: [team('Los Angeles Lakers', 'home', '102', true), team('Boston Celtics', 'away', '99', false)] }],
    },
    {
      name: 'Miami Heat at New York Knicks',
      date: '2024-01-10T00:00Z',
      status: status('in', 'Q3 5:12'),
      competitions: [{ competitors: [team('New York Knicks', 'home', '70'), team('Miami Heat', 'away', '75')] }],
    },
    {
      name: 'Chicago Bulls at Denver Nuggets',
      date: '2024-01-11T02:00Z',
      status: status('pre', '1/10 - 9:00 PM EST'),
      competitions: [{ competitors: [team('Denver Nuggets', 'home', '0'), team('Chicago Bulls', 'away', '0')] }],
    },
  ],
};

const driver = (name: string, order: number, winner = false) => ({ order, winner, athlete: { displayName: name } });

export const ESPN_F1 = {
  events: [
    {
      name: 'Bahrain Grand Prix',
      date: '2024-03-02T15:00Z',
      status: status('post', 'Final'),
      competitions: [
        { type: { abbreviation: 'FP1' }, status: status('post', 'Final'), competitors: [driver('Lando Norris', 1)] },
        {
          type: { abbreviation: 'Race' },
          status: status('post', 'Final'),
          competitors: [driver('Carlos Sainz', 3), driver('Max Verstappen', 1, true), driver('Sergio Perez', 2)],
        },
      ],
    },
  ],
};

export const ESPN_GOLF = {
  events: [
    {
      name: 'The Sentry',
      date: '2024-01-04T05:00Z',
      status: status('in', 'Round 3 - In Progress'),
      competitions: [
        {
          competitors: [
            { order: 2, score: '-15', athlete: { displayName: 'Collin Morikawa' } },
            { order: 1, score: '-18', athlete: { displayName: 'Chris Kirk' } },
            { order: 3, score: { displayValue: '-14' }, athlete: { displayName: 'Sahith Theegala' } },
          ],
        },
      ],
    },
  ],
};

export const ESPN_TENNIS = {
  events: [
    {
      name: 'Australian Open',
      date: '2024-01-14T00:00Z',
      status: status('in', 'In Progress'),
      groupings: [
        {
          grouping: { displayName: "Men's Singles" },
          competitions: [
            {
              status: status('post', 'Final'),
              competitors: [
                { winner: true, athlete: { displayName: 'Jannik Sinner' }, linescores: [{ value: 6 }, { value: 6 }] },
                { winner: false, athlete: { displayName: 'Daniil Medvedev' }, linescores: [{ value: 3 }, { value: 4 }] },
              ],
            },
          ],
        },
      ],
    },
  ],
};
