import type { LeagueDef, TeamDef } from '../../../schemas/index.js';

/**
 * Made-up teams for every league, for tests and benchmarks that must not depend on the size of
 * the real team catalog. Each team has the spellings books use: full name, city, nickname.
 * College football also gets the real Washington pair, whose names are the classic matcher trap.
 */
const CITIES = [
  'Riverton',
  'Lakemont',
  'Harbor City',
  'Pine Valley',
  'Fort Ellis',
  'Granite Falls',
  'Westbrook',
  'Silver Bay',
  'North Haven',
  'Clearwater',
  'Redstone',
  'Maple Ridge',
  'Stonebridge',
  'Oakdale',
  'Eastport',
  'Cedar Point',
  'Bristol Bay',
  'Kingsford',
  'Hollow Creek',
  'Summit Park',
  'Ironwood',
  'Bayside',
  'Millbrook',
  'Foxborough',
  'Ashford',
  'Lowell Springs',
  'Draper',
  'Everton Hills',
  'Glenview',
  'Highgate',
  'Juniper',
  'Kessler',
] as const;
const NICKNAMES = [
  'Hawks',
  'Comets',
  'Raptors',
  'Pioneers',
  'Miners',
  'Otters',
  'Knights',
  'Foxes',
  'Giants',
  'Rovers',
  'Storm',
  'Wolves',
  'Mariners',
  'Bison',
  'Falcons',
  'Rangers',
  'Lynx',
  'Titans',
  'Vipers',
  'Stallions',
  'Herons',
  'Badgers',
  'Cyclones',
  'Rebels',
  'Owls',
  'Sharks',
  'Bears',
  'Coyotes',
  'Eagles',
  'Jaguars',
  'Ravens',
  'Spartans',
] as const;

export const WASHINGTON_HUSKIES: Omit<TeamDef, 'numericalId'> = {
  id: 'ncaaf-washington-huskies',
  name: 'Washington Huskies',
  abbreviation: 'WASH',
  sport: 'football',
  leagues: ['ncaaf'],
  aliases: ['Washington', 'UW Huskies', 'WASH'],
};

export const WASHINGTON_STATE_COUGARS: Omit<TeamDef, 'numericalId'> = {
  id: 'ncaaf-washington-state-cougars',
  name: 'Washington State Cougars',
  abbreviation: 'WSU',
  sport: 'football',
  leagues: ['ncaaf'],
  aliases: ['Washington State', 'Washington St', 'Washington St.', 'WSU'],
};

export function syntheticTeams(leagues: readonly LeagueDef[], perLeague = 24): TeamDef[] {
  const teams: TeamDef[] = [];
  const add = (t: Omit<TeamDef, 'numericalId'>): void => void teams.push({ ...t, numericalId: teams.length + 1 });
  for (const league of leagues) {
    if (league.id === 'ncaaf') {
      add(WASHINGTON_HUSKIES);
      add(WASHINGTON_STATE_COUGARS);
    }
    for (let i = 0; i < perLeague; i++) {
      const city = CITIES[i % CITIES.length] ?? 'Springfield';
      const nickname = NICKNAMES[(i * 7 + league.numericalId) % NICKNAMES.length] ?? 'Stars';
      const abbreviation = `${league.id.slice(0, 1)}${city.replace(/[^A-Za-z]/g, '').slice(0, 2)}`.toUpperCase() + String(i);
      add({
        id: `${league.id}-${i}-${city}-${nickname}`.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        name: `${city} ${nickname}`,
        abbreviation,
        sport: league.sport,
        leagues: [league.id],
        aliases: [`${city}`, `${nickname}`, `${city.toUpperCase()} ${nickname.toUpperCase()}`, abbreviation],
      });
    }
  }
  return teams;
}
