import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const team = teamsOf('soccer', 'mls');

/** Major League Soccer 2025-26: all 30 clubs. */
export const MLS: readonly TeamSeed[] = [
  team('Atlanta United FC', 'ATL', ['Atlanta United', 'Atlanta']),
  team('Austin FC', 'ATX', ['Austin']),
  team('CF Montréal', 'MTL', ['CF Montreal', 'Montreal', 'Club de Foot Montréal', 'Montreal Impact']),
  team('Charlotte FC', 'CLT', ['Charlotte']),
  team('Chicago Fire', 'CHI', ['Chicago Fire FC', 'Chicago']),
  team('Colorado Rapids', 'COL', ['Colorado']),
  team('Columbus Crew', 'CLB', ['Columbus Crew SC', 'Columbus']),
  team('D.C. United', 'DC', ['DC United', 'Washington DC United']),
  team('FC Cincinnati', 'CIN', ['Cincinnati']),
  team('FC Dallas', 'DAL', ['Dallas']),
  team('Houston Dynamo', 'HOU', ['Houston Dynamo FC', 'Houston']),
  team('Inter Miami CF', 'MIA', ['Inter Miami', 'Miami']),
  team('LA Galaxy', 'LA', ['Los Angeles Galaxy', 'Galaxy']),
  team('Los Angeles FC', 'LAFC', ['LA FC']),
  team('Minnesota United FC', 'MIN', ['Minnesota United', 'Minnesota']),
  team('Nashville SC', 'NSH', ['Nashville']),
  team('New England Revolution', 'NE', ['New England', 'NE Revolution']),
  team('New York City FC', 'NYC', ['NYCFC', 'New York City', 'NY City FC']),
  team('New York Red Bulls', 'RBNY', ['NY Red Bulls', 'Red Bull New York', 'NYRB']),
  team('Orlando City SC', 'ORL', ['Orlando City', 'Orlando']),
  team('Philadelphia Union', 'PHI', ['Philadelphia']),
  team('Portland Timbers', 'POR', ['Portland']),
  team('Real Salt Lake', 'RSL', ['Salt Lake']),
  team('San Diego FC', 'SD', ['San Diego']),
  team('San Jose Earthquakes', 'SJ', ['San Jose']),
  team('Seattle Sounders FC', 'SEA', ['Seattle Sounders', 'Seattle']),
  team('Sporting Kansas City', 'SKC', ['Sporting KC', 'Kansas City']),
  team('St. Louis City SC', 'STL', ['St Louis City', 'St. Louis CITY SC', 'St. Louis']),
  team('Toronto FC', 'TOR', ['Toronto']),
  team('Vancouver Whitecaps FC', 'VAN', ['Vancouver Whitecaps', 'Vancouver']),
];
